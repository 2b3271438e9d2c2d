"""The pre-filter's ``bound NAME`` words (``sources/bound_names.py``) against Python's own
reading: wherever ``ast`` finds the name bound in a class body, written as an attribute,
deleted, or spelt as a string (``setattr``, a namespace's key), the bytes say "may be bound".

The generator writes each binding construct of the language reference (assignment and its
annotated, augmented, unpacking and chained forms, ``:=``, ``for``, ``with``, ``except``,
``import``, ``def``, ``class``, ``del``, ``global``, ``match``, a keyword of ``dict``) in a
class body, as a one-line body, continued by a backslash, after the class, and among plain
uses of the name, comments and strings, which must not be read as bindings where they are not
(a target list or an import's names going on, inside brackets, at the first column);
its lines end with each of Python's line breaks (``\\n``, ``\\r\\n``, a lone ``\\r``).
"""

from __future__ import annotations

import ast

from hijax_migrate.sources.files import named_words
from hypothesis import given, settings
from hypothesis import strategies as st

NAMES = ("remat", "dce")
# {n}: the name; each a statement of a class body (indented by the generator)
BINDINGS = [
    "{n} = f",
    "{n}: T = f",
    "{n}: T",
    "{n} += f",
    "{n} //= f",
    "a = {n} = f",
    "a, {n} = f, g",
    "({n}, a) = f, g",
    "[a, *{n}] = f",
    "(a := ({n} := f))",
    "for {n} in (f,): pass",
    "for (a, {n}) in ((f, g),): pass",
    "with f as {n}: pass",
    "with f as (a, {n}): pass",
    "try: pass\nexcept E as {n}: pass",
    "import {n}",
    "import m as {n}",
    "from m import f as {n}",
    "from m import (a,\n    {n})",
    "def {n}(self): pass",
    "async def {n}(self): pass",
    "class {n}: pass",
    "del {n}",
    "global {n}",
    "match f:\n    case [{n}]: pass",
    "match f:\n    case P(x={n}): pass",
    "locals().update({n}=f)",
    "{n} \\\n    = f",
    # a line inside brackets may start at the first column ("\0": kept there, not indented)
    "(a,\n\0b, {n}) = f, g, h",
    "from m import (a,\n\0b, {n})",
    "for (a,\n\0b, {n}) in ((f, g, h),): pass",
    "with f as (a,\n\0b, {n}): pass",
    "[a,\n\0b, *{n}] = f",
    "s = '''\nabc # '''; {n} = f",  # a '#' in a string, which closes before the binding
    "s = '''\n\0from m import '''; from m import (a, {n})",  # 'from' at the first column, in a string
]
AFTER = [
    "P.{n} = f",
    "P.{n}: T = f",
    "del P.{n}",
    "setattr(P, '{n}', f)",
    'vars(P)["{n}"] = f',
    "P = type('P', (B,), {{'{n}': f}})",
    "P = type('P', (B,), dict({n}=f))",
    "P = types.new_class('P', (B,), {{}}, lambda ns: ns.update({n}=f))",
]
USES = [
    "x = {n}(f)",
    "x = m.{n}(f)",
    "x = m.{n}",
    "y = {n}.rules[0]",
    "{n}[0] = f",
    "call({n}.x, -{n})",
    "from jax._src import {n}",  # a module's own statement: a global
    "def g({n}x): pass",
    "# a comment: {n} = f",
    "x = 1  # so {n}, once",
]


def _bound_by_python(tree: ast.Module, name: str) -> bool:
    """Is ``name`` bound in a class body's own scope, an attribute stored or deleted, or a string?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == name:
            return True
        if isinstance(node, ast.Attribute) and node.attr == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.keyword) and node.arg == name:
            return True
        if isinstance(node, ast.ClassDef) and any(_binds(stmt, name) for stmt in node.body):
            return True
    return False


def _binds(stmt: ast.stmt, name: str) -> bool:
    """Does ``stmt``, of a class body, bind ``name`` in that body's scope (not in a nested function)?"""
    todo = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
            continue  # their bodies are scopes of their own
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name:
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if isinstance(node, ast.ExceptHandler) and node.name == name:
            return True
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name == name:
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _indent(text: str, by: str) -> str:
    return "\n".join(line[1:] if line.startswith("\0") else by + line for line in text.split("\n"))


_COMPOUND = ("for ", "with ", "try", "def ", "async ", "class ", "match ", "#")


@st.composite
def programs(draw):
    name = draw(st.sampled_from(NAMES))
    lines = ["from m import B, f, g, T, E", "class P(B):"]
    body = draw(st.lists(st.sampled_from([*BINDINGS, *USES]), min_size=1, max_size=4))
    simple = "\n" not in body[0] and not body[0].startswith(_COMPOUND)
    if draw(st.booleans()) and simple:  # a one-line body: a simple statement, the only one
        lines[-1] += " " + body[0].format(n=name)
    else:
        lines += [_indent(stmt.format(n=name), "    ") for stmt in body] + ["    pass"]
    lines += [stmt.format(n=name) for stmt in draw(st.lists(st.sampled_from([*AFTER, *USES[:-4]]), max_size=2))]
    # each of Python's line breaks: a lone \r (classic Mac OS) ends a line, and a comment, too
    return name, ("\n".join(lines) + "\n").replace("\n", draw(st.sampled_from(["\n", "\r\n", "\r"])))


@settings(max_examples=600, deadline=None)
@given(programs())
def test_every_binding_python_finds_is_one_the_bytes_may_hold(program):
    name, code = program
    tree = ast.parse(code)
    if _bound_by_python(tree, name):
        assert f"bound {name}".encode() in named_words(code.encode(), {f"bound {name}".encode()}), code


def test_each_binding_form_alone_is_found():
    for name in NAMES:
        word = f"bound {name}".encode()
        for stmt in BINDINGS:
            code = "class P(B):\n" + _indent(stmt.format(n=name), "    ") + "\n"
            assert _bound_by_python(ast.parse(code), name), code
            assert word in named_words(code.encode(), {word}), code
        for stmt in AFTER:
            code = "class P(B):\n    pass\n" + stmt.format(n=name) + "\n"
            assert word in named_words(code.encode(), {word}), code


def test_plain_uses_are_no_bindings():
    """What makes the words worth having: jax's own modules use ``remat`` and ``dce`` so."""
    for name in NAMES:
        word = f"bound {name}".encode()
        for stmt in USES:
            text = stmt.format(n=name)
            code = text + "\n" if text.startswith("from") else "def h(f):\n" + _indent(text, "    ") + "\n    pass\n"
            assert not _bound_by_python(ast.parse(code), name), code
            assert word not in named_words(code.encode(), {word}), code


def test_a_binding_on_a_line_at_the_first_column_inside_brackets_is_reported(tmp_path, capsys):
    """Its file names no other word: it was passed over, and ``--check`` said nothing was left."""
    from hijax_migrate.cli import main

    (tmp_path / "base.py").write_text("from jax.experimental.hijax import HiPrim\n\n\nclass Base(HiPrim):\n    pass\n")
    (tmp_path / "user.py").write_text("from base import Base\n\n\nclass P(Base):\n    (a,\nb, dce) = 1, 2, print\n")
    assert main(["--check", "--no-cache", "--target-jax", "0.12", str(tmp_path)]) == 1
    assert f"{(tmp_path / 'user.py').as_posix()}:5: HJX016 P: `dce` is bound by an unpacking" in capsys.readouterr().err
