"""A generator of modules that bind and read the renamed base in every way Python's
execution model has, for the tests of the base rename (``test_rename_resolution``).

The enumeration (the reference, 4.2 "Naming and binding", and 7/8 for the statements):

- binding operations: ``from ... import`` (the old name, the new, both, ``*``), ``import
  a.b.c as m``, assignment, annotated assignment, ``:=``, a ``for`` target, ``with ... as``,
  ``except ... as`` (unbound again when the handler ends), ``def``, ``class``, ``del``;
  declarations: ``global`` (in a function);
- blocks: the module, a class body, a function (its body runs when called: each is called
  after its ``def``), a lambda, a comprehension;
- where code may not run, or run again: ``if``, ``for`` (twice), ``try`` (a read that finds
  nothing is caught there as a ``NameError``);
- reads: a name (at its block's top level, where an unbound one ends the module, or caught),
  a default of a ``def`` or ``lambda`` (read where it stands), a key of the module's
  namespace (``globals()['Old']``), an attribute of the hijax module (imported, or
  computed: ``__import__(...)``) or of a class whose body imports the
  name (``NS.Old``), a base of a class, a name inside a string annotation, inside an
  f-string, in a comprehension, in a lambda.

``build(rng)`` gives the code; ``run(code, names)`` runs it against a stand-in for jax's
hijax module holding ``names`` (each the same class), and gives what each read saw, in
order, and how the module ended: the same trace for the code before the rename (under a
jax with both names) and after it (the new name only) is the rename's proof.
"""

from __future__ import annotations

import builtins
import random
import types

OLD, NEW = "VJPHiPrimitive", "HiPrim"
RENAMES = {(OLD, NEW): "0.12", ("NewstyleHiPrimitive", OLD): "0.8.1"}  # each base rename, and its target
HIJAX = "jax.experimental.hijax"

_SIMPLE = {
    "import_old": f"from {HIJAX} import {{old}}",
    "import_new": f"from {HIJAX} import {{new}}",
    "import_both": f"from {HIJAX} import {{old}}, {{new}}",
    "import_module": f"import {HIJAX} as hjx",
    "assign": "{n} = _Other",
    "annotated": "{n}: type = _Other",
    "walrus": "_log(({n} := _Other))",
    "read": "_read(lambda: {n})",
    "read_here": "try:\n    _log({n})\nexcept NameError:\n    _log('unbound')",
    "read_straight": "_log({n})",  # at its block's top level: unbound, it ends the module (a NameError)
    "default": "def g{i}(x={n}):\n    return x\n_log(g{i}())",  # evaluated where the def stands
    "lambda_default": "_log((lambda x={n}: x)())",
    "read_attribute": "_read(lambda: hjx.{old})",
    "class_import": f"class NS:\n    from {HIJAX} import {{old}}",
    "read_class_attribute": "_read(lambda: NS.{old})",
    "class_base": (
        "try:\n    class KN{i}(NS.{old}):\n        pass\n    _log(KN{i})\n"
        "except (NameError, AttributeError):\n    _log('unbound')"
    ),
    "string_annotation": "_s: '{n}' = 1",
    "fstring": "try:\n    _log(f'{{{n}.__name__}}')\nexcept NameError:\n    _log('unbound')",
    "comprehension": "try:\n    _log([{n} for _ in range(1)])\nexcept NameError:\n    _log('unbound')",
    "base": "try:\n    class K{i}({n}):\n        pass\n    _log(K{i})\nexcept NameError:\n    _log('unbound')",
    "for_target": "for {n} in [_Other]:\n    pass",
    "with_as": "with _ctx() as {n}:\n    pass",
    "except_as": "try:\n    raise _Err\nexcept _Err as {n}:\n    _log({n})",
    "def_name": "def {n}():\n    return 1",
    "class_name": "class {n}:\n    pass",
    "delete": "try:\n    del {n}\nexcept NameError:\n    _log('unbound')",
}
_IMPORTED = f"__import__('{HIJAX}', fromlist=['x'])"  # jax's module, as the code computes it
# Reads the tool refuses (a file with one is left as written): drawn rarely, so that most
# modules still show a rename.
_REFUSED = {
    "by_string": "try:\n    _log(globals()['{n}'])\nexcept KeyError:\n    _log('unbound')",
    "computed_attribute": f"_read(lambda: {_IMPORTED}.{{old}})",
    # jax's module handed to a function, or bound to a name when the code runs
    "parameter_attribute": f"def g{{i}}(m):\n    return m.{{old}}\n_read(lambda: g{{i}}({_IMPORTED}))",
    "value_attribute": f"_m{{i}} = {_IMPORTED} if FLAG else None\n_read(lambda: _m{{i}}.{{old}})",
}
_MODULE_ONLY = {"star": f"from {HIJAX} import *"}
_BLOCKS = {  # a block of each kind around a body drawn for it
    "if": "if FLAG:\n{body}",
    "for": "for _ in range(2):\n{body}",
    "try": "try:\n{body}\nexcept NameError:\n    _log('unbound')",
    "def": "def f{i}():\n{body}\n_call(f{i})",
    "class": "class C{i}:\n{body}",
}


def build(rng: random.Random, old: str = OLD, new: str = NEW) -> str:
    """A module binding and reading ``old`` (most) and ``new``."""
    return _built(rng, (old, new, old), 0, "module")


def _built(rng: random.Random, names: tuple[str, str, str], depth: int, where: str) -> str:
    """A block's statements (``where``: the module, a class body or a function)."""
    lines = []
    for i in range(rng.randint(1, 4 if depth else 7)):
        lines += _statement(rng, names, depth, where, f"{depth}_{i}_{rng.randrange(1000)}").split("\n")
    if where == "function" and rng.random() < 0.2:
        lines.insert(0, f"global {rng.choice(names)}")
    return "\n".join(lines)


def _statement(rng: random.Random, names, depth: int, where: str, i: str) -> str:
    if depth < 2 and rng.random() < 0.3:
        return _block(rng, names, depth, where, rng.choice(list(_BLOCKS)), i)
    forms = _REFUSED if rng.random() < 0.01 else {**_SIMPLE, **(_MODULE_ONLY if where == "module" else {})}
    return forms[rng.choice(sorted(forms))].format(n=rng.choice(names), i=i, old=names[0], new=names[1])


def _block(rng: random.Random, names, depth: int, where: str, kind: str, i: str) -> str:
    inner = "function" if kind == "def" else "class" if kind == "class" else where
    return _BLOCKS[kind].format(body=_indent(_built(rng, names, depth + 1, inner)), i=i)


def _indent(code: str) -> str:
    return "\n".join(f"    {line}" if line else line for line in code.split("\n"))


class _Base:
    """The hijax base class, under either name."""


class _Other:
    """What the module binds a name to itself."""


class _Err(Exception):
    pass


def run(code: str, names: tuple[str, ...]) -> list[str]:
    """What each read of ``code`` saw, in order, and how it ended, with jax's hijax module
    holding ``names``."""
    hijax = types.ModuleType(HIJAX)
    for name in names:
        setattr(hijax, name, _Base)
    jax = types.SimpleNamespace(experimental=types.SimpleNamespace(hijax=hijax))
    trace: list[str] = []

    def imported(name, globals=None, locals=None, fromlist=(), level=0):
        if name == HIJAX:
            return hijax if fromlist else jax
        return builtins.__import__(name, globals, locals, fromlist, level)

    def read(thunk):
        try:
            trace.append(_shown(thunk()))
        except (NameError, AttributeError) as error:
            trace.append(type(error).__name__)

    def call(function):
        try:
            function()
        except NameError:
            trace.append("unbound")

    space = {
        "__builtins__": {**vars(builtins), "__import__": imported},
        "__name__": "prog",
        "_log": lambda value: trace.append(_shown(value)),
        "_read": read,
        "_call": call,
        "_Other": _Other,
        "_Err": _Err,
        "_ctx": _Context,
        "FLAG": True,
    }
    try:
        exec(
            compile(code, "prog.py", "exec", dont_inherit=True), space
        )  # as Python runs a module: no future import of ours
    except Exception as error:  # how it ended is part of what it did
        trace.append(f"raised {type(error).__name__}")
    return trace


class _Context:
    def __enter__(self):
        return _Other

    def __exit__(self, *exc):
        return False


def _shown(value) -> str:
    if value is _Base:
        return "base"
    if value is _Other:
        return "other"
    if isinstance(value, type):
        return f"class {value.__name__}({', '.join(_shown(b) for b in value.__bases__)})"
    if isinstance(value, list):
        return f"[{', '.join(map(_shown, value))}]"
    if callable(value):
        return f"function {value.__name__}"
    return repr(value)
