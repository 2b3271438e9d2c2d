"""Imports a rule asks to remove go where nothing reads them (import_removal):
the edit libcst's RemoveImportsVisitor makes, decided from the name model.

Where libcst's scopes and Python's resolution agree, the output is libcst's,
byte for byte. Where they do not, the import stays, and Python shows why: the
module run with libcst's removal fails where the original and ours run."""

from __future__ import annotations

import contextlib
import sys

import libcst as cst
import pytest
from hijax_migrate.rules.import_removal import removed, unread_names
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

HIJAX = "jax.experimental.hijax"


def libcst_removed(code: str, requests) -> str:
    return RemoveImportsVisitor(CodemodContext(), requests).transform_module(cst.parse_module(code)).code


def ours(code: str, requests) -> str:
    return removed(cst.parse_module(code), requests).code


# (module, whether the import of transpose_jvp goes)
AGREED = {
    "unused": (f"from {HIJAX} import HiPrim, transpose_jvp\n\nclass Op(HiPrim):\n    pass\n", True),
    "in a comment and a plain string only": (
        f"from {HIJAX} import (  # helpers\n    transpose_jvp,\n    HiPrim,\n)\n"
        "# transpose_jvp is gone\nx = f('transpose_jvp')\ny = obj.transpose_jvp\n",
        True,
    ),
    "a comment after its comma joins the name before it": (
        f"from {HIJAX} import (\n    HiPrim,  # the base\n    transpose_jvp,  # the helper\n    Zero,\n)\n",
        True,
    ),
    "the first name, its comment kept at the parenthesis": (
        f"from {HIJAX} import (\n    transpose_jvp,  # the helper\n    HiPrim,\n)\n",
        True,
    ),
    "alone on its line": (f"import os\nfrom {HIJAX} import transpose_jvp\n\nx = 1\n", True),
    "on a line with other code": (f"from {HIJAX} import transpose_jvp; x = 1\n", True),
    "last on a line with other code": (f"x = 1; from {HIJAX} import transpose_jvp\n", True),
    "twice": (f"from {HIJAX} import transpose_jvp\nfrom {HIJAX} import transpose_jvp\n", True),
    "in a block, unread": (f"if c:\n    from {HIJAX} import transpose_jvp\nx = 1\n", True),
    "the only statement of a block": (f"def f():\n    from {HIJAX} import transpose_jvp\n", True),
    "bound again, never read": (f"from {HIJAX} import transpose_jvp\nclass C:\n    transpose_jvp = 1\n", True),
    "read where a function binds it": (
        f"from {HIJAX} import transpose_jvp\ndef f(transpose_jvp):\n    return transpose_jvp\n",
        True,
    ),
    "read in a class body after the class binds it": (
        f"from {HIJAX} import transpose_jvp\nclass C:\n    transpose_jvp = 1\n    x = transpose_jvp\n",
        True,
    ),
    "read in a comprehension that binds it": (
        f"from {HIJAX} import transpose_jvp\nx = [transpose_jvp for transpose_jvp in y]\n",
        True,
    ),
    "as an attribute only": (f"from {HIJAX} import transpose_jvp\nx = obj.transpose_jvp\n", True),
    "from a relative import (no package to resolve it)": ("from .hijax import transpose_jvp\n", False),
    "from another module": ("from jax import transpose_jvp\n", False),
    "used in a function": (f"from {HIJAX} import transpose_jvp\ndef f():\n    return transpose_jvp\n", False),
    "used in a class body": (f"from {HIJAX} import transpose_jvp\nclass C:\n    f = transpose_jvp\n", False),
    "read in a class body before the class binds it": (
        f"from {HIJAX} import transpose_jvp\nclass C:\n    x = transpose_jvp\n    transpose_jvp = 1\n",
        False,
    ),
    "used before a later binding": (
        f"from {HIJAX} import transpose_jvp\nx = transpose_jvp\ntranspose_jvp = 1\n",
        False,
    ),
    "deleted": (f"from {HIJAX} import transpose_jvp\ndel transpose_jvp\n", False),
    "exported": (f"from {HIJAX} import transpose_jvp\n__all__ = ['transpose_jvp']\n", False),
    "in a string annotation": (f"from {HIJAX} import transpose_jvp\nx: 'transpose_jvp' = 1\n", False),
    "in an argument's string annotation": (
        f"from {HIJAX} import transpose_jvp\ndef f(a: 'list[transpose_jvp]'): pass\n",
        False,
    ),
    "in a TypeVar bound": (
        f"import typing\nfrom {HIJAX} import transpose_jvp\nT = typing.TypeVar('T', bound='transpose_jvp')\n",
        False,
    ),
    "in an f-string": (f"from {HIJAX} import transpose_jvp\nx = f'{{transpose_jvp}}'\n", False),
    "a pattern's value": (
        f"from {HIJAX} import transpose_jvp\nmatch v:\n    case transpose_jvp.k:\n        pass\n",
        False,
    ),
    "in a try block, read": (
        f"try:\n    from {HIJAX} import transpose_jvp\nexcept ImportError:\n    pass\nx = transpose_jvp\n",
        False,
    ),
}


@pytest.mark.parametrize("name", list(AGREED))
def test_the_import_goes_as_libcst_removes_it(name):
    code, goes = AGREED[name]
    requests = [(HIJAX, "transpose_jvp", None)]
    assert ours(code, requests) == libcst_removed(code, requests)
    assert (ours(code, requests) != code) == goes


def test_an_alias_goes_only_where_asked_under_it():
    code = f"from {HIJAX} import transpose_jvp as tj, transpose_jvp\n"
    assert ours(code, [(HIJAX, "transpose_jvp", "tj")]) == f"from {HIJAX} import transpose_jvp\n"
    assert ours(code, [(HIJAX, "transpose_jvp", None)]) == f"from {HIJAX} import transpose_jvp as tj\n"
    assert ours(code, [(HIJAX, "tj", None)]) == code


# Where libcst's scopes read the module otherwise than Python: the import stays.
# (module, request) from a module Python has, run as the test runs it.
KEPT = {
    "added to at module level": ("from os import sep\nsep += 'x'\n", ("os", "sep", None)),
    "added to in a class body": ("from os import sep\nclass C:\n    sep += 'x'\n", ("os", "sep", None)),
}


@pytest.mark.parametrize("name", list(KEPT))
def test_an_import_python_reads_stays(name):
    code, request = KEPT[name]
    assert ours(code, [request]) == code
    exec(compile(code, "m.py", "exec", dont_inherit=True), {})  # the module runs with its import...
    with pytest.raises(NameError):
        exec(compile(libcst_removed(code, [request]), "m.py", "exec", dont_inherit=True), {})  # ...and not without it


# Where the model does not follow what libcst's scopes do: the import stays, unused
# (the module runs either way).
UNFOLLOWED = {
    "declared global, never read": "from os import sep\ndef f():\n    global sep\n",
    "a function's own name of it, nonlocal": (
        "from os import sep\ndef f():\n    sep = 1\n    def g():\n        nonlocal sep\n"
    ),
    "imported again in the function that reads it": (
        "from os import sep\ndef f():\n    from os import sep\n    return sep\nassert f() == '/'\n"
    ),
    "added to in a function (its own name)": "from os import sep\ndef f():\n    sep += 'x'\n",
    "in a string given to a `cast` no typing import names": "from os import sep\nx = cast('list[sep]', 1)\n",
}


@pytest.mark.parametrize("name", list(UNFOLLOWED))
def test_an_import_the_model_cannot_show_unread_stays(name):
    code, request = UNFOLLOWED[name], ("os", "sep", None)
    assert ours(code, [request]) == code
    assert libcst_removed(code, [request]) != code
    exec(compile(libcst_removed(code, [request]), "m.py", "exec", dont_inherit=True), {"cast": lambda t, v: v})


@pytest.mark.parametrize(
    "code, unread",
    [
        ("x = 1", {"transpose_jvp", "tj"}),
        ("x = transpose_jvp", {"tj"}),
        ("def f(tj):\n    return tj\nx = transpose_jvp", {"tj"}),
        ("match v:\n    case transpose_jvp():\n        pass", {"tj"}),
        ("def f() -> 'transpose_jvp': pass", {"tj"}),
        ("from typing import cast as c\nc('transpose_jvp', 1)", {"tj"}),
        ("__all__.extend(['transpose_jvp'])", {"tj"}),
        ("print('transpose_jvp')", {"transpose_jvp", "tj"}),
        ("def transpose_jvp(transpose_jvp=1): pass", {"transpose_jvp", "tj"}),
        ("obj.transpose_jvp(k=transpose_jvp_other)", {"transpose_jvp", "tj"}),
        ("def f():\n    nonlocal tj", {"transpose_jvp"}),
        ("def f(:", None),
    ],
)
def test_unread_names(code, unread):
    imports = "from m import transpose_jvp, tj\n"
    assert unread_names(imports + code, {"transpose_jvp", "tj"}) == unread


def test_a_module_ast_cannot_read_is_libcsts_to_decide():
    code = f"from {HIJAX} import transpose_jvp, HiPrim\nclass Op[T](HiPrim):\n    pass\n"
    with pytest.raises(SyntaxError) if sys.version_info < (3, 12) else contextlib.nullcontext():
        compile(code, "m.py", "exec", dont_inherit=True)
    requests = [(HIJAX, "transpose_jvp", None)]
    expected = f"from {HIJAX} import HiPrim\nclass Op[T](HiPrim):\n    pass\n"
    assert ours(code, requests) == libcst_removed(code, requests) == expected
