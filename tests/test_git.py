"""git workflow, with real repositories: --changed-since, --staged, hooks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_runs import FORKER

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")

BASE = "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n"
OLD_OP = "from pkg.bases import Base\n\n\nclass Op{n}(Base):\n    def vjp_bwd(self, res, g):\n        return (g,)\n"
# not `-m`: the repository under test has a typing.py of its own
TOOL = [sys.executable, "-c", "import sys; del sys.path[0]; from hijax_migrate.cli import main; sys.exit(main())"]


def git(cwd: Path, *args: str, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=check, **kwargs)


def tool(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """``TOOL ARGS`` in ``cwd``, in a fresh process (``fresh_runs``)."""
    return FORKER.code(TOOL[2], args, cwd)


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
    write(repo, {"pkg/a.py": OLD_OP.format(n=1), "pkg/sub/b.py": OLD_OP.format(n=2), "tools/c.py": OLD_OP.format(n=3)})
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
    assert "pkg/ops.py" in blocked.stderr and "hijax-migrate --in-place -- pkg/ops.py" in blocked.stderr
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


# -- the hooks check the content that moves, not the working tree


def commit(root: Path, files: dict[str, str], message: str) -> None:
    write(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def test_pre_push_blocks_a_bad_commit_though_the_working_tree_is_migrated(repo):
    tool(repo, "install-hook")
    commit(repo, {"pkg/ops.py": OLD_OP.format(n=1)}, "old op")
    assert tool(repo, "--in-place", "pkg/ops.py").returncode == 0  # migrated, not committed
    blocked = git(repo, "push", "origin", "main", check=False)
    assert blocked.returncode != 0 and "pkg/ops.py" in blocked.stderr
    assert "git add -- pkg/ops.py" in blocked.stderr and "refs/heads/main" in blocked.stderr
    assert git(repo, "ls-remote", "origin", "main").stdout.split()[0] != git(repo, "rev-parse", "HEAD").stdout.strip()


def test_pre_push_passes_clean_commits_with_a_dirty_working_tree(repo):
    tool(repo, "install-hook")
    commit(repo, {"pkg/ops.py": "x = 1\n"}, "clean")
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1), "pkg/untracked.py": OLD_OP.format(n=2)})
    pushed = git(repo, "push", "origin", "main", check=False)
    assert pushed.returncode == 0, pushed.stderr


def test_pre_push_blocks_another_branch_with_bad_commits(repo):
    tool(repo, "install-hook")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, {"pkg/ops.py": OLD_OP.format(n=1)}, "old op")
    git(repo, "checkout", "-q", "main")  # clean, checked out
    blocked = git(repo, "push", "origin", "feature", check=False)
    assert blocked.returncode != 0 and "pkg/ops.py" in blocked.stderr
    assert "refs/heads/feature" in blocked.stderr


def test_pre_push_checks_a_new_branch_from_where_it_leaves_the_default_branch(repo):
    commit(repo, {"pkg/legacy.py": OLD_OP.format(n=0)}, "legacy, pushed before the hook")
    git(repo, "push", "-q", "origin", "main")
    tool(repo, "install-hook")
    git(repo, "checkout", "-qb", "clean-topic")
    commit(repo, {"pkg/fine.py": "x = 1\n"}, "clean")
    # only what the new branch changed is checked: legacy.py is main's business
    assert git(repo, "push", "origin", "clean-topic", check=False).returncode == 0
    git(repo, "checkout", "-qb", "bad-topic")
    commit(repo, {"pkg/ops.py": OLD_OP.format(n=1)}, "old op")
    blocked = git(repo, "push", "origin", "bad-topic", check=False)
    assert blocked.returncode != 0 and "pkg/ops.py" in blocked.stderr
    assert "pkg/legacy.py" not in blocked.stderr


def test_pre_push_checks_every_file_of_a_branch_with_no_common_history(repo):
    tool(repo, "install-hook")
    git(repo, "checkout", "-q", "--orphan", "pages")
    commit(repo, {"pkg/ops.py": OLD_OP.format(n=1)}, "unrelated history")
    blocked = git(repo, "push", "origin", "pages", check=False)
    assert blocked.returncode != 0 and "pkg/ops.py" in blocked.stderr


def test_pre_push_of_a_deleted_ref_passes(repo):
    git(repo, "checkout", "-qb", "feature")
    commit(repo, {"pkg/ops.py": OLD_OP.format(n=1)}, "old op")
    git(repo, "push", "-q", "--no-verify", "origin", "feature")
    tool(repo, "install-hook")
    deleted = git(repo, "push", "origin", "--delete", "feature", check=False)
    assert deleted.returncode == 0, deleted.stderr


def test_pre_push_resolves_bases_in_the_pushed_tree(repo):
    tool(repo, "install-hook")
    commit(repo, {"pkg/ops.py": OLD_OP.format(n=1)}, "old op")
    write(repo, {"pkg/bases.py": "class Base:\n    pass\n"})  # not a hijax base, but only here
    blocked = git(repo, "push", "origin", "main", check=False)
    assert blocked.returncode != 0 and "pkg/ops.py" in blocked.stderr


def test_pre_commit_blocks_bad_staged_content_though_the_working_tree_is_migrated(repo):
    tool(repo, "install-hook", "--hook-type", "pre-commit")
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1)})
    git(repo, "add", "pkg/ops.py")
    assert tool(repo, "--in-place", "pkg/ops.py").returncode == 0  # not staged
    blocked = git(repo, "commit", "-qm", "ops", check=False)
    assert blocked.returncode != 0 and "the index" in blocked.stderr
    assert "hijax-migrate --in-place -- pkg/ops.py" in blocked.stderr and "git add -- pkg/ops.py" in blocked.stderr


def test_pre_commit_passes_clean_staged_content_with_a_dirty_working_tree(repo):
    tool(repo, "install-hook", "--hook-type", "pre-commit")
    write(repo, {"pkg/ops.py": "x = 1\n"})
    git(repo, "add", "pkg/ops.py")
    write(repo, {"pkg/ops.py": OLD_OP.format(n=1)})  # not staged
    committed = git(repo, "commit", "-qm", "clean", check=False)
    assert committed.returncode == 0, committed.stderr


def test_pre_commit_names_a_file_that_looks_like_an_option_safely(repo):
    tool(repo, "install-hook", "--hook-type", "pre-commit")
    write(repo, {"--output=x.py": OLD_OP.format(n=1)})
    git(repo, "add", "--", "--output=x.py")
    blocked = git(repo, "commit", "-qm", "ops", check=False)
    assert blocked.returncode != 0 and "hijax-migrate --in-place -- --output=x.py" in blocked.stderr
    assert not (repo / "x.py").exists()


# -- no user string reaches git as an option


@pytest.mark.parametrize("ref", ["--output=victim.txt", "-o", "--exec=touch pwned"])
def test_changed_since_never_hands_git_an_option(repo, ref):
    (repo / "victim.txt").write_text("precious\n")
    run = tool(repo, "--check", f"--changed-since={ref}", ".")
    assert run.returncode == 2 and "is not a commit" in run.stderr
    assert (repo / "victim.txt").read_text() == "precious\n"
    assert not (repo / "pwned").exists()


def test_changed_since_takes_any_name_of_a_commit(repo):
    commit(repo, {"pkg/a.py": OLD_OP.format(n=1)}, "a")
    write(repo, {"pkg/b.py": OLD_OP.format(n=2)})
    run = tool(repo, "--check", "--changed-since", "HEAD~1", ".")
    assert (run.returncode, run.stdout.split()) == (1, ["pkg/a.py", "pkg/b.py"])


# -- the pre-commit framework, run for real against a local clone of this repository

MARKDOWN_OLD = "# Notes\n\n```python\n" + OLD_OP.format(n=9) + "```\n"


def _clone_of_this_repository(tmp_path: Path) -> tuple[Path, str]:
    """A clone holding this checkout's HEAD on a branch (pre-commit fetches
    a rev by the refs it can see). Uncommitted edits are not in it."""
    source = Path(__file__).resolve().parents[1]
    if git(source, "rev-parse", "--verify", "-q", "HEAD", check=False).returncode:
        pytest.skip("this checkout has no commit to clone")
    clone = tmp_path / "hijax-migrate-clone"
    git(tmp_path, "init", "-q", str(clone))
    git(clone, "fetch", "-q", str(source), "HEAD:refs/heads/under-test")
    return clone, git(clone, "rev-parse", "refs/heads/under-test").stdout.strip()


def test_pre_commit_framework_runs_the_hooks_for_real(repo, tmp_path, monkeypatch):
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    clone, rev = _clone_of_this_repository(tmp_path)
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    write(
        repo,
        {
            ".pre-commit-config.yaml": f"repos:\n- repo: {clone}\n  rev: {rev}\n  hooks:\n"
            "  - id: hijax-migrate-check\n  - id: hijax-migrate\n    stages: [manual]\n",
            "pyproject.toml": '[tool.hijax-migrate]\nexclude = ["vendored/"]\n',
            "pkg/ops.py": OLD_OP.format(n=1),
            "docs/guide.md": MARKDOWN_OLD,
            "vendored/ops.py": OLD_OP.format(n=2),
        },
    )
    git(repo, "add", "-A")
    check = subprocess.run([pre_commit, "run", "--all-files"], cwd=repo, capture_output=True, text=True)
    assert check.returncode == 1, check.stdout + check.stderr
    assert "pkg/ops.py" in check.stdout and "docs/guide.md" in check.stdout
    assert "vendored/ops.py" not in check.stdout  # the project's exclude, applied to named files
    fix = subprocess.run(
        [pre_commit, "run", "--all-files", "--hook-stage", "manual", "hijax-migrate"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert fix.returncode == 1 and "files were modified by this hook" in fix.stdout, fix.stdout
    assert "def vjp_bwd_retval" in (repo / "pkg/ops.py").read_text()
    assert "def vjp_bwd_retval" in (repo / "docs/guide.md").read_text()
    assert (repo / "vendored/ops.py").read_text() == OLD_OP.format(n=2)


def test_hooks_read_the_configuration_of_the_tree_they_check(repo):
    tool(repo, "install-hook")
    custom = OLD_OP.format(n=1).replace("from pkg.bases import Base", "from vendor_lib import Base")
    commit(
        repo,
        {
            "pyproject.toml": '[tool.hijax-migrate]\nexclude = ["vendored/"]\n',
            "vendored/ops.py": OLD_OP.format(n=2),
            "pkg/custom.py": custom,
        },
        "excluded, and an unknown base",
    )
    assert git(repo, "push", "origin", "main", check=False).returncode == 0
    # the pushed pyproject.toml names the base: now the class is a primitive
    write(repo, {"pyproject.toml": '[tool.hijax-migrate]\nexclude = ["vendored/"]\nbase = ["vendor_lib.Base"]\n'})
    git(repo, "commit", "-qam", "name the base")
    touched = custom + "\n# touched\n"
    commit(repo, {"pkg/custom.py": touched}, "touch it")
    blocked = git(repo, "push", "origin", "main", check=False)
    assert blocked.returncode != 0 and "pkg/custom.py" in blocked.stderr
    assert "vendored/ops.py" not in blocked.stderr


def test_pre_push_of_a_tag_of_a_blob_passes(repo):
    tool(repo, "install-hook")
    blob = git(repo, "hash-object", "-w", "--stdin", input=OLD_OP.format(n=1)).stdout.strip()
    git(repo, "tag", "a-blob", blob)
    pushed = git(repo, "push", "origin", "a-blob", check=False)
    assert pushed.returncode == 0, pushed.stderr


# -- the copy of the tree the hooks keep between runs (hook_tree)


def test_pre_push_checks_each_push_against_its_own_tree_though_the_copy_is_kept(repo):
    tool(repo, "install-hook")
    commit(repo, {"pkg/clean.py": "x = 1  # names vjp_bwd: worth a look\n"}, "clean")
    assert git(repo, "push", "origin", "main", check=False).returncode == 0
    kept = list(Path(os.environ["HIJAX_MIGRATE_CACHE_DIR"], "hook-trees").glob("*/tree"))
    assert len(kept) == 1 and (kept[0] / "pkg" / "bases.py").read_text() == BASE
    # Base stops being a hijax primitive in the same push that subclasses it:
    # the copy left by the last push must not decide.
    commit(repo, {"pkg/bases.py": "class Base:\n    pass\n", "pkg/ops.py": OLD_OP.format(n=1)}, "plain base")
    assert git(repo, "push", "origin", "main", check=False).returncode == 0
    commit(repo, {"pkg/bases.py": BASE, "pkg/ops2.py": OLD_OP.format(n=2)}, "hijax base again")
    blocked = git(repo, "push", "origin", "main", check=False)
    assert blocked.returncode != 0 and "pkg/ops2.py" in blocked.stderr
    assert tool(repo, "uninstall-hook").returncode == 0
    assert not kept[0].exists()  # removing the hook removes its copy


def test_hooks_import_files_named_alone_from_the_checked_tree_not_the_working_folder(repo, tmp_path, monkeypatch):
    """Files named alone import from the top of the tree checked (``Settings.here``),
    as from where the tool runs: never from the working tree the hook starts
    in, even where that folder comes first (the copy kept in a cache folder
    whose path sorts after it)."""
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path / "zz-cache"))
    tool(repo, "install-hook", "--hook-type", "pre-commit")
    commit(repo, {"bases.py": BASE}, "a top-level base")
    write(repo, {"scripts/ops.py": OLD_OP.format(n=1).replace("pkg.bases", "bases")})
    git(repo, "add", "scripts/ops.py")
    write(repo, {"bases.py": "class Base:\n    pass\n"})  # not a hijax base, but only in the working tree
    blocked = git(repo, "commit", "-qm", "ops", check=False)
    assert blocked.returncode != 0 and "scripts/ops.py" in blocked.stderr
