"""The walk for deliberate test fixtures passes over functions whose text names
no ``raises`` (engine/undecided.py): it finds what the walk of every node finds."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.analysis.primitives import PrimitiveMap
from hijax_migrate.analysis.project import Project
from hijax_migrate.analysis.summary import summarize_tree
from hijax_migrate.engine.undecided import fixtures, walked_fixtures
from libcst.metadata import MetadataWrapper

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


def both(code: str) -> tuple[dict, dict]:
    """The walk of every node's fixtures, and the walk passing over functions;
    (``fixtures`` with the tree's ``DefLines``, which may take ast's, gives the latter's.)"""
    tree = cst.parse_module(code)
    summary, nodes = summarize_tree(tree, code)
    prims = PrimitiveMap.build(MetadataWrapper(tree, unsafe_skip_copy=True), summary, nodes, Project())
    prims.code = code
    walked, passed = walked_fixtures(tree), walked_fixtures(tree, prims.text)
    assert list(fixtures(tree, code, prims.def_lines).items()) == list(passed.items())
    return walked, passed


def names(found: dict) -> dict[str, str]:
    return {cls.name.value: where for cls, where in found.items()}


def test_a_helper_building_a_fixture_is_still_followed():
    walked, passed = both(HELPER)
    assert names(passed) == names(walked) == {"Bad": "used only inside `with self.assertRaises(...)`"}


@pytest.mark.parametrize(
    "case",
    [path for path in sorted(GOLDEN.glob("*.py")) if "aises" in path.read_text()] + ([BIG] if BIG.is_file() else []),
    ids=lambda path: path.stem,
)
def test_the_same_fixtures_as_the_walk_of_every_node(case):
    code = case.read_text().split("\n# output\n")[0]
    walked, passed = both(code)
    assert names(passed) == names(walked)
    assert list(passed.values()) == list(walked.values())
