"""A module's names read by a string (``analysis/string_reads.py``): each form of the data
model that reads a namespace's key, run to show it reads the name, and the probes that
do not (a missing name is their answer, not an error)."""

from __future__ import annotations

import ast
import types

import pytest
from hijax_migrate.analysis.string_reads import may_read_by_string, string_reads

READS = {
    "getattr": "getattr(m, 'Old')",
    "attrgetter": "operator.attrgetter('Old')(m)",
    "globals subscripted": "globals()['Old']",
    "vars of a module subscripted": "vars(m)['Old']",
    "a module's __dict__ subscripted": "m.__dict__['Old']",
    "a namespace's get": "m.__dict__.get('Old')",
    "a namespace's pop": "vars(m).pop('Old')",
    "locals at module level": "locals()['Old']",
    "a key joined from parts": "getattr(m, 'O' + 'ld')",
}
PROBES = {
    "hasattr": "hasattr(m, 'Old')",
    "getattr with a default": "getattr(m, 'Old', None)",
}
NOT_READS = {
    **PROBES,
    "a message": "str('Old')",
    "another key": "globals()['New']",
    "a dict of the code's own": "{'Old': 1}['Old']",
}


def _run(expr: str, bound: bool):
    """``expr`` evaluated where module ``m`` (and the module's globals) bind ``Old`` or not."""
    import operator

    m = types.ModuleType("m")
    space = {"m": m, "operator": operator}
    if bound:
        m.Old = space["Old"] = _OLD
    return eval(compile(expr, "<case>", "eval", dont_inherit=True), space)


_OLD = object()


@pytest.mark.parametrize("name", list(READS))
def test_each_form_reads_the_name(name):
    expr = READS[name]
    assert _run(expr, bound=True) is _OLD  # the name there: read
    try:
        gone = _run(expr, bound=False)  # gone (jax's module at the target): fails, or reads another value
    except (AttributeError, KeyError):
        gone = None
    assert gone is not _OLD
    assert may_read_by_string(expr, "Old")
    assert [form for _, form in string_reads(ast.parse(expr), "Old")], expr


@pytest.mark.parametrize("name", list(NOT_READS))
def test_a_probe_or_another_string_is_no_read(name):
    expr = NOT_READS[name]
    if name in PROBES:
        _run(expr, bound=False)  # a probe raises nothing where the name is gone: its answer
    assert string_reads(ast.parse(expr), "Old") == []


def test_reads_come_in_source_order_with_their_lines():
    code = "x = 1\ny = getattr(m, 'Old')\nz = globals()[\"Old\"]\n"
    assert string_reads(ast.parse(code), "Old") == [(2, "getattr"), (3, "a namespace's key")]


def test_a_key_the_module_binds_to_the_name_reads_it():
    code = "KEY = 'Old'\nx = getattr(m, KEY)\nKEYS = ('New',)\ny = getattr(m, KEYS[0])\n"
    code += "for k in ('Old', 'New'):\n    getattr(m, k)\n"
    assert string_reads(ast.parse(code), "Old") == [(2, "getattr"), (6, "getattr")]
