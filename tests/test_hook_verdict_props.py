"""The pre-commit hook judges what the command line judges, by property:
from a committed tree that ``hijax-migrate --check .`` passes, a random
commit (bases made primitives or not, subclasses and users edited, jax
pinned by ``uv.lock`` or by a requirement file reached through ``-r`` in a
subfolder, files removed) is blocked by the hook exactly when ``--check .``
fails on the committed content.

``HIJAX_HOOK_EXAMPLES`` raises the number of cases (the suite runs a few
dozen; the measurement in docs/safety.md ran hundreds).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hijax_migrate.cli import main
from hijax_migrate.git import gitcheck
from hijax_migrate.git.hooks import _verdict
from hijax_migrate.sources.gitrepo import repo_at
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
EXAMPLES = int(os.environ.get("HIJAX_HOOK_EXAMPLES", "15"))
PRIM = "from jax.experimental.hijax import VJPHiPrimitive\n\n\n"
ABSENT = None
SUB = "from pkg.base import Base\n\n\nclass Sub(Base):\n    def {name}(self, res, g):\n        return (g,)\n"
OTHER = "from pkg.base import Base\n\n\nclass Other(Base):\n    def vjp_fwd(self, nzs_in, x):\n        return x, None\n"
VARIANTS = {
    "pkg/base.py": [
        PRIM + "class Base(VJPHiPrimitive):\n    pass\n",
        "class Base:\n    pass\n",
        "from pkg.mixin import Mixin\n\n\nclass Base(Mixin):\n    pass\n",
    ],
    "pkg/mixin.py": [PRIM + "class Mixin(VJPHiPrimitive):\n    pass\n", "class Mixin:\n    pass\n"],
    "pkg/sub.py": [SUB.format(name="vjp_bwd"), SUB.format(name="vjp_bwd_retval"), ABSENT],
    "pkg/leaf.py": ["from pkg.sub import Sub\n\n\nclass Leaf(Sub):\n    pass\n", ABSENT],
    "pkg/other.py": [OTHER, "x = 1\n", ABSENT],
    "pkg/user.py": ["from pkg.sub import Sub\n\n\ndef back(res, g):\n    return Sub().vjp_bwd(res, g)\n", ABSENT],
    "uv.lock": [
        'version = 1\n\n[[package]]\nname = "jax"\nversion = "0.10.2"\n',
        'version = 1\n\n[[package]]\nname = "jax"\nversion = "0.12.0"\n',
        ABSENT,
    ],
    "requirements.txt": ["-r requirements/jax.txt\n", "numpy\n", ABSENT],
    "requirements/jax.txt": ["jax==0.12.0\n", "jax==0.10.2\n", ABSENT],
}
TREES = st.fixed_dictionaries({path: st.sampled_from(texts) for path, texts in VARIANTS.items()})
CHANGES = st.dictionaries(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2), min_size=1, max_size=3)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def lay_out(root: Path, files: dict[str, str | None]) -> None:
    for name, text in files.items():
        path = root / name
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


def check(root: Path, capsys) -> int:
    """``hijax-migrate --check .`` in ``root`` (its verdict)."""
    previous = os.getcwd()
    os.chdir(root)
    try:
        return main(["--check", "--no-cache", "-j", "1", "."])
    finally:
        os.chdir(previous)
        capsys.readouterr()


def hook(root: Path, capsys) -> int:
    """What the installed pre-commit hook decides, in this process."""
    previous = os.getcwd()
    os.chdir(root)
    try:
        repo = repo_at(root)
        results = list(gitcheck.run_checks(repo, gitcheck.staged(repo)))
        return _verdict("pre-commit", [(c.what, o) for c, outcomes in results for o in outcomes])
    finally:
        os.chdir(previous)
        capsys.readouterr()


@pytest.fixture
def identity(monkeypatch, tmp_path_factory):
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "t")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "t@example.com")
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
@given(tree=TREES, changes=CHANGES)
def test_the_hook_blocks_a_commit_exactly_when_the_check_fails(tmp_path_factory, identity, capsys, tree, changes):
    root = tmp_path_factory.mktemp("repo")
    git(root, "init", "-q", "-b", "main")
    lay_out(root, {"pkg/__init__.py": "", **tree})
    assume(check(root, capsys) == 0)  # the commit before is one the hook let through
    git(root, "add", "-A")
    git(root, "commit", "-qm", "clean")
    lay_out(root, {path: VARIANTS[path][choice % len(VARIANTS[path])] for path, choice in changes.items()})
    git(root, "add", "-A")
    assume(git(root, "diff", "--cached", "--name-only"))
    expected = check(root, capsys) != 0
    assert (hook(root, capsys) != 0) == expected, f"from {tree} with {changes}"


def test_a_base_made_a_primitive_puts_its_unchanged_subclass_in_question(tmp_path, identity, capsys):
    lay_out(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/base.py": VARIANTS["pkg/base.py"][1], "pkg/sub.py": VARIANTS["pkg/sub.py"][0]},
    )
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "plain")
    lay_out(tmp_path, {"pkg/base.py": VARIANTS["pkg/base.py"][0]})
    git(tmp_path, "add", "-A")
    assert check(tmp_path, capsys) != 0 and hook(tmp_path, capsys) != 0


def test_a_pin_in_a_subfolder_reached_through_r_decides_in_the_hook_too(tmp_path, identity, capsys):
    """At jax 0.10 a VJPHiPrimitive is current; at 0.12 (the pin) it must be migrated."""
    lay_out(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": VARIANTS["pkg/base.py"][0],
            "requirements.txt": "-r requirements/jax.txt\n",
            "requirements/jax.txt": "jax==0.10.2\n",
        },
    )
    git(tmp_path, "init", "-q", "-b", "main")
    assert check(tmp_path, capsys) == 0
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "at 0.10")
    lay_out(tmp_path, {"requirements/jax.txt": "jax==0.12.0\n"})  # only the pin changes
    git(tmp_path, "add", "-A")
    assert check(tmp_path, capsys) != 0 and hook(tmp_path, capsys) != 0


@pytest.mark.parametrize(
    "removed", ["uv.lock", "requirements/old.txt", "requirements/old.txt->requirements/unused.txt"]
)
def test_a_pin_removed_puts_every_file_in_question(tmp_path, identity, capsys, removed):
    """A lock at 0.10 removed leaves the 0.12 a requirement reaches through
    ``-r``; a requirement file pulled in (any name) removed leaves the other
    pin; moved to a name nothing pulls in (a rename, to git), it is removed too. None
    is in the tree any more to be told a pin: the hook found no file to
    check and let the commit through (hypothesis found it)."""
    removed, _, moved_to = removed.partition("->")
    pins = {
        "uv.lock": VARIANTS["uv.lock"][0],
        "requirements.txt": "-r requirements/jax.txt\n",
        "requirements/jax.txt": "jax==0.12.0\n",
    }
    if removed != "uv.lock":  # the 0.10 pin is the file pulled in, and removed: the next file's counts
        pins = {
            "requirements.txt": "-r requirements/old.txt\n",
            "requirements/old.txt": "jax==0.10.2\n",
            "requirements-dev.txt": "jax==0.12.0\n",
        }
    lay_out(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": VARIANTS["pkg/base.py"][0], **pins})
    git(tmp_path, "init", "-q", "-b", "main")
    assert check(tmp_path, capsys) == 0
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "at 0.10")
    if moved_to:
        git(tmp_path, "mv", removed, moved_to)  # staged as a rename
    lay_out(tmp_path, {removed: None})
    git(tmp_path, "add", "-A")
    assert check(tmp_path, capsys) != 0 and hook(tmp_path, capsys) != 0
