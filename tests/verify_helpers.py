"""Projects for the ``--verify`` tests, and what they check around a run:
the user's git state, the scratch folders, the processes of a command's group.

The fixture project: two primitives and the tests a user would have.
``pkg/ops.py`` is right for jax 0.10 (``VJPHiPrimitive``, a value rule
``vjp_bwd_retval``), and cannot be imported under jax 0.12, where the base is
gone; ``pkg/gated.py`` picks its base by release, and its ``vjp_bwd`` returns
its cotangent as jax 0.8.0 wanted: jax 0.10 stops at ``assert none is None``,
jax 0.12 with ``TypeError: ... should return None``. Migrated for 0.12, both
pass under jax 0.12. ``pkg/util.py`` touches no primitive.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from fresh_runs import FORKER

OPS = '''import jax
from jax.experimental.hijax import VJPHiPrimitive


class Scale(VJPHiPrimitive):
    """x -> 3 x, written for jax 0.10."""

    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, x):
        return 3.0 * x

    def vjp_fwd(self, nzs_in, x):
        return 3.0 * x, None

    def vjp_bwd_retval(self, res, g):
        return (3.0 * g,)


def scale(x):
    return Scale(jax.typeof(x))(x)
'''

GATED = '''import jax
from jax.experimental import hijax

# The base as the project picks it, by jax release.
Base = hijax.VJPHiPrimitive if jax.__version_info__ < (0, 11, 2) else hijax.HiPrim


class Twice(Base):
    """x -> 2 x; its backward rule returns the cotangent, as jax 0.8.0 wanted."""

    def __init__(self, aval):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, x):
        return 2.0 * x

    def vjp_fwd(self, nzs_in, x):
        return 2.0 * x, None

    def vjp_bwd(self, res, g, *accums):
        return (2.0 * g,)


def twice(x):
    return Twice(jax.typeof(x))(x)
'''

UTIL = "def double(x):\n    return 2 * x\n"

TEST_OPS = """import jax
import jax.numpy as jnp

from pkg.ops import scale


def test_value():
    assert float(scale(jnp.float32(3.0))) == 9.0


def test_grad():
    assert float(jax.grad(scale)(jnp.float32(3.0))) == 3.0
"""

TEST_GATED = """import jax
import jax.numpy as jnp

from pkg.gated import twice


def test_grad():
    assert float(jax.grad(twice)(jnp.float32(3.0))) == 2.0
"""

TEST_UTIL = "from pkg.util import double\n\n\ndef test_double():\n    assert double(3) == 6\n"

JAX_PROJECT = {
    "pkg/__init__.py": "",
    "pkg/ops.py": OPS,
    "pkg/gated.py": GATED,
    "pkg/util.py": UTIL,
    "tests/test_ops.py": TEST_OPS,
    "tests/test_gated.py": TEST_GATED,
    "tests/test_util.py": TEST_UTIL,
}
# Primitives the tests never import: the migration changes code no test runs.
PLAIN_PROJECT = {"pkg/__init__.py": "", "pkg/ops.py": OPS, "pkg/util.py": UTIL, "tests/test_util.py": TEST_UTIL}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def project(root: Path, files: dict[str, str], repo: bool = True) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    if repo:
        git(root, "init", "-q")
        git(root, "add", "-A")
        git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return root


def git_state(root: Path) -> tuple:
    """What a verify run must leave as it was: status, stashes, the index's
    bytes, the worktrees git knows of and its worktrees folder."""
    worktrees = root / ".git" / "worktrees"
    return (
        git(root, "status", "--porcelain", "--untracked-files=all"),
        git(root, "stash", "list"),
        (root / ".git" / "index").read_bytes(),
        git(root, "worktree", "list", "--porcelain"),
        sorted(os.listdir(worktrees)) if worktrees.exists() else [],
    )


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts and "__pycache__" not in p.parts
    }


def tool(*args: str, cwd: Path, tmp: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m hijax_migrate ARGS`` in a process of its own (forked:
    fresh_runs), its scratch folders made in ``tmp`` (so a test sees what is left)."""
    return FORKER.module(
        "hijax_migrate",
        list(args),
        cwd,
        timeout=600,
        env={**os.environ, "TMPDIR": str(tmp), "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
    )


def group_members(group: int) -> list[int]:
    """The processes of a process group still running (zombies left out), from /proc."""
    from hijax_migrate.verify.process import members

    return members(group)


def python_with_pytest(python: str, folder: Path) -> Path:
    """A virtualenv of ``python`` (a Python 3.12 with jax 0.12, which has no
    pytest) that also sees this process's pytest, pure Python: the "after"
    interpreter a user would have, with the target jax and a test runner."""
    subprocess.run([python, "-m", "venv", "--without-pip", str(folder)], check=True)
    packages = folder / "pytest-packages"
    packages.mkdir()
    import _pytest
    import iniconfig
    import packaging
    import pluggy
    import pytest

    for module in (pytest, _pytest, pluggy, iniconfig, packaging):
        source = Path(module.__file__)
        source = source.parent if source.name == "__init__.py" else source
        (packages / source.name).symlink_to(source)
    try:
        import pygments  # pytest colours with it where it is there

        (packages / "pygments").symlink_to(Path(pygments.__file__).parent)
    except ImportError:
        pass
    for extra in ("py.py",):  # pytest's own stand-in for the old py library, where it ships one
        source = Path(pytest.__file__).parents[1] / extra
        if source.exists():
            (packages / extra).symlink_to(source)
    target = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    own = next(folder.glob("lib/python3*/site-packages"))
    (own / "verify-test.pth").write_text(f"{target}\n{packages}\n")
    return folder / "bin" / "python"
