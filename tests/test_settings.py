"""A run's settings: typed, every flag a field, made once by ``command/``
(the command line over ``[tool.hijax-migrate]`` over the defaults), and no
module below ``command/`` sees argparse."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from hijax_migrate.command import config
from hijax_migrate.command.usage import build_parser, settings_from, settings_of
from hijax_migrate.core.settings import Settings
from test_layers import PACKAGE, TOP, layer_of, module_name

# The fields no flag sets: those that run a session of their own (the git
# hooks) set the first two; the others say where the values came from.
NOT_FLAGS = {"family_files", "here", "given", "from_config", "root", "config_file"}
# What only the configuration sets (as ruff's per-file-ignores, a table no flag spells).
CONFIG_ONLY = {"per_file_ignores"}
# What only command/ and the entry points may name: the parsed command line.
ARGPARSE = {"argparse", "Namespace", "parse_args", "build_parser"}


def argparse_names(source: str) -> set[str]:
    """The names of argparse (or of the tool's parser) that ``source`` imports or uses."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found |= {node.module or ""} | {alias.name for alias in node.names}
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
    return found & ARGPARSE


def sees_argparse(path: Path) -> bool:
    """May the module name argparse? Only ``command/`` and the entry points above every folder."""
    module = module_name(path)
    return layer_of(module) == TOP or module.split(".")[1] == "command"


def test_no_module_below_the_command_sees_argparse():
    seen = {
        module_name(path): sorted(names)
        for path in sorted(PACKAGE.rglob("*.py"))
        if not sees_argparse(path)
        for names in [argparse_names(path.read_text(encoding="utf-8"))]
        if names
    }
    assert seen == {}


@pytest.mark.parametrize(
    "source",
    [
        "import argparse\n",
        "from argparse import Namespace\n",
        "def f(args: 'x') -> None:\n    return argparse.Namespace(**args)\n",
        "from ..command.usage import build_parser\n",
        "def f(parser):\n    return parser.parse_args(['--check'])\n",
    ],
)
def test_a_module_that_sees_argparse_is_caught(source):
    assert argparse_names(source)


def test_the_command_and_the_entry_points_may_see_it():
    assert sees_argparse(PACKAGE / "command" / "usage.py") and sees_argparse(PACKAGE / "cli.py")
    assert not sees_argparse(PACKAGE / "git" / "gitcheck.py") and not sees_argparse(PACKAGE / "run" / "selection.py")


def _dests() -> set[str]:
    return {action.dest for action in build_parser()._actions if action.dest not in ("help", "version")}


def test_every_flag_lands_in_the_settings():
    """A new flag without its field (or a field left behind by a flag gone) fails here."""
    fields = {field.name for field in dataclasses.fields(Settings)}
    assert _dests() == fields - NOT_FLAGS - CONFIG_ONLY
    assert CONFIG_ONLY <= {name for _, name in config.KEYS.values()}  # each one a key of the configuration


def test_the_configurations_keys_are_fields():
    fields = {field.name for field in dataclasses.fields(Settings)}
    assert {name for _, name in config.KEYS.values()} <= fields - NOT_FLAGS


def test_the_defaults_are_the_parsers():
    """No flag given: the settings' own defaults, declared in one place."""
    assert settings_from(build_parser().parse_args([])) == Settings()


def _settings(tmp_path: Path, table: str, *argv: str) -> Settings:
    (tmp_path / "pyproject.toml").write_text(f"[tool.hijax-migrate]\n{table}")
    (tmp_path / "ops.py").write_text("")
    return config.read(settings_from(build_parser().parse_args([*argv, str(tmp_path / "ops.py")])))


@pytest.mark.parametrize(
    "table, argv, strategy",
    [
        ("", [], "auto"),  # the default
        ('strategy = "accum"\n', [], "accum"),  # the configuration over the default
        ('strategy = "accum"\n', ["--strategy", "rename"], "rename"),  # the flag over the configuration
        ('strategy = "accum"\n', ["--strategy", "auto"], "auto"),  # even a flag that names the default
    ],
)
def test_a_flag_wins_over_the_configuration_which_wins_over_the_default(tmp_path, table, argv, strategy):
    assert _settings(tmp_path, table, *argv).strategy == strategy


def test_the_configurations_values_are_typed_and_said_to_come_from_it(tmp_path):
    settings = _settings(
        tmp_path, 'target-jax = "0.10"\nbase = "a.B"\nblack = true\nselect = ["HJX001"]\n', "--select", "HJX002"
    )
    found = (settings.target_jax, settings.base, settings.black, settings.select)
    assert found == ("0.10", ("a.B",), True, ("HJX002",))
    assert settings.from_config == {"target-jax", "base", "black"}
    assert settings.root == tmp_path.resolve() and settings.config_file == tmp_path / "pyproject.toml"


def test_without_a_configuration_the_defaults_stand(tmp_path):
    (tmp_path / ".git").mkdir()
    settings = config.read(settings_from(build_parser().parse_args([str(tmp_path)])))
    assert dataclasses.replace(settings, paths=Settings().paths, root=None) == Settings()
    assert settings.root == tmp_path.resolve()


@pytest.mark.parametrize(
    "argv, exclude, extended",
    [
        ([], ("a/",), ("b/",)),
        (["--exclude", "c/"], ("c/",), ("b/",)),  # a flag's exclude replaces the configuration's
        (["--extend-exclude", "d/"], ("a/",), ("b/", "d/")),  # extend-exclude adds, the file's first
    ],
)
def test_excludes_as_documented(tmp_path, argv, exclude, extended):
    settings = _settings(tmp_path, 'exclude = ["a/"]\nextend-exclude = ["b/"]\n', *argv)
    assert (settings.exclude, settings.extend_exclude) == (exclude, extended)
    assert settings.excludes == exclude + extended


def test_settings_made_without_a_command_line_take_the_configuration_alike(tmp_path):
    """The git hooks' and the codemod's: None is a flag not given."""
    (tmp_path / "pyproject.toml").write_text('[tool.hijax-migrate]\nstrategy = "accum"\ntarget-jax = "0.10"\n')
    settings = config.read(settings_of(paths=[str(tmp_path)], strategy=None, target_jax="0.9", check=True))
    assert (settings.strategy, settings.target_jax, settings.check) == ("accum", "0.9", True)
    assert settings.from_config == {"strategy"}


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().paths = ("x",)  # type: ignore[misc]


def test_only_verify_changes_the_working_folder():
    """The git hooks pass their folder (``Settings.here``); only ``--verify``'s
    run in its copy changes folder, as the paths it names are relative."""
    users = {
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        if {"chdir", "working_in"}
        & {
            node.attr if isinstance(node, ast.Attribute) else node.id
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.Attribute, ast.Name))
        }
    }
    assert users == {"hijax_migrate.core.cwd", "hijax_migrate.verify.flow"}
