"""A base rename looks for switches between the old and the new name (code
correct on both sides of a release) with a walk of every libcst node, only
where ``ast`` says there may be one: without the new name as a word, only an
``or`` naming the old one can be (see ``BaseRename._is_switch``)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from hijax_migrate.rules.base_rename import _may_switch, _Sightings

from golden import read_case

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.py"))
FORMS = [
    "Base = hjx.VJPHiPrimitive or object\n",
    "Base = getattr(hjx, 'X', None) or VJPHiPrimitive\n",
    "class A(VJPHiPrimitive):\n    pass\n",
    "if v:\n    B = VJPHiPrimitive\n",
    "x = (a or\n     b.VJPHiPrimitive)\n",
]


@pytest.mark.parametrize("code", [read_case(path).source for path in GOLDEN] + FORMS)
def test_no_switch_is_missed_where_ast_finds_none(code):
    if _may_switch(code, "VJPHiPrimitive", "HiPrim"):
        return
    found = _Sightings(cst.parse_module(code), "VJPHiPrimitive").found
    assert not any(isinstance(node, cst.BooleanOperation) for node in found)


def test_an_or_naming_the_old_base_is_a_possible_switch():
    assert [_may_switch(code, "VJPHiPrimitive", "HiPrim") for code in FORMS] == [True, True, False, False, True]
    assert _may_switch("from jax.experimental.hijax import HiPrim\n", "VJPHiPrimitive", "HiPrim")
