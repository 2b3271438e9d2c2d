"""How CMD runs on each side: its words, its folder and its environment.

CMD is split into words as a shell would split it, and run without a shell
(for pipes or ``&&``, write ``sh -c '...'``). The "after" side differs from
the "before" side in three ways only:

- it runs in the copy: the working folder, and any absolute path into the
  project in CMD's words or in PYTHONPATH, point into the copy instead;
- with ``--verify-python PY``: a first word ``python``, ``python3`` or
  ``python3.12`` becomes PY, a first word ``pytest`` becomes ``PY -m pytest``,
  and PY's folder goes first on PATH (as when its venv is activated), so
  that a ``make test`` finds that venv's python and pytest too;
- nothing else: the same environment, the same words.

On both sides pytest loads the probe plugin (through PYTEST_ADDOPTS, so a
pytest started by a script loads it too), and ``python -m unittest`` runs as
the probe's stand-in: each test's outcome is recorded. Neither side writes
bytecode (PYTHONDONTWRITEBYTECODE): the run before, in the project itself,
leaves no ``__pycache__`` in the user's tree.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UsageError

PROBES = Path(__file__).resolve().parent / "probes"
_PYTHON = re.compile(r"python(\d+(\.\d+)*)?(\.exe)?")
_PYTEST = ("pytest", "py.test")


def words_of(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise UsageError(f"--verify {command!r}: {error}") from None
    if not words:
        raise UsageError("--verify: the command is empty")
    return words


def with_python(words: list[str], python: str | None) -> list[str]:
    """CMD's words for the side that runs ``python`` (None: as written)."""
    if python is None:
        return words
    first = os.path.basename(words[0])
    if _PYTHON.fullmatch(first):
        return [python, *words[1:]]
    if first in _PYTEST:
        return [python, "-m", "pytest", *words[1:]]
    return words


def with_unittest_probe(words: list[str]) -> list[str]:
    """``python -m unittest ARGS`` -> ``python -m hijax_verify_unittest ARGS``."""
    for at in range(len(words) - 1):
        if words[at] == "-m" and _PYTHON.fullmatch(os.path.basename(words[0])):
            if words[at + 1] == "unittest":
                return [*words[: at + 1], "hijax_verify_unittest", *words[at + 2 :]]
            return words
    return words


@dataclass(frozen=True)
class Side:
    """One side's run of CMD."""

    name: str  # "before" or "after"
    words: list[str]
    cwd: Path
    env: dict[str, str]


def moved(text: str, root: Path, copy: Path | None) -> str:
    """``text`` with absolute paths into the project pointing into the copy."""
    if copy is None:
        return text
    return re.sub(re.escape(str(root)) + r"(?=$|[/\\:=,])", lambda _: str(copy), text)


def folders(root: Path, copy: Path) -> tuple[Path, Path]:
    """The working folders: the current one and its place in the copy when it
    is inside the project, else the project's top and the copy's."""
    here = Path.cwd().resolve()
    if here == root or root in here.parents:
        return here, copy / here.relative_to(root)
    return root, copy


def side(name: str, command: str, root: Path, copy: Path, results: Path, python: str | None = None) -> Side:
    """The "before" side (in the original) or the "after" one (in the copy)."""
    into = copy if name == "after" else None
    words = with_unittest_probe(with_python([moved(word, root, into) for word in words_of(command)], python))
    before, after = folders(root, copy)
    return Side(name, words, after if into else before, environment(root, into, results, python))


def environment(root: Path, copy: Path | None, results: Path, python: str | None) -> dict[str, str]:
    """This process's environment, with the probes found and told where to
    write, PYTHONPATH moved into the copy, and ``python``'s folder first on PATH."""
    env = dict(os.environ)
    paths = [moved(p, root, copy) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([str(PROBES), *paths])
    env["PYTEST_ADDOPTS"] = f"{env.get('PYTEST_ADDOPTS', '')} -p hijax_verify_pytest".strip()
    env["HIJAX_VERIFY_RESULTS"] = str(results)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the user's tree is left as it was, caches included
    if python is not None:
        env["PATH"] = os.pathsep.join([os.path.dirname(python), env.get("PATH", "")])
        env.pop("PYTHONHOME", None)
    return env
