"""git workflow, with real repositories: --changed-since, --staged, hooks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")

BASE = "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n"
OLD_OP = "from pkg.bases import Base\n\n\nclass Op{n}(Base):\n    def vjp_bwd(self, res, g):\n        return (g,)\n"
# not `-m`: the repository under test has a typing.py of its own
TOOL = [sys.executable, "-c", "import sys; del sys.path[0]; from hijax_migrate.cli import main; sys.exit(main())"]


def git(cwd: Path, *args: str, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check, **kwargs)


def tool(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TOOL, *args], cwd=cwd, capture_output=True, text=True)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A repository with a remote, holding a package with a hijax base."""
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "t")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "t@example.com")
    git(tmp_path, "init", "-q", "--bare", "remote.git")
    work = tmp_path / "work"
    git(tmp_path, "init", "-q", "-b", "main", "work")
    git(work, "remote", "add", "origin", "../remote.git")
    write(work, {"pkg/__init__.py": "", "pkg/bases.py": BASE, "README.md": "x\n"})
    git(work, "add", ".")
    git(work, "commit", "-qm", "start")
    git(work, "push", "-q", "origin", "main")
    return work


def test_changed_since_limits_the_run_but_sees_the_whole_tree(repo):
    write(repo, {"pkg/old.py": OLD_OP.format(n=1)})
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "old op")
    git(repo, "push", "-q", "--no-verify", "origin", "main")
    write(repo, {"pkg/new.py": OLD_OP.format(n=2)})  # untracked, its base unchanged
    run = tool(repo, "--check", "--changed-since", "HEAD", ".")
    assert run.returncode == 1
    assert run.stdout.split() == ["pkg/new.py"]  # pkg/old.py is unchanged since HEAD


def test_staged_limits_the_run_to_the_index(repo):
    write(repo, {"pkg/a.py": OLD_OP.format(n=1), "pkg/b.py": OLD_OP.format(n=2)})
    git(repo, "add", "pkg/a.py")
    run = tool(repo, "--check", "--staged", ".")
    assert (run.returncode, run.stdout.split()) == (1, ["pkg/a.py"])


def test_git_errors_are_usage_errors(repo, tmp_path):
    bad_ref = tool(repo, "--check", "--changed-since", "no-such-ref", ".")
    assert bad_ref.returncode == 2 and "no-such-ref" in bad_ref.stderr
    outside = tmp_path / "plain"
    outside.mkdir()
    not_a_repo = tool(outside, "--check", "--staged", ".")
    assert not_a_repo.returncode == 2 and "not inside a git repository" in not_a_repo.stderr


def test_include_and_exclude_patterns(repo):
    write(repo, {"pkg/a.py": OLD_OP.format(n=1), "pkg/sub/b.py": OLD_OP.format(n=2),
                 "tools/c.py": OLD_OP.format(n=3)})
    only_pkg = tool(repo, "--check", "--include", "pkg/", "--exclude", "sub/", ".")
    assert only_pkg.stdout.split() == ["pkg/a.py"]


def test_pre_push_hook_blocks_unmigrated_code_then_lets_the_fix_through(repo):
    assert tool(repo, "install-hook", "--hook-type", "pre-push").returncode == 0
    # a module of the repository's that would shadow the standard library under `python -m`
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1), "typing.py": "raise SystemExit('shadowed')\n"})
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "ops")
    blocked = git(repo, "push", "origin", "main", check=False)
    assert blocked.returncode != 0
    assert "pkg/ops.py" in blocked.stderr and "hijax-migrate --in-place pkg/ops.py" in blocked.stderr
    assert tool(repo, "--in-place", ".").returncode == 0
    git(repo, "commit", "-qam", "migrated")
    assert git(repo, "push", "origin", "main", check=False).returncode == 0


def test_pre_commit_hook_checks_staged_files(repo):
    assert tool(repo, "install-hook", "--hook-type", "pre-commit").returncode == 0
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1)})
    git(repo, "add", ".")
    blocked = git(repo, "commit", "-qm", "ops", check=False)
    assert blocked.returncode != 0 and "commit blocked" in blocked.stderr
    assert tool(repo, "--in-place", "pkg/ops.py").returncode == 0
    git(repo, "add", ".")
    assert git(repo, "commit", "-qm", "ops", check=False).returncode == 0


def test_existing_hook_is_chained_and_restored(repo):
    hook = repo / ".git" / "hooks" / "pre-push"
    log = repo.parent / "previous-hook-ran"
    original = f"#!/bin/sh\ncat > {log}\nexit 0\n"
    hook.write_text(original)
    hook.chmod(0o755)
    installed = tool(repo, "install-hook")
    assert installed.returncode == 0 and "runs your previous hook" in installed.stdout
    write(repo, {"pkg/fine.py": "x = 1\n"})
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "fine")
    assert git(repo, "push", "origin", "main", check=False).returncode == 0
    assert "refs/heads/main" in log.read_text()  # it got git's input too
    assert tool(repo, "install-hook").returncode == 0  # again: updated, still chained
    assert (hook.parent / "pre-push.pre-hijax-migrate").read_text() == original
    removed = tool(repo, "uninstall-hook")
    assert removed.returncode == 0 and hook.read_text() == original
    assert not (hook.parent / "pre-push.pre-hijax-migrate").exists()


def test_failing_previous_hook_still_blocks(repo):
    hook = repo / ".git" / "hooks" / "pre-push"
    hook.write_text("#!/bin/sh\necho no pushes today >&2\nexit 1\n")
    hook.chmod(0o755)
    tool(repo, "install-hook")
    blocked = git(repo, "push", "origin", "main", check=False)
    assert blocked.returncode != 0 and "no pushes today" in blocked.stderr


def test_hook_refusals_leave_hooks_alone(repo):
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-push").write_text("#!/bin/sh\nexit 0\n")
    (hooks / "pre-push.pre-hijax-migrate").write_text("#!/bin/sh\nexit 0\n")
    refused = tool(repo, "install-hook")
    assert refused.returncode == 2 and "not chaining" in refused.stderr
    assert (hooks / "pre-push").read_text() == "#!/bin/sh\nexit 0\n"
    not_ours = tool(repo, "uninstall-hook")
    assert not_ours.returncode == 2 and "not hijax-migrate's hook" in not_ours.stderr
    assert (hooks / "pre-push").exists()


def test_hooks_path_setting_is_followed(repo):
    git(repo, "config", "core.hooksPath", "githooks")
    assert tool(repo, "install-hook", "--hook-type", "pre-commit").returncode == 0
    assert "hijax-migrate hook" in (repo / "githooks" / "pre-commit").read_text()


def test_pre_commit_framework_hooks_run_as_declared(repo):
    import shlex

    import yaml

    declared = yaml.safe_load((Path(__file__).parents[1] / ".pre-commit-hooks.yaml").read_text())
    hooks = {hook["id"]: hook for hook in declared}
    assert {"hijax-migrate", "hijax-migrate-check"} <= set(hooks)
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1)})
    for hook in hooks.values():
        assert {"pre-commit", "pre-push"} <= set(hook["stages"]) and hook["language"] == "python"
        program, *flags = shlex.split(hook["entry"])
        assert program == "hijax-migrate"
    # pre-commit runs the entry with the staged file names appended
    check = tool(repo, *shlex.split(hooks["hijax-migrate-check"]["entry"])[1:], "pkg/ops.py")
    assert (check.returncode, check.stdout.split()) == (1, ["pkg/ops.py"])
    fix = tool(repo, *shlex.split(hooks["hijax-migrate"]["entry"])[1:], "pkg/ops.py")
    assert fix.returncode == 0 and "def vjp_bwd_retval" in (repo / "pkg/ops.py").read_text()


def test_pre_push_when_the_remote_moved_on_checks_the_whole_tree(repo):
    other = repo.parent / "other"
    git(repo.parent, "clone", "-q", "-b", "main", "remote.git", "other")
    write(other, {"README.md": "moved on\n"})
    git(other, "commit", "-qam", "elsewhere")
    git(other, "push", "-q", "origin", "main")  # a commit this repository has never seen
    tool(repo, "install-hook")
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1)})
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "ops")
    blocked = git(repo, "push", "--force", "origin", "main", check=False)
    assert blocked.returncode != 0 and "pkg/ops.py" in blocked.stderr
