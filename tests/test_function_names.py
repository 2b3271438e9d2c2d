"""One function's own block over ``ast`` (analysis/function_names.py), held to CPython's
own symbol tables (``symtable``): the names the block binds, and which of them a nested
block reads. Bodies are drawn from the execution model's binding operations and blocks
(nested functions, lambdas, comprehensions, classes, ``nonlocal``), each naming a
parameter or another name."""

from __future__ import annotations

import ast
import symtable
import textwrap

from hijax_migrate.analysis.function_names import FunctionNames
from hypothesis import given, settings
from hypothesis import strategies as st

FORMS = [
    "x = {n}",
    "{n} = 1",
    "{n} += 1",
    "for {n} in y:\n    pass",
    "with y as {n}:\n    pass",
    "try:\n    pass\nexcept E as {n}:\n    pass",
    "import {n}",
    "from m import {n}",
    "def {n}():\n    pass",
    "class {n}:\n    pass",
    "del {n}",
    "print({n})",
    "z = lambda: {n}",
    "z = lambda {n}: {n}",
    "z = [{n} for _ in y]",
    "z = [{n} for {n} in y]",
    "z = [(w := {n}) for _ in y]",
    "z = [({n} := 1) for _ in y]",
    "def g():\n    return {n}",
    "def g():\n    {n} = 1\n    return {n}",
    "def g({n}):\n    return {n}",
    "def g():\n    nonlocal {n}\n    {n} = 2",
    "def g(v={n}):\n    pass",
    "class K:\n    {n} = 1\n    def m(self):\n        return {n}",
    "class K:\n    x = {n}",
    "match y:\n    case [{n}]:\n        pass",
    "if {n}:\n    {n}.accum(1)",
]
NAMES = ["a", "c"]  # a parameter, and a name the function need not bind


@st.composite
def functions(draw) -> str:
    forms = draw(st.lists(st.tuples(st.sampled_from(FORMS), st.sampled_from(NAMES)), min_size=1, max_size=6))
    body = "\n".join(form.format(n=name) for form, name in forms)
    return "def f(a, b, *r, k=1, **kw):\n" + textwrap.indent(body, "    ") + "\n"


def python_reading(code: str) -> tuple[set[str], set[str]] | None:
    """(names f's block binds, names of them a nested block reads), by CPython; None: not valid."""
    try:
        table = symtable.symtable(code, "m.py", "exec").get_children()[0]
    except SyntaxError:
        return None
    bound = {s.get_name() for s in table.get_symbols() if s.is_local() and not s.is_global()}
    free = set()
    for child in _nested(table):
        free |= {
            s.get_name() for s in child.get_symbols() if s.is_free() and s.is_referenced() and s.get_name() in bound
        }
    return bound, free


def _nested(table):
    for child in table.get_children():
        yield child
        yield from _nested(child)


@settings(max_examples=400, deadline=None)
@given(functions())
def test_the_blocks_bindings_and_the_nested_reads_that_reach_them_are_pythons(code):
    expected = python_reading(code)
    if expected is None or "nonlocal" in code:  # nonlocal: counted as bound again, on purpose
        return
    names = FunctionNames.of(ast.parse(code).body[0])
    bound = {name for name, found in names.bindings.items() if found}
    nested = {name for name, reads in names.reads.items() if any(id(r) not in names.own for r in reads)}
    assert (bound, nested) == expected, code


def test_nonlocal_and_global_are_never_one_binding():
    code = "def f(a):\n    def g():\n        nonlocal a\n        a = 2\n    global c\n    return a\n"
    names = FunctionNames.of(ast.parse(code).body[0])
    assert not names.bound_once("a") and not names.bound_once("c")


def test_self_is_the_first_parameter_where_the_block_never_binds_it_again():
    from hijax_migrate.analysis.helpers import self_name

    cases = {
        "def f(self, x):\n    return self.g(x)\n": "self",
        "def f(s, /, x):\n    return s\n": "s",
        "def f(self):\n    self = other\n": None,
        "def f(self):\n    del self\n": None,
        "def f(self):\n    [(self := 1) for _ in y]\n": None,  # := in a comprehension binds in f
        "def f(self):\n    def g():\n        nonlocal self\n        self = 1\n": None,
        "def f(*args):\n    pass\n": None,
    }
    for code, expected in cases.items():
        assert self_name(ast.parse(code).body[0]) == expected, code
