"""The walk for deliberate test fixtures passes over functions whose text names
no ``raises`` (analysis/fixture_classes.py): it finds what the walk of every node finds,
and the migration finds them through the bridge as libcst's nodes (engine/undecided.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis import fixture_classes
from hijax_migrate.analysis.summary import bridge_of
from hijax_migrate.engine.undecided import fixtures

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
BIG = Path("/work/corpus/jax-HEAD/tests/hijax_test.py")  # where this machine has it
HELPER = """
import unittest
from jax.experimental.hijax import VJPHiPrimitive

class T(unittest.TestCase):
    def test_plain(self):
        class Ok(VJPHiPrimitive):
            pass
        return Ok

    def test_bad(self):
        class Bad(VJPHiPrimitive):
            pass
        def make():
            return Bad()
        with self.assertRaises(TypeError):
            make()

with_raises = None
"""


def both(code: str, monkeypatch) -> tuple[dict, dict]:
    """The walk of every node's fixtures, and the walk passing over functions, by class name;
    the migration's (libcst's nodes, through the bridge) are the latter."""
    tree = ast.parse(code)
    passed = fixture_classes.fixture_classes(tree, code)
    module = cst.parse_module(code)
    migrated = fixtures(bridge_of(module, code))
    assert [(n.name.value, w) for n, w in migrated.items()] == [(n.name, w) for n, w in passed.items()]
    with monkeypatch.context() as patch:
        patch.setattr(fixture_classes.FixtureBook, "holds_none", lambda self, text: False)
        walked = fixture_classes.fixture_classes(tree, code)
    return walked, passed


def names(found: dict) -> dict[str, str]:
    return {cls.name: where for cls, where in found.items()}


def test_a_helper_building_a_fixture_is_still_followed(monkeypatch):
    walked, passed = both(HELPER, monkeypatch)
    assert names(passed) == names(walked) == {"Bad": "used only inside `with self.assertRaises(...)`"}


@pytest.mark.parametrize(
    "case",
    [path for path in sorted(GOLDEN.glob("*.py")) if "aises" in path.read_text()] + ([BIG] if BIG.is_file() else []),
    ids=lambda path: path.stem,
)
def test_the_same_fixtures_as_the_walk_of_every_node(case, monkeypatch):
    code = case.read_text().split("\n# output\n")[0]
    try:
        ast.parse(code)
    except SyntaxError:
        pytest.skip("syntax newer than this Python")
    walked, passed = both(code, monkeypatch)
    assert names(passed) == names(walked)
    assert list(passed.values()) == list(walked.values())
