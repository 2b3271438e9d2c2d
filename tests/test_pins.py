"""The target read from a project's pins, as pip (and Poetry) read them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hijax_migrate.core.versions import parse_target
from hijax_migrate.releases import target

HERE = f"{sys.version_info[0]}.{sys.version_info[1]}"


def chosen(root: Path) -> tuple[tuple[int, int, int], str]:
    (root / ".git").mkdir(exist_ok=True)  # the search stops at the repository root
    return target.choose(None, root)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("~=0.10.0", (0, 10, 2)),
        ("~=0.9", (0, 12, 0)),
        ("==0.11.*", (0, 11, 2)),
        ("==0.9.0", (0, 9, 0)),
        (">=0.9,<0.12", (0, 11, 2)),
        (">=0.9, <=0.11.1", (0, 11, 1)),
        ("!=0.12.0,!=0.12.0.1", (0, 11, 2)),
        ("<0.11", (0, 10, 2)),
        ("", (0, 12, 0)),
        ("[cuda12]>=0.10,<0.11", (0, 10, 2)),
    ],
)
def test_requirements_specifiers(tmp_path, spec, expected):
    (tmp_path / "requirements.txt").write_text(f"numpy>=2  # arrays\njax{spec}\n")
    assert chosen(tmp_path)[0] == expected


def test_environment_markers_as_pip_evaluates_them(tmp_path):
    (tmp_path / "requirements.txt").write_text(
        f"jax==0.9.0; python_version != '{HERE}'\njax==0.10.1; python_version == '{HERE}'\n"
    )
    assert chosen(tmp_path)[0] == (0, 10, 1)


def test_requirements_follow_includes_and_line_continuations(tmp_path):
    (tmp_path / "requirements.txt").write_text("-r base/core.txt\n")
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "core.txt").write_text("--index-url https://x\njax \\\n  >=0.9,<0.11.1 --hash=sha256:00\n")
    version, source = chosen(tmp_path)
    assert version == (0, 11, 0) and "core.txt" in source


def test_pep621_and_extras_all_apply(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["jax>=0.9"]\n'
        '[project.optional-dependencies]\ngpu = ["jax[cuda12]<0.11"]\n'
    )
    assert chosen(tmp_path)[0] == (0, 10, 2)


@pytest.mark.parametrize(
    "constraint, expected",
    [
        ('"^0.10"', (0, 10, 2)),
        ('"~0.11.0"', (0, 11, 2)),
        ('"0.9.*"', (0, 9, 2)),
        ('">=0.9,<0.11"', (0, 10, 2)),
        ('"0.11.1"', (0, 11, 1)),
        ('{version = "^0.9", extras = ["cuda12"]}', (0, 9, 2)),
        ('"^0.9 || ^0.11"', (0, 11, 2)),
    ],
)
def test_poetry(tmp_path, constraint, expected):
    (tmp_path / "pyproject.toml").write_text(f'[tool.poetry.dependencies]\npython = "^3.11"\njax = {constraint}\n')
    assert chosen(tmp_path)[0] == expected


def test_poetry_groups_and_pdm(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.poetry.group.dev.dependencies]\njax = "^0.10"\n')
    assert chosen(tmp_path)[0] == (0, 10, 2)
    (tmp_path / "pyproject.toml").write_text('[tool.pdm.dev-dependencies]\ntest = ["jax==0.11.0"]\n')
    assert chosen(tmp_path)[0] == (0, 11, 0)


def test_setup_cfg(tmp_path):
    (tmp_path / "setup.cfg").write_text("[options]\ninstall_requires =\n    numpy\n    jax~=0.9.0\n")
    assert chosen(tmp_path)[0] == (0, 9, 2)


@pytest.mark.parametrize(
    "name, text",
    [
        ("uv.lock", '[[package]]\nname = "jax"\nversion = "0.11.1"\n'),
        (
            "poetry.lock",
            '[[package]]\nname = "numpy"\nversion = "2.0"\n\n[[package]]\nname = "jax"\nversion = "0.11.1"\n',
        ),
        ("pylock.toml", 'lock-version = "1.0"\n[[packages]]\nname = "jax"\nversion = "0.11.1"\n'),
    ],
)
def test_a_lock_file_wins(tmp_path, name, text):
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.9"]\n')
    (tmp_path / name).write_text(text)
    version, source = chosen(tmp_path)
    assert version == (0, 11, 1) and name in source


def test_uv_lock_forks_by_environment(tmp_path):
    (tmp_path / "uv.lock").write_text(
        f'[[package]]\nname = "jax"\nversion = "0.10.2"\nresolution-markers = ["python_version == \'{HERE}\'"]\n\n'
        f'[[package]]\nname = "jax"\nversion = "0.12.0.1"\nresolution-markers = ["python_version != \'{HERE}\'"]\n'
    )
    assert chosen(tmp_path)[0] == (0, 10, 2)


def test_pin_newer_than_known_is_the_newest_with_a_note(tmp_path):
    (tmp_path / "requirements.txt").write_text("jax>=0.13\n")
    version, source = chosen(tmp_path)
    assert version == (0, 12, 0) and "newer than any release the tool knows" in source


def test_a_pin_in_the_parent_folder_counts_up_to_the_repository_root(tmp_path):
    (tmp_path / "requirements.txt").write_text("jax==0.9.0\n")
    (tmp_path / "repo" / "pkg").mkdir(parents=True)
    (tmp_path / "repo" / "requirements.txt").write_text("jax==0.11.0\n")
    assert chosen(tmp_path / "repo")[0] == (0, 11, 0)
    (tmp_path / "repo" / "requirements.txt").unlink()
    assert "pinned" not in chosen(tmp_path / "repo")[1]  # not past the repository root


def test_a_jax_tree_targets_its_own_version_never_past_it(tmp_path):
    (tmp_path / "jax" / "_src").mkdir(parents=True)
    (tmp_path / "jax" / "_src" / "hijax.py").write_text("")
    (tmp_path / "jax" / "version.py").write_text('_version: str = "0.11.1"\n')
    (tmp_path / "requirements.txt").write_text("jax==0.12.0\n")
    assert chosen(tmp_path)[0] == (0, 11, 1)
    assert target.choose("0.12", tmp_path)[0] == (0, 11, 1)
    assert target.choose("0.9", tmp_path)[0] == (0, 9, 0)


@pytest.mark.parametrize("flag", ["0.x", "0.12banana", "0.8.0", "0.7", "twelve", ""])
def test_bad_targets_are_usage_errors(flag):
    with pytest.raises(ValueError):
        parse_target(flag)


def test_a_target_newer_than_known_is_the_newest_with_a_note():
    version, note = parse_target("0.13")
    assert version == (0, 12, 0) and "treated as 0.12.0.1" in note
    assert parse_target("0.12.0.1") == ((0, 12, 0), "--target-jax")


# -- the floor the migrated code needs, and --update-pin

from hijax_migrate.core.model import Change  # noqa: E402
from hijax_migrate.output.report import Outcome  # noqa: E402
from hijax_migrate.releases import pin_update  # noqa: E402

HIPRIM = [Outcome("a.py", changes=[Change("a.py", 1, "", "HJX003", "hiprim-base", "renamed")])]


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("requirements.txt", "numpy\njax>=0.10  # the floor\n", "numpy\njax>=0.11.2  # the floor\n"),
        ("requirements.txt", "jax~=0.10\n", "jax>=0.11.2,<1\n"),
        ("requirements.txt", "jax==0.11.*\n", "jax>=0.11.2,<0.12\n"),
        (
            "requirements.txt",
            "jax[cuda12] >= 0.9, != 0.11.0, < 0.13 ; python_version >= '3.10'\n",
            "jax[cuda12] >=0.11.2,!=0.11.0,<0.13 ; python_version >= '3.10'\n",
        ),
        ("requirements.txt", "jax\n", "jax>=0.11.2\n"),
        (
            "setup.cfg",
            "[options]\ninstall_requires =\n    jax>=0.9,<0.13\n",
            "[options]\ninstall_requires =\n    jax>=0.11.2,<0.13\n",
        ),
        (
            "pyproject.toml",
            '[project]\ndependencies = [\n  "jax>=0.10",  # ours\n]\n',
            '[project]\ndependencies = [\n  "jax>=0.11.2",  # ours\n]\n',
        ),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\njax = { version = "^0", extras = ["cuda12"] }\n',
            '[tool.poetry.dependencies]\njax = { version = ">=0.11.2,<1", extras = ["cuda12"] }\n',
        ),
    ],
)
def test_update_pin_raises_only_the_floor(tmp_path, name, before, after):
    (tmp_path / ".git").mkdir()
    (tmp_path / name).write_text(before)
    note = pin_update.check(HIPRIM, tmp_path, update=False)
    assert "needs jax >= 0.11.2" in note and "--update-pin" in note
    assert (tmp_path / name).read_text() == before
    assert pin_update.check(HIPRIM, tmp_path, update=True) == f"raised the jax floor to 0.11.2 in {tmp_path / name}"
    assert (tmp_path / name).read_text() == after
    assert pin_update.check(HIPRIM, tmp_path, update=False) is None  # nothing left to say


@pytest.mark.parametrize(
    "text, why",
    [
        ("jax==0.10.2\n", "pinned exactly"),
        ("jax>=0.9,<0.11\n", "upper bound excludes 0.11.2"),
    ],
)
def test_update_pin_refuses_what_it_cannot_raise(tmp_path, text, why):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text(text)
    assert why in pin_update.check(HIPRIM, tmp_path, update=True)
    assert (tmp_path / "requirements.txt").read_text() == text


def test_no_note_when_the_floor_is_new_enough_or_locked(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("jax>=0.11.2\n")
    assert pin_update.check(HIPRIM, tmp_path, update=False) is None
    (tmp_path / "requirements.txt").write_text("jax>=0.9\n")
    (tmp_path / "uv.lock").write_text('[[package]]\nname = "jax"\nversion = "0.12.0"\n')
    assert pin_update.check(HIPRIM, tmp_path, update=False) is None


def test_cli_update_pin(tmp_path):
    from fresh_runs import FORKER

    def cli(*args):
        return FORKER.module("hijax_migrate", list(args), tmp_path)

    (tmp_path / ".git").mkdir()
    (tmp_path / "ops.py").write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Op(VJPHiPrimitive):\n    pass\n"
    )
    (tmp_path / "requirements.txt").write_text("jax~=0.10.0\n")
    assert "target: jax 0.10.2 (pinned in" in cli("--check", "ops.py").stderr
    assert cli("--update-pin", "ops.py").returncode == 2  # it writes: only with --in-place
    (tmp_path / "requirements.txt").write_text("jax>=0.9\n")
    run = cli("--in-place", "--update-pin", "--target-jax", "0.12", "ops.py")
    assert run.returncode == 0 and "raised the jax floor to 0.11.2" in run.stderr
    assert (tmp_path / "requirements.txt").read_text() == "jax>=0.11.2\n"
    assert "class Op(HiPrim):" in (tmp_path / "ops.py").read_text()


OLD_PRIMITIVE = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n"
    "class Op(VJPHiPrimitive):\n"
    "    def vjp_fwd(self, x):\n        return x, x\n\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n"
)


@pytest.mark.parametrize("pin, imported", [(None, False), ("requirements.txt", True), ("pyproject.toml", True)])
def test_packaging_is_imported_only_where_a_file_may_pin_jax(tmp_path, pin, imported):
    """A run with changes and no target given reads the pins twice (the
    target, the floor note): packaging is imported only once a file is there."""
    import subprocess

    (tmp_path / ".git").mkdir()
    (tmp_path / "op.py").write_text(OLD_PRIMITIVE)
    if pin == "requirements.txt":
        (tmp_path / pin).write_text("jax>=0.9,<0.11\n")
    elif pin:
        (tmp_path / pin).write_text('[project]\nname = "x"\ndependencies = ["jax~=0.10.0"]\n')
    code = (
        "import sys\nfrom hijax_migrate.cli import main\n"
        f"print(main(['--check', '--no-cache', {str(tmp_path)!r}]), 'packaging' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert done.stdout.split()[-2:] == ["1", str(imported)]
    assert ("pinned in" in done.stderr) == imported  # a pin there is still read
