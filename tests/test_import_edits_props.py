"""Generated modules: the imports a rule asks for, added and removed by
``FileContext.apply_imports`` (the addition on the import statements alone,
``import_edits``; the removals as the name model decides, ``import_removal``),
give byte for byte what libcst's visitors give on the whole module, but where
the name model reads the module otherwise than libcst's scopes (Python's
symbol table the judge where it removes more)."""

from __future__ import annotations

import ast
import contextlib
import functools
import symtable
from unittest import mock

import libcst as cst
import pytest
from hijax_migrate.rules import import_edits, import_removal
from hijax_migrate.rules.context import FileContext
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

# Few modules and names, so that requests, imports and uses meet often.
HIJAX = "jax.experimental.hijax"
MODULES = ["jax.experimental.hijax", "jax", "typing", "pkg.sub.helpers", "pkg.sub", "__future__"]
NAMES = ["transpose_jvp", "HiPrim", "tj", "List", "cast"]
_N = st.sampled_from(NAMES)
_M = st.sampled_from(MODULES[:-1])
_RELATIVE = st.sampled_from([".", ".helpers", "..", "..sub.helpers"])


def _indent(code: str) -> str:
    return "".join(f"    {line}" if line.strip() else line for line in code.splitlines(True))


def _import_line():
    """One top-level import statement (a line may hold several)."""
    single = st.one_of(
        st.builds(lambda m, n: f"from {m} import {n}", _M, _N),
        st.builds(lambda m, n, a: f"from {m} import {n} as {a}", _M, _N, _N),
        st.builds(lambda m, n, a, w: f"from {m} import (\n    {n} as {a},  # why\n    {w},\n)", _M, _N, _N, _N),
        st.builds(lambda m, a: f"import {m} as {a}", _M, _N),
        st.builds(lambda m: f"import {m}", _M),
        st.builds(lambda r, n: f"from {r} import {n}", _RELATIVE, _N),
        st.builds(lambda m: f"from {m} import *", _M),
    )
    return st.one_of(single, st.builds(lambda a, b: f"{a}; {b}", single, single))


def _use(name):
    """A statement that may name ``name``'s names, in any way libcst may count
    (or not): groups drawn alike, so that the strings and patterns where ast
    and libcst see names differently come up as often as plain uses."""

    def each(*forms, name=name):
        return st.one_of(*(st.builds(form.format, name, name, _M) for form in forms))

    quoted = each(
        "a: '{0}' = 1",
        "b: b'{0}' = 1",
        "c = typing.cast('{0}', 1)",
        "d = cast('list[{0}]', 1)",
        "T = typing.TypeVar('T', bound='{0}.{1}')",
        "from {2} import List\nA = List['{0}']",
        "from typing import Annotated as {1}\nA = {1}['{0}']",
        "L = Literal['{0}']",
        "def fn(a=None) -> '{0}':\n    pass",
        "class C:\n    attr: '{0}'",
        "print('{0}')",
    )
    patterns = each(
        "match v:\n    case {{'k': 1, **{0}}}:\n        pass",
        "match v:\n    case C({0}=1):\n        pass",
        "match v:\n    case [*{0}] | {0}:\n        pass",
        "match v:\n    case {0}.k:\n        pass",
    )
    bindings = each(
        "y = f({0}=1)",
        "z = obj.{0}",
        "class {0}:\n    pass",
        "def fn({0}=None):\n    pass",
        "if c:\n    {0} = None",
        "try:\n    pass\nexcept E as {0}:\n    pass",
        "with open(p) as {0}:\n    pass",
        "for {0} in []:\n    pass",
    )
    # uses of any name (a use of the one asked to go keeps it: the whole module decides)
    plain = each(
        "x = {0}",
        "{0} += 1",
        "del {0}",
        "s = f'{{{0}!r}}'",
        "@{0}\ndef fn():\n    pass",
        "def fn(a={0}):\n    pass",
        "def fn():\n    global {0}",
        "def outer():\n    {0} = 1\n    def inner():\n        nonlocal {0}",
        "(w := {0})",
        "g = lambda {0}=1: {0}",
        "h = [{0} for {0} in range(3)]",
        name=_N,
    )
    return st.one_of(quoted, patterns, bindings, plain)


def _block(inner):
    """A compound statement around ``inner`` (a list of statements): imports in blocks too."""

    def wrap(kind, body):
        body = _indent("\n".join(body) or "pass")
        return {
            "def": f"def fn():\n{body}",
            "class": f"class C:\n{body}",
            "if": f"if TYPE_CHECKING:\n{body}",
            "try": f"try:\n{body}\nexcept ImportError:\n    pass",
            "for": f"for i in []:\n{body}",
        }[kind]

    return st.builds(wrap, st.sampled_from(["def", "class", "if", "try", "for"]), inner)


@functools.cache
def _statements(names: tuple[str, ...]):
    """Statements (some of them blocks) and ``__all__`` forms, naming ``names`` mostly."""
    use = _use(st.sampled_from(names))
    statement = st.one_of(use, use, _block(st.lists(st.one_of(use, _import_line()), min_size=1, max_size=2)))
    exports = st.builds(
        lambda kind, names: {
            "list": f"__all__ = {names!r}",
            "tuple": f"__all__ = {tuple(names)!r}",
            "aug": f"__all__ += {names!r}",
            "extend": f"__all__.extend({names!r})",
        }[kind],
        st.sampled_from(["list", "tuple", "aug", "extend"]),
        st.lists(_N, max_size=2),
    )
    return st.one_of(statement, exports)


_GAP = st.sampled_from(["", "", "\n", "\n\n", "# a comment\n", "\n# a comment\n\n"])


@st.composite
def cases(draw) -> tuple[str, list, list]:
    """(module, imports to add: (module, name), imports to remove: (module, name, alias));
    most removals asked for are imported at the top, so that they may go."""
    adds = draw(st.lists(st.tuples(_M, st.one_of(st.none(), _N)), max_size=2))
    if draw(st.booleans()):
        adds.append(("__future__", "annotations"))
    removes = draw(st.lists(st.tuples(_M, _N, st.one_of(st.none(), _N)), max_size=2))
    parts = []
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(['"""Doc."""', "'doc' 'string'", "__strict__ = True", "x = 0"])))
    if draw(st.booleans()):
        parts.append("from __future__ import annotations")
    asked = [(f"from {m} import {n}" if n else f"import {m}") + (f" as {a}" if a else "") for m, n, a in removes]
    parts += draw(st.permutations(asked + draw(st.lists(_import_line(), max_size=2))))
    names = tuple(sorted({alias or name for _, name, alias in removes if alias or name} | {draw(_N)}))
    parts += draw(st.lists(_statements(names), min_size=1, max_size=3))
    return "".join(draw(_GAP) + part + "\n" for part in parts) + draw(_GAP), adds, removes


def _context(module_name: str, adds, removes) -> FileContext:
    context = FileContext("m.py", module_name, None)
    for module, name in adds:
        context.add_import(module, name)
    for module, name, alias in removes:
        context.remove_import(module, name, alias)
    return context


@contextlib.contextmanager
def whole_module():
    """``apply_imports`` with libcst's visitors run on the whole module; the file's layout kept
    after them (``kept_layout``) as the fast path keeps it: that step is not what is compared."""
    layout = import_edits.kept_layout
    add = mock.patch.object(
        import_edits,
        "add_imports",
        lambda visitor, context, tree: layout(tree, visitor(context).transform_module(tree)),
    )
    remove = mock.patch.object(import_removal, "removed", libcst_removed)
    with add, remove:
        yield


def libcst_removed(tree, requests):
    """libcst's RemoveImportsVisitor over the whole module: its scopes decide what is unused."""
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

    return RemoveImportsVisitor(CodemodContext(), requests).transform_module(tree)


def outcome(code: str, module_name: str, adds, removes) -> str:
    tree = cst.parse_module(code)
    try:
        return _context(module_name, adds, removes).apply_imports(tree).code
    except Exception as error:  # noqa: BLE001 (both ways must fail alike)
        return f"{type(error).__name__}: {error}"


def both_ways(code: str, module_name: str, adds, removes) -> tuple[str, str]:
    with whole_module():
        whole = outcome(code, module_name, adds, removes)
    return whole, outcome(code, module_name, adds, removes)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), module_name=st.sampled_from(["m", "pkg.sub.m", "pkg.sub.__init__"]))
@example(  # one name a line, a comment: the file's layout is kept on both paths
    case=(
        "from typing import (\n    transpose_jvp as transpose_jvp,  # why\n    HiPrim,\n)\na: 'transpose_jvp' = 1\n",
        [("typing", "transpose_jvp")],
        [],
    ),
    module_name="m",
)
@example(  # a read of a function's own name: Python never reads the import there, libcst keeps it
    case=(
        f"from {HIJAX} import transpose_jvp\n"
        "def fn():\n    x = transpose_jvp\n    class transpose_jvp:\n        pass\n",
        [],
        [(HIJAX, "transpose_jvp", None)],
    ),
    module_name="m",
)
@example(  # ``+=`` at module level reads the import: libcst removes it, ours keeps it
    case=(f"from {HIJAX} import transpose_jvp\ntranspose_jvp += 1\n", [], [(HIJAX, "transpose_jvp", None)]),
    module_name="m",
)
def test_import_edits_give_the_whole_modules_result(case, module_name):
    """The addition is the visitor's on the whole module; so are the removals, but where
    the name model keeps an import libcst's scopes find unused (the visitor, run on our
    output, removes the rest), or removes one CPython's symbol table reads nowhere as a global."""
    code, adds, removes = case
    whole, alone = both_ways(code, module_name, adds, removes)
    event(f"as libcst's scopes remove: {alone == whole}")
    if alone == whole:
        return
    assert removes
    fewer = False
    for name in {alias or name for _, name, alias in removes}:
        ours, libcst = (_imports_of(alone, name), _imports_of(whole, name))
        event(f"ours keeps more: {ours > libcst}, fewer: {ours < libcst}")
        if ours < libcst:
            assert not _read_as_global(code, name), name
            fewer = True
    if not fewer:
        tree = cst.parse_module(alone)
        assert _lines(import_edits.kept_layout(tree, libcst_removed(tree, removes)).code) == _lines(whole)


def _imports_of(code: str, name: str) -> int:
    return sum(
        (alias.asname or alias.name) == name
        for n in ast.walk(ast.parse(code))
        if isinstance(n, ast.ImportFrom)
        for alias in n.names
    )


def _read_as_global(code: str, name: str) -> bool:
    """Does CPython's symbol table read ``name`` in the module, a class body, or as a
    function's global (independent of the name model: the compiler's own reading)?"""
    pending = [symtable.symtable(code, "m.py", "exec")]
    while pending:
        table = pending.pop()
        pending.extend(table.get_children())
        if name in table.get_identifiers():
            symbol = table.lookup(name)
            if symbol.is_referenced() and (table.get_type() != "function" or symbol.is_global()):
                return True
    return False


def _lines(code: str) -> list[str]:
    """The lines of code (a removed line's blank lines and comments before it go
    with it, or not, as the module's first statement takes them or its header)."""
    return [line for line in code.splitlines() if line.strip() and not line.lstrip().startswith("#")]


# The shapes where the statements alone once disagreed with the whole module: a name
# libcst reads in a string or a pattern that ast keeps elsewhere.
@pytest.mark.parametrize(
    "use",
    [
        "from typing import List\nA = List['transpose_jvp']\n",  # a typing subscript outside annotations
        "from typing_extensions import Annotated\nA = Annotated['transpose_jvp', 1]\n",
        "import typing.io as tio\nA = tio['transpose_jvp']\n",
        "from typing.io import IO\nA = IO['transpose_jvp']\n",
        "x: b'transpose_jvp' = 1\n",  # bytes are parsed as an annotation too
        "def f(a: b'list[transpose_jvp]'): pass\n",
        "match v:\n    case {**transpose_jvp}:\n        pass\n",  # a mapping's rest is a use to libcst
        "match v:\n    case C(transpose_jvp=1):\n        pass\n",  # so is a class pattern's keyword
    ],
)
def test_a_name_libcst_counts_as_used_keeps_its_import(use):
    code = f"from {HIJAX} import transpose_jvp\n{use}"
    whole, alone = both_ways(code, "m", [], [(HIJAX, "transpose_jvp", None)])
    assert alone == whole
    assert whole.startswith(f"from {HIJAX} import transpose_jvp\n")
