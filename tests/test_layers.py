"""Imports run one way: no folder of the package imports a folder above it.

The order is the way a file travels through a run (ARCHITECTURE.md's code
map lists the folders in the same order). Every import counts, those inside
functions and under ``TYPE_CHECKING`` included: a lazy import that saves
start-up time may point down, never up.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "codemods" / "hijax_migrate"
# Bottom first; the package's own top-level modules (the entry points) stand above all.
LAYERS = (
    "core",
    "sources",
    "tree",
    "analysis",
    "rules",
    "engine",
    "run",
    "output",
    "releases",
    "command",
    "verify",
    "git",
)
TOP = len(LAYERS)


def layer_of(module: str) -> int:
    """``hijax_migrate.run.pool`` -> the index of ``run``; the entry points -> TOP."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else TOP


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool) -> set[str]:
    """The package's modules (or packages) that ``source`` imports, anywhere in it."""
    here = module.split(".") if is_package else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found |= {f"{target}.{alias.name}" for alias in node.names} if node.module is None else {target}
    return {name for name in found if name.split(".")[0] == "hijax_migrate"}


def upward_edges(source: str, module: str, is_package: bool = False) -> list[str]:
    mine = layer_of(module)
    return sorted(f"{module} -> {target}" for target in imported(source, module, is_package) if layer_of(target) > mine)


def test_every_module_lives_in_a_layer_or_is_an_entry_point():
    entry_points = {
        "hijax_migrate",
        "hijax_migrate.__main__",
        "hijax_migrate.cli",
        "hijax_migrate.codemod",
        "hijax_migrate.hooks",
    }
    strays = sorted(
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        if layer_of(module_name(path)) == TOP and module_name(path) not in entry_points
    )
    assert strays == []
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert folders == set(LAYERS)


def test_no_folder_imports_a_folder_above_it():
    edges = []
    for path in sorted(PACKAGE.rglob("*.py")):
        edges += upward_edges(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
    assert edges == []


@pytest.mark.parametrize(
    "module, source",
    [
        ("hijax_migrate.analysis.project", "def f():\n    from ..engine.engine import migrate_source\n"),
        ("hijax_migrate.core.model", "from hijax_migrate.run import runner\n"),
        ("hijax_migrate.tree.cache", "from .. import __version__\n"),
        (
            "hijax_migrate.rules.plans",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..output import report\n",
        ),
    ],
)
def test_an_upward_import_is_caught(module, source):
    assert len(upward_edges(source, module)) == 1


@pytest.mark.parametrize(
    "module, source",
    [
        ("hijax_migrate.run.runner", "def f():\n    from ..engine import engine\n"),
        ("hijax_migrate.cli", "from .command.usage import build_parser\n"),
        ("hijax_migrate.rules.context", "from .plans import Plan\nimport libcst\n"),
    ],
)
def test_a_downward_or_sideways_import_is_allowed(module, source):
    assert upward_edges(source, module) == []


def test_architecture_page_lists_the_folders_in_layer_order():
    page = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert len(page.splitlines()) <= 150  # a map read in minutes; the modules' docstrings hold the rest
    listed = re.findall(r"^### `([a-z]+)/`", page, re.M)
    assert tuple(listed) == LAYERS
    for folder in LAYERS:  # each folder says what it holds and what it may import
        assert ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text(encoding="utf-8")))
