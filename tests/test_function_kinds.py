"""Whether a call of a function runs its body (``analysis/function_kinds.py``), held to
CPython's own answer, and what the rules make of a backward rule whose call runs none.

The data model's callable types: a ``def`` whose own scope yields is a generator
function, an ``async def`` a coroutine function (an asynchronous generator where it
yields too), a ``lambda`` whose expression yields a generator function. A ``yield``
in a nested function, lambda or class body is that scope's; one in a nested
scope's decorators, defaults or bases is the enclosing function's. The generator
below places a ``yield`` in each of those places, at any depth of blocks, and
CPython compiles the function and says what it is (``inspect``).
"""

from __future__ import annotations

import ast
import inspect

from hijax_migrate.analysis.function_kinds import not_run
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options
from hypothesis import given, settings
from hypothesis import strategies as st

# Where a ``yield`` may stand, as a statement of the function's body (``{}``: the yield),
# and whether it is the function's own.
PLACES = [
    ("x = {}", True),
    ("f({})", True),
    ("return ({})", True),
    ("def inner():\n    x = {}", False),
    ("def inner(a=({})):\n    pass", True),
    ("@deco({})\ndef inner():\n    pass", True),
    ("async def inner():\n    x = {}", False),
    ("lambda: ({})", False),
    ("lambda a=({}): a", True),
    ("class Inner:\n    def m(self):\n        x = {}", False),
    ("class Inner(base({})):\n    pass", True),
    ("g = [lambda: ({}) for _ in range(2)]", False),
]
YIELDS = ["(yield)", "(yield x)", "(yield from ())"]
BLOCKS = ["if c:\n{}", "for i in xs:\n{}", "while c:\n{}", "with m:\n{}", "try:\n{}\nexcept E:\n    pass"]


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.splitlines())


@st.composite
def functions(draw) -> str:
    """A module defining ``f``: a ``def`` or ``async def`` with a ``yield`` (or none) in a
    place drawn from ``PLACES``, inside blocks drawn from ``BLOCKS``."""
    body = "pass"
    if draw(st.booleans()):
        place, _ = draw(st.sampled_from(PLACES))
        body = place.format(draw(st.sampled_from(YIELDS)))
    for _ in range(draw(st.integers(0, 2))):
        body = draw(st.sampled_from(BLOCKS)).format(_indent(body).rstrip("\n"))
    head = draw(st.sampled_from(["def", "async def"]))
    return f"{head} f(c=0, xs=(), m=None, x=1):\n{_indent(body)}"


def _cpython_says(code: str) -> bool:
    """Does CPython make ``f`` a function whose call runs none of its body?"""
    space: dict = {}
    exec(compile(code, "f.py", "exec"), space)
    f = space["f"]
    return inspect.isgeneratorfunction(f) or inspect.iscoroutinefunction(f) or inspect.isasyncgenfunction(f)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(functions())
def test_not_run_is_what_cpython_makes_of_the_function(code):
    try:
        compile(code, "f.py", "exec")
    except SyntaxError:  # ``yield from`` in an ``async def``, a ``return`` value in an async generator
        return
    func = ast.parse(code).body[0]
    assert (not_run(func) is not None) == _cpython_says(code), code


def test_the_places_cover_every_nested_scope_and_what_it_evaluates_outside():
    """Each kind of nested scope holds a ``yield`` of its own and one of the function's."""
    kinds = {(place.split("(")[0].split()[0].lstrip("@"), own) for place, own in PLACES}
    for scope in ("def", "async", "lambda", "class"):
        assert any(kind[0].startswith(scope) and not kind[1] for kind in kinds), scope
    for outer in ("def", "deco", "lambda", "class"):
        assert any(kind[0].startswith(outer) and kind[1] for kind in kinds), outer


def test_a_lambda_is_a_generator_function_where_its_expression_yields():
    assert not_run(ast.parse("lambda: (yield)", mode="eval").body) is not None
    assert not_run(ast.parse("lambda: [(lambda: (yield))]", mode="eval").body) is None
    assert not_run(ast.parse("lambda a=1: a", mode="eval").body) is None


def test_a_decorator_decides_what_is_bound_but_staticmethod_and_classmethod_bind_the_function():
    """``@collect`` may run the generator it is given (``tuple(gen(*args))``): not known, None."""
    assert not_run(ast.parse("@collect\ndef f():\n    yield 1\n").body[0]) is None
    assert not_run(ast.parse("@staticmethod\ndef f():\n    yield 1\n").body[0]) is not None
    assert not_run(ast.parse("@classmethod\nasync def f(cls):\n    pass\n").body[0]) is not None


def test_what_it_says_names_the_kind_and_the_line():
    assert not_run(ast.parse("async def f():\n    pass\n").body[0]) == "a coroutine function (`async def`)"
    found = not_run(ast.parse("def f():\n    x = 1\n    yield x\n").body[0])
    assert found == "a generator function (it yields at line 3)"


# End to end: a backward rule in each form a class binds it by, whose function yields or
# is a coroutine where drawn. Whatever CPython makes of it decides the outcome: a rule whose
# call runs none of its body is refused, the file left byte-identical, with no unsafe fix
# offered; any other is migrated.
HEAD = "from jax.experimental.hijax import VJPHiPrimitive\n\n\n"
CLASSIC = "(self, res, g):\n    x = res\n{}    return (g * x,)\n"
ACCUM = "(self, res, g, x_acc):\n    x_acc.accum(g * res)\n{}"


@st.composite
def rule_modules(draw) -> tuple[str, bool, bool]:
    """(module, does jax's call of its ``vjp_bwd`` run its body, is the rule already accumulators)."""
    form = draw(st.sampled_from(["body", "module function"]))
    accum = draw(st.booleans())
    asynchronous = draw(st.booleans()) and draw(st.booleans())
    place, own = draw(st.sampled_from(PLACES))
    yielding = draw(st.booleans())
    extra = _indent(place.format("(yield)")) if yielding and not asynchronous else ""
    extra = extra.replace("return (", "y = (")  # a second return would be another rule's matter
    signature = (ACCUM if accum else CLASSIC).format(extra)
    head = "async def" if asynchronous else "def"
    if form == "body":
        code = HEAD + "class P(VJPHiPrimitive):\n" + _indent(f"{head} vjp_bwd{signature}")
    else:
        code = HEAD + f"{head} _bwd{signature}\n\nclass P(VJPHiPrimitive):\n    vjp_bwd = _bwd\n"
    runs = not asynchronous and not (yielding and own)
    return code, runs, accum


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rule_modules())
def test_a_backward_rule_whose_call_runs_none_of_its_body_is_refused(drawn):
    code, runs, accum = drawn
    result = migrate_source(code, "m.py", Options(target=(0, 10, 0)))
    errors = [f for f in result.report.findings if f.severity == "error"]
    if runs:
        assert not errors, result.report.findings
        assert (result.code == code) == accum, "a value rule is migrated, an accumulator one needs nothing"
    else:
        assert result.code == code and [f.rule for f in errors] in (["HJX001"], ["HJX016"]), result.report.findings
        assert "runs none of its body" in errors[0].message
        assert all(f.fix is None for f in errors), "no unsafe fix: no rename makes such a rule work"
