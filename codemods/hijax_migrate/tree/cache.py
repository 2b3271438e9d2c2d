"""A cache across runs, as black and ruff keep: one entry per file, in the
user's cache directory, so a second run over an unchanged tree reads the
files and little else.

An entry's key names everything a file's result depends on but other files:
the tool (its version and its own sources), the options (of the run, and
the rules the file's per-file-ignores skip: not the whole table, which a
file's result rests on only through its own row), the file's name,
module and search roots, and its text; with ``--black``, black's version and
the settings it reads for the file. What it depends on in other files
(every module its bases were looked up in, found or not; the files that
may subclass its classes or use their rules) is listed inside the entry
with the digest of the text that was summarised, and checked on every hit:
a base changed in another file is a miss, never a stale answer.
A cache that cannot be read or written is no cache: the run goes on.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

from ..core.model import Change, Finding
from ..core.version import __version__

SEARCHED = "(subclasses of)"  # a dependency on a search of the tree for subclasses (no module name)
USED = "(uses of)"  # and on a search of the tree for uses of a rule (``calls``)
MARKED = "(marks in)"  # and on a search of the tree for files that may hold a suppression

FORMAT = 1
ENV_DIR = "HIJAX_MIGRATE_CACHE_DIR"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def default_dir() -> Path:
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hijax-migrate", appauthor=False))


def tool_key() -> str:
    """The version, and the size and time of each of the tool's sources: an
    edited checkout never reads what an older one wrote. Worked out once a run
    (``Run.start``), never kept by this module: a checkout edited between two
    runs in one process is seen by the second."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the whole package, every folder
    parts = [__version__]
    for folder, folders, names in os.walk(package):
        folders.sort()  # a stable order: the key is the same for the same sources
        for name in sorted(name for name in names if name.endswith(".py")):
            info = os.stat(os.path.join(folder, name))
            parts.append(f"{os.path.relpath(folder, package)}/{name}:{info.st_size}:{info.st_mtime_ns}")
    return digest("\n".join(parts))


def black_style(path: Path) -> str:
    """black's version and the ``[tool.black]`` table it finds for ``path``
    (as engine/formatting.py asks it), as a key."""
    try:
        import black

        from ..sources.black_config import black_config

        found, config = black_config(path)
        return json.dumps([black.__version__, found, config], sort_keys=True, default=str)
    except (ImportError, OSError, ValueError) as error:  # black missing, its settings unreadable: the run reports it
        return f"black unusable: {type(error).__name__}: {error}"


class Cache:
    """``tool``: the run's ``tool_key()`` (None: worked out here)."""

    def __init__(self, folder: Path | None, options, roots: tuple[Path, ...], tool: str | None = None):
        self.folder = folder  # None: off
        tool = tool if tool is not None else tool_key()
        run_wide = dataclasses.asdict(options) | {"per_file": None}  # a file's own row: in its key (``_path``)
        self._context = json.dumps([FORMAT, tool, run_wide, [str(r) for r in roots]], default=sorted, sort_keys=True)
        self._digests: dict[Path, str | None] = {}  # this run's reads of other files
        self._black = options.black
        self._styles: dict[str, str] = {}  # folder -> black's version and settings there

    def holds_nothing(self) -> bool:
        """Can no lookup find an entry? Off, or its folder not made yet (a first run)."""
        return self.folder is None or not os.path.isdir(self.folder)

    def _path(self, display: str, module: str, text: str, file_skip: tuple[str, ...] = ()) -> Path:
        """``file_skip``: what the file's per-file-ignores skip (``Options.for_file``)."""
        skipped = ",".join(sorted(set(file_skip)))
        key = digest("\0".join((self._context, display, module, digest(text), self._style(display), skipped)))
        return self.folder / key[:2] / key[2:]

    def _style(self, display: str) -> str:
        """With ``--black``, black's version and the settings it reads for
        this file: a change to either changes the output."""
        if not self._black:
            return ""
        folder = os.path.dirname(os.path.abspath(display))
        if folder not in self._styles:
            self._styles[folder] = black_style(Path(display))
        return self._styles[folder]

    def lookup(self, display: str, module: str, text: str, index, file_skip: tuple[str, ...] = ()) -> dict | None:
        """The stored outcome's fields, if every file it depends on is as it was (in the run's ``index``)."""
        if self.folder is None:
            return None
        try:
            entry = json.loads(self._path(display, module, text, file_skip).read_text())
            if all(self._still(dep, index) for dep in entry["deps"]):
                return _outcome_fields(entry["outcome"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # missing or corrupt: a miss
        return None

    def _still(self, dep: list, index) -> bool:
        module, path, text_digest = dep
        if module == SEARCHED:  # the files that may subclass a class of this one
            return index.naming_digest(path) == text_digest
        if module == USED:  # the files that may use a rule of this one
            return index.uses_digest(path) == text_digest
        if module == MARKED:  # the files that may hold a suppression reaching this one's families
            return index.marks_digest() == text_digest
        found = index.find(module)
        if (str(found) if found else None) != path:
            return False
        return found is None or self._digest(found) == text_digest

    def _digest(self, path: Path) -> str | None:
        if path not in self._digests:
            from ..sources.files import read_source

            try:
                self._digests[path] = digest(read_source(path).text)
            except Exception:  # unreadable now: no digest matches
                self._digests[path] = None
        return self._digests[path]

    def store(self, display: str, module: str, text: str, result, index, file_skip: tuple[str, ...] = ()) -> None:
        """Keep ``result``, with what its answers (``result.answers``) rest on, as
        the run's ``index`` finds it: never where that is text not on disk."""
        if self.folder is None or result.answers is None:
            return
        deps = index.dependencies(result.answers, module)
        if deps is None:
            return
        report = result.report
        fields = {
            "changes": [dataclasses.asdict(c) for c in report.changes],
            "findings": [dataclasses.asdict(f) for f in report.findings],
            "code": result.code if result.code != text else None,
            "primitives": report.primitives,
        }
        try:
            _write(self._path(display, module, text, file_skip), json.dumps({"deps": deps, "outcome": fields}))
        except (OSError, ValueError, TypeError):
            pass  # an unwritable cache costs speed, never the run


def _outcome_fields(stored: dict) -> dict:
    return {
        "changes": [Change(**c) for c in stored["changes"]],
        "findings": [Finding(**f) for f in stored["findings"]],
        "code": stored["code"] if stored["code"] is None else str(stored["code"]),
        "primitives": int(stored["primitives"]),
    }


def _write(path: Path, data: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # a run that writes no entry (a warm one) starts without it

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(data)
        os.replace(tmp, path)  # readers see the old entry or the new, never half
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
