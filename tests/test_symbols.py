"""The post-condition's symbols are the symtable module's own, built faster."""

import symtable
from pathlib import Path

import pytest
from hijax_migrate.engine.checks import _symbols

_METHODS = (
    "get_name",
    "is_referenced",
    "is_imported",
    "is_parameter",
    "is_global",
    "is_nonlocal",
    "is_declared_global",
    "is_local",
    "is_annotated",
    "is_free",
    "is_assigned",
    "is_namespace",
)
ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*ROOT.glob("golden/*.py"), *ROOT.glob("codemods/hijax_migrate/**/*.py")])


def _described(symbols):
    return [(tuple(getattr(s, m)() for m in _METHODS), [t.get_name() for t in s.get_namespaces()]) for s in symbols]


@pytest.mark.parametrize("path", SOURCES[::7], ids=lambda p: p.name)
def test_symbols_are_symtables_own(path):
    try:
        top = symtable.symtable(path.read_text(), str(path), "exec")
    except SyntaxError:
        pytest.skip("syntax newer than this Python")
    tables = [top]
    while tables:
        table = tables.pop()
        tables += table.get_children()
        assert _described(_symbols(table)) == _described(table.get_symbols()), table.get_name()


def test_a_name_bound_twice_keeps_both_scopes():
    top = symtable.symtable("def f(): pass\nclass f: pass\nx = lambda: f\nglobal g\n", "m.py", "exec")
    assert _described(_symbols(top)) == _described(top.get_symbols())
    assert [len(s.get_namespaces()) for s in _symbols(top) if s.get_name() == "f"] == [2]
