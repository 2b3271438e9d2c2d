"""Every way Python binds a rule on a class (docs/decisions.md, "Every way a rule
is bound"), one case a form: migrated, left alone because it needs nothing, or
left byte-identical with an HJX016 error that names the form, the class and the line.

The forms are the language reference's (enumeration A: a class body's
statements; B: after the class statement; C: how a class is made; D: how an
instance's attribute is looked up, and on a base a primitive inherits), each
binding a value rule ``vjp_bwd`` (which breaks from jax 0.8.1 on) unless said.
"""

from __future__ import annotations

import ast

import pytest
from hijax_migrate.analysis import namespace as ns
from hijax_migrate.analysis.ast_summary import class_statements
from hijax_migrate.analysis.namespace_after import outside_bindings
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options

HEAD = """import contextlib
import types

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g * res,)


def _acc(self, res, g, x_acc):
    x_acc.accum(g * res)


def _gen(self, res, g):
    yield g * res


def _acc_gen(self, res, g, x_acc):
    x_acc.accum(g * res)
    yield


async def _co(self, res, g):
    return (g * res,)


def _collect(gen):
    return lambda *args: tuple(gen(*args))


"""
LINE = HEAD.count("\n") + 1  # the class statement's line


def body(*lines: str) -> str:
    return "class P(VJPHiPrimitive):\n" + "".join(f"    {line}\n" for line in lines)


MIGRATED, NOTHING = "migrated", "nothing"
PRIMITIVE = "\n\nclass P(Base, VJPHiPrimitive):\n    pass\n"  # after a base it inherits from
# (id, code after HEAD, expected: MIGRATED | NOTHING | (form as the message says it, line offset from the class))
CASES = [
    # A. statements of a class body
    ("A1 def", body("def vjp_bwd(self, res, g):", "    return (g * res,)"), MIGRATED),
    # a call of these runs none of the body (analysis/function_kinds.py): jax reads a coroutine, a generator
    ("A1 async def", body("async def vjp_bwd(self, res, g):", "    return (g * res,)"), ("an async def", 1)),
    (
        "A1 async def, accumulators",
        body("async def vjp_bwd(self, res, g, x_acc):", "    x_acc.accum(g)"),
        ("an async def", 1),
    ),
    ("A1 async def vjp_fwd", body("async def vjp_fwd(self, nzs_in, x):", "    return x, x"), ("an async def", 1)),
    (
        "A1 generator def",
        body("def vjp_bwd(self, res, g):", "    yield", "    return (g * res,)"),
        ("a generator def", 1),
    ),
    (
        "A1 generator def, accumulators",
        body("def vjp_bwd(self, res, g, x_acc):", "    x_acc.accum(g)", "    yield"),
        ("a generator def", 1),
    ),
    (
        "A1 generator def in a block",
        body("if True:", "    def vjp_bwd(self, res, g):", "        yield from ()"),
        ("a generator def inside `if`", 2),
    ),
    (
        "A1 yield in a nested def only",
        body("def vjp_bwd(self, res, g):", "    def inner():", "        yield", "    return (g * res,)"),
        MIGRATED,
    ),
    (
        "A2 @staticmethod generator def",
        body("@staticmethod", "def vjp_bwd(res, g):", "    yield g"),
        ("a generator def", 2),
    ),
    (  # a decorator may run the generator it is given (``tuple(gen(...))``): what is bound is not known
        "A2 generator def under a decorator",
        body("@_collect", "def vjp_bwd(self, res, g):", "    yield g * res"),
        MIGRATED,
    ),
    ("A1 generator vjp_fwd, unpacked by jax", body("def vjp_fwd(self, x):", "    yield x", "    yield x"), MIGRATED),
    ("A2 @staticmethod def", body("@staticmethod", "def vjp_bwd(res, g):", "    return (g * res,)"), MIGRATED),
    ("A2 @classmethod def", body("@classmethod", "def vjp_bwd(cls, res, g):", "    return (g * res,)"), MIGRATED),
    ("A3 name of a module function", body("vjp_bwd = _bwd"), MIGRATED),
    ("A3 lambda", body("vjp_bwd = lambda self, res, g: (g * res,)"), MIGRATED),
    ("A3 accumulator function", body("vjp_bwd = _acc"), NOTHING),
    ("A3 generator function", body("vjp_bwd = _gen"), ("HJX001", "`_gen`, a generator function (it yields at line")),
    ("A3 accumulator generator", body("vjp_bwd = _acc_gen"), ("HJX001", "a call of it runs none of its body")),
    ("A3 coroutine function", body("vjp_bwd = _co"), ("HJX001", "`_co`, a coroutine function (`async def`)")),
    ("A3 generator lambda", body("vjp_bwd = lambda self, res, g: (yield)"), ("HJX001", "its lambda yields")),
    ("A3 staticmethod(f)", body("vjp_bwd = staticmethod(_bwd)"), ("HJX001", "is bound to `staticmethod(_bwd)`")),
    ("A4 annotated", body("vjp_bwd: object = _bwd"), ("an annotated assignment", 1)),
    ("A4 annotation alone", body("vjp_bwd: object", "pass"), NOTHING),
    ("A5 augmented", body("vjp_bwd = _bwd", "vjp_bwd += ()"), ("an augmented assignment", 2)),
    # A6-A8 where Python binds a display's item: proven (HJX001's), else refused by HJX001
    ("A6 tuple target", body("x, vjp_bwd = 1, _bwd"), MIGRATED),
    ("A6 list target", body("[vjp_bwd] = [_bwd]"), MIGRATED),
    ("A6 starred target", body("vjp_bwd, *rest = _bwd, 1"), MIGRATED),
    ("A6 unpacking of no display", body("[vjp_bwd] = list((_bwd,))"), ("HJX001", "by an unpacking assignment whose")),
    ("A6 chained", body("vjp_bwd = other = _bwd"), MIGRATED),
    ("A6 chained, read again", body("vjp_bwd = other = _bwd", "x = vjp_bwd"), ("HJX001", "names `vjp_bwd` again")),
    ("A7 walrus", body("(vjp_bwd := _bwd)"), MIGRATED),
    ("A7 walrus in an expression", body("x = (vjp_bwd := _bwd)"), ("HJX001", "by a statement whose value")),
    ("A8 for target", body("for vjp_bwd in (_bwd,):", "    pass"), MIGRATED),
    ("A8 for over two items", body("for vjp_bwd in (_bwd, _acc):", "    pass"), ("HJX001", "by a for target whose")),
    ("A8 with target", body("with contextlib.nullcontext(_bwd) as vjp_bwd:", "    pass"), ("a with target", 1)),
    (
        "A8 except target",
        body("vjp_bwd = _bwd", "try:", "    pass", "except ValueError as vjp_bwd:", "    pass"),
        ("an except target inside `try`", 4),
    ),
    ("A8 import", body("from _rules import bwd as vjp_bwd"), ("HJX001", "is bound by an import whose function")),
    (
        "A8 match capture",
        body("match _bwd:", "    case vjp_bwd:", "        pass"),
        ("a match capture inside `match`", 2),
    ),
    ("A9 nested class", body("class vjp_bwd:", "    pass"), ("a nested class", 1)),
    ("A11 del", body("vjp_bwd = _bwd", "del vjp_bwd"), ("del", 2)),
    ("A11 del alone", body("x = 1", "del x"), NOTHING),
    ("A12 global", body("global vjp_bwd", "vjp_bwd = _bwd"), ("a global declaration", 1)),
    ("A13 assignment in if", body("if True:", "    vjp_bwd = _bwd"), ("an assignment inside `if`", 2)),
    (
        "A13 def in try",
        body("try:", "    def vjp_bwd(self, res, g):", "        return (g,)", "except Exception:", "    pass"),
        MIGRATED,
    ),
    (
        "A13 def in try, read",
        body("try:", "    def vjp_bwd(self, res, g):", "        return (g,)", "except Exception:", "    x = vjp_bwd"),
        ("HJX001", "defined inside a block"),
    ),
    ("A14 locals() store", body("locals()['vjp_bwd'] = _bwd"), ("a locals()/vars() store", 1)),
    ("A14 vars().update", body("vars().update(vjp_bwd=_bwd)"), ("a locals()/vars() store", 1)),
    ("A14 exec", body("exec('vjp_bwd = _bwd')"), ("exec", 1)),
    ("A14 __slots__", body("__slots__ = ('vjp_bwd',)"), ("a __slots__ entry", 1)),
    # B. after the class statement
    ("B1 Cls.N = f", body("pass") + "\n\nP.vjp_bwd = _bwd\n", ("an attribute assignment after the class", 4)),
    # B5: the instance's own namespace, written as a dict (the data model's ``__dict__``, ``vars(obj)``)
    *(
        (f"B5 {write}", body("def setup(self):", f"    {write}"), ("an instance attribute", 2))
        for write in (
            "self.__dict__['vjp_bwd'] = _bwd",
            "vars(self)['vjp_bwd'] = _bwd",
            "self.__dict__.update(vjp_bwd=_bwd)",
            "self.__dict__.update({'vjp_bwd': _bwd})",
            "vars(self).setdefault('vjp_bwd', _bwd)",
            "self.__dict__ |= {'vjp_bwd': _bwd}",
            "self.__dict__ = dict(vjp_bwd=_bwd)",
        )
    ),
    # jax's base copies ``self.params`` into the instance's namespace (``self.__dict__.update(self.params)``)
    *(
        (f"B5 {write}", body("def __init__(self):", f"    {write}"), ("an instance attribute", 2))
        for write in (
            "self.params = {'vjp_bwd': None}",
            "self.params = dict(vjp_fwd=None)",
            "self.params['vjp_fwd'] = _bwd",
        )
    ),
    ("B5 params of other names", body("def __init__(self, p):", "    self.params = dict(power=p)"), NOTHING),
    # a key not written out is data (the constructor's params, as jax's own base copies them)
    ("B5 update of a name", body("def setup(self, params):", "    self.__dict__.update(params)"), NOTHING),
    ("B5 another name", body("def setup(self):", "    self.__dict__['cache'] = {}"), NOTHING),
    # D: every attribute jax reads of an instance is looked up by ``type(obj).__getattribute__``
    (
        "D __getattribute__",
        body(
            "def __getattribute__(self, name):",
            "    if name == 'vjp_bwd':",
            "        return _bwd.__get__(self)",
            "    return super().__getattribute__(name)",
        ),
        ("the __getattribute__ of the class", 1),
    ),
    (  # answers every name as the default lookup does (a tracing wrapper)
        "D __getattribute__ delegating",
        body(
            "def __getattribute__(self, name):",
            "    found = super().__getattribute__(name)",
            "    print(name)",
            "    return found",
        ),
        NOTHING,
    ),
    (
        "D __getattribute__ delegating to object",
        body("def __getattribute__(self, name):", "    return object.__getattribute__(self, name)"),
        NOTHING,
    ),
    (
        "D __getattribute__ delegating, name rebound",
        body("def __getattribute__(self, name):", "    name = 'vjp_bwd'", "    return super().__getattribute__(name)"),
        ("the __getattribute__ of the class", 1),
    ),
    (
        "D __getattribute__ set after",
        body("pass") + "\n\nP.__getattribute__ = object.__getattribute__\n",
        ("an attribute assignment after the class", 4),
    ),
    (
        "D __getattribute__ by setattr",
        body("pass") + "\n\nsetattr(P, '__getattribute__', object.__getattribute__)\n",
        ("setattr", 4),
    ),
    # ``__getattr__`` is asked only for a name the class and its bases lack: jax's base has every rule
    ("D __getattr__", body("def __getattr__(self, name):", "    raise AttributeError(name)"), NOTHING),
    (
        "B1 in a function",
        body("pass") + "\n\ndef setup():\n    P.vjp_bwd = _bwd\n",
        ("an attribute assignment after the class", 5),
    ),
    ("B2 setattr literal", body("pass") + "\n\nsetattr(P, 'vjp_bwd', _bwd)\n", ("setattr", 4)),
    ("B2 setattr computed", body("pass") + "\n\nfor n in ('vjp_bwd',):\n    setattr(P, n, _bwd)\n", ("setattr", 5)),
    (
        "B3 del Cls.N",
        body("def vjp_bwd(self, res, g):", "    return (g,)") + "\n\ndel P.vjp_bwd\n",
        ("del or delattr after the class", 5),
    ),
    (
        "B3 delattr",
        body("def vjp_bwd(self, res, g):", "    return (g,)") + "\n\ndelattr(P, 'vjp_bwd')\n",
        ("del or delattr after the class", 5),
    ),
    ("B instance attribute", body("def __init__(self):", "    self.vjp_bwd = _bwd"), ("an instance attribute", 2)),
    (
        "B1 on an alias",
        body("pass") + "\n\nAlias = P\nAlias.vjp_bwd = _bwd\n",
        ("an attribute assignment after the class", 5),
    ),
    ("B another attribute", body("pass") + "\n\nP.other = _bwd\n", NOTHING),
    # B4 an object the code computes, a setter under another name, spread or handed on, code
    # run from a string: on any class, the name written out or not
    (
        "B4 a computed object",
        body("pass") + "\n\nglobals()['P'].vjp_bwd = _bwd\n",
        ("an attribute assignment after the class", 4),
    ),
    (
        "B4 a for target",
        body("pass") + "\n\nfor P.vjp_bwd in (_bwd,):\n    pass\n",
        ("an attribute assignment after the class", 4),
    ),
    (
        "B4 a with target",
        body("pass") + "\n\nwith contextlib.nullcontext(_bwd) as P.vjp_bwd:\n    pass\n",
        ("an attribute assignment after the class", 4),
    ),
    (
        "B4 a comprehension target",
        body("pass") + "\n\n[0 for P.vjp_bwd in (_bwd,)]\n",
        ("an attribute assignment after the class", 4),
    ),
    ("B4 setattr renamed", body("pass") + "\n\nput = setattr\nput(P, 'vjp_bwd', _bwd)\n", ("setattr", 5)),
    (
        "B4 setattr got by name",
        body("pass") + "\n\nput = getattr(contextlib, 'setattr', None) or setattr\nput(P, 'vjp_bwd', _bwd)\n",
        ("setattr", 5),
    ),
    (
        "B4 setattr imported renamed",
        body("pass") + "\n\nfrom builtins import setattr as put\nput(P, 'vjp_bwd', _bwd)\n",
        ("setattr", 5),
    ),
    (
        "B4 a setter of its own handed on",
        body("pass") + "\n\nput = setattr if P else None\nlist(map(put, [P], ['vjp_bwd'], [_bwd]))\n",
        ("setattr", 5),
    ),
    ("B4 setattr spread", body("pass") + "\n\nargs = (P, 'vjp_bwd', _bwd)\nsetattr(*args)\n", ("setattr", 5)),
    ("B4 setattr handed on", body("pass") + "\n\nlist(map(setattr, [P], ['vjp_bwd'], [_bwd]))\n", ("setattr", 4)),
    ("B4 exec", body("pass") + "\n\nexec('P.vjp_bwd = _bwd')\n", ("exec", 4)),
    ("B4 exec of other code", body("pass") + "\n\nexec('x = 1')\n", NOTHING),
    ("B4 a metaclass's __setattr__", body("pass") + "\n\ntype(P).__setattr__(P, 'vjp_bwd', _bwd)\n", ("setattr", 4)),
    ("B4 a bound __setattr__", body("pass") + "\n\np = P()\np.__setattr__('vjp_bwd', _bwd)\n", ("setattr", 5)),
    (
        "B4 a name of a computed value",
        body("pass") + "\n\nQ = [P][0]\nQ.vjp_bwd = _bwd\n",
        ("an attribute assignment after the class", 5),
    ),
    ("B4 a module's attribute", body("pass") + "\n\ncontextlib.vjp_bwd = _bwd\n", NOTHING),
    # C. how a class is made
    ("C2 type()", "P = type('P', (VJPHiPrimitive,), {'vjp_bwd': _bwd})\n", MIGRATED),
    ("C2 type() other rule", "P = type('P', (VJPHiPrimitive,), {'vjp_fwd': _bwd})\n", ("a type() member", 0)),
    (
        "C3 types.new_class",
        "P = types.new_class('P', (VJPHiPrimitive,), {}, lambda ns: ns.update(vjp_bwd=_bwd))\n",
        ("types.new_class", 0),
    ),
    ("C3 new_class of a plain class", "P = types.new_class('P', (object,), {})\n", NOTHING),
    (
        "C4 metaclass",
        "class Meta(type):\n    def __new__(mcs, name, bases, ns):\n        ns['vjp_bwd'] = _bwd\n"
        "        return super().__new__(mcs, name, bases, ns)\n\n\n"
        "class P(VJPHiPrimitive, metaclass=Meta):\n    pass\n",
        ("a metaclass", 2),
    ),
    (
        "C5 class decorator",
        "def add(cls):\n    cls.vjp_bwd = _bwd\n    return cls\n\n\n@add\n" + body("pass"),
        ("a class decorator", 1),
    ),
    (
        "C6 __init_subclass__",
        "class Base(VJPHiPrimitive):\n    def __init_subclass__(cls, **kw):\n"
        "        super().__init_subclass__(**kw)\n        cls.vjp_bwd = _bwd\n",
        ("the __init_subclass__ of a base", 3),
    ),
    (
        "C7 __set_name__",
        "class Rule:\n    def __set_name__(self, owner, name):\n        setattr(owner, 'vjp_bwd', _bwd)\n\n\n"
        + body("rule = Rule()"),
        ("the __set_name__ of a descriptor", 2),
    ),
    # names no rule of the target reads, and values that are jax's own
    ("batch bound after the class", body("pass") + "\n\nP.batch = _bwd\n", NOTHING),
    ("jvp in a for target", body("for jvp in (_bwd,):", "    pass"), NOTHING),
    (
        "jax's own pair",
        "from jax.experimental import hijax\n\n\n" + body("x, vjp_fwd = 1, hijax.VJPHiPrimitive.vjp_fwd"),
        NOTHING,
    ),
    (
        "a base from outside the tree",
        "from somewhere import Base\n\n\nclass P(Base):\n    vjp_bwd: object = _bwd\n",
        ("an annotated assignment", 4),
    ),
    (
        "a for target on a base from outside the tree",
        "from somewhere import Base\n\n\nclass P(Base):\n    for vjp_bwd in (_bwd,):\n        pass\n",
        ("HJX001", "is bound by a for target, and whether the class is a hijax primitive"),
    ),
    (
        "a base picked when the code runs",
        "import importlib\n\nhijax = importlib.import_module('jax.experimental.hijax')\n\n\n"
        "class P(hijax.VJPHiPrimitive):\n    vjp_bwd: object = _bwd\n",
        ("an annotated assignment", 6),
    ),
    (
        "an outside base and no hijax rule",
        "from flax import nn\n\n\nclass M(nn.Module):\n    remat: object = None\n\n\nM.dce = None\n",
        NOTHING,
    ),
    ("a plain class", "class Q:\n    vjp_bwd: object = _bwd\n\n\nQ.vjp_bwd = _bwd\n", NOTHING),
    # On a base that is no primitive, which a primitive inherits (a mixin): its rules are the primitive's.
    # Only the forms a rule decides there (``namespace.ON_BASE``: HJX001's value ``def``, HJX010's ``def dce``).
    ("on a base: an assignment", "class Base:\n    vjp_bwd = _bwd\n" + PRIMITIVE, ("an assignment", 1)),
    ("on a base: annotated", "class Base:\n    vjp_bwd: object = _bwd\n" + PRIMITIVE, ("an annotated assignment", 1)),
    (
        "on a base: after the class",
        "class Base:\n    pass\n\n\nBase.vjp_bwd = _bwd\n" + PRIMITIVE,
        ("an attribute assignment after the class", 4),
    ),
    (
        "on a base: an instance attribute",
        "class Base:\n    def setup(self):\n        self.vjp_bwd = _bwd\n" + PRIMITIVE,
        ("an instance attribute", 2),
    ),
    (
        "on a base: an old vjp_fwd",
        "class Base:\n    def vjp_fwd(self, x):\n        return x, x\n" + PRIMITIVE,
        ("a def", 1),
    ),
    (
        "on a base: a vjp_fwd taking nzs_in",
        "class Base:\n    def vjp_fwd(self, nzs_in, x):\n        return x, x\n" + PRIMITIVE,
        NOTHING,
    ),
    (
        "on a base: a value def",
        "class Base:\n    def vjp_bwd(self, res, g):\n        return (g * res,)\n" + PRIMITIVE,
        MIGRATED,
    ),
    ("on a base: an accumulator function", "class Base:\n    vjp_bwd = _acc\n" + PRIMITIVE, NOTHING),
    (  # the primitive's base picked when the code runs (namespaces --family lookups, seed 1): it may be one
        "on a base: a subclass whose base is picked at run",
        "_BASES = (VJPHiPrimitive,)\n\n\nclass Base:\n    vjp_bwd = _bwd\n\n\nclass P(Base, _BASES[0]):\n    pass\n",
        ("an assignment", 4),
    ),
    ("on a base no primitive inherits", "class Base:\n    vjp_bwd = _bwd\n\n\nclass Q(Base):\n    pass\n", NOTHING),
]


def _run(code: str, target=(0, 10, 0)):
    return migrate_source(code, "m.py", Options(target=target))


@pytest.mark.parametrize("name, code, expected", CASES, ids=[c[0] for c in CASES])
def test_each_form(name, code, expected):
    source = HEAD + code
    result = _run(source)
    errors = [f for f in result.report.findings if f.severity == "error"]
    if expected == MIGRATED:
        assert result.code != source and result.report.changes and not errors, result.report
    elif expected == NOTHING:
        assert result.code == source and not errors, result.report
    elif expected[0] == "HJX001":  # a form HJX001 decides, and refuses itself
        assert result.code == source and [f.rule for f in errors] == ["HJX001"]
        assert expected[1] in errors[0].message
    else:
        form, offset = expected
        assert result.code == source, "an unmodelled binding leaves the file byte-identical"
        assert [f.rule for f in errors] == ["HJX016"], result.report.findings
        assert errors[0].line == LINE + offset
        assert f"is bound by {form} (`" in errors[0].message
        starts = ("P: ", "Base: ", "a class made by a call: ", "`Alias` (a class of the tree): ")
        starts += (
            "an object the code computes (any class): ",
            "`Q` (a class of the tree): ",
            "`p` (a class of the tree): ",
        )
        assert errors[0].message.startswith(starts), errors[0].message


def test_a_name_no_rule_of_the_target_reads_is_no_error_there():
    """``dce`` changes at jax 0.12: bound after the class, an error there, nothing before."""
    source = HEAD + body("pass") + "\n\nP.dce = _bwd\n"
    assert not _run(source, (0, 11, 1)).report.findings
    found = _run(source, (0, 12, 0)).report.findings
    assert [(f.rule, f.severity) for f in found] == [("HJX016", "error")]


def test_other_rules_do_not_run_on_a_file_left_alone():
    """Left byte-identical: a value rule of another class in the file is not renamed either."""
    other = "class Q(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g,)\n\n\n"
    source = HEAD + other + body("vjp_bwd: object = _bwd")
    result = _run(source)
    assert result.code == source and not result.report.changes


def test_every_binding_statement_kind_of_the_grammar_is_listed():
    """Each statement kind ``ast`` has that binds a name in a class body is one
    ``namespace`` reads (the rest bind nothing, or only in a nested scope)."""
    binding = {"FunctionDef", "AsyncFunctionDef", "ClassDef", "Assign", "AnnAssign", "AugAssign", "For"}
    binding |= {"AsyncFor", "With", "AsyncWith", "Import", "ImportFrom", "Global", "Nonlocal", "Delete"}
    binding |= {"Try", "TryStar", "Match", "TypeAlias"}  # handlers' and cases' names; ``type N = ...``
    blocks = {"If", "While"}  # hold statements that bind
    binds_nothing = {"Return", "Raise", "Assert", "Pass", "Break", "Continue", "Expr"}  # ``Expr``: its walrus, exec
    kinds = {c.__name__ for c in ast.stmt.__subclasses__()}
    assert kinds <= binding | blocks | binds_nothing, kinds - binding - blocks - binds_nothing


def test_the_model_lists_each_binding_with_its_line():
    code = body("if True:", "    vjp_bwd = _bwd", "else:", "    def vjp_bwd(self, res, g):", "        pass")
    tree = ast.parse(HEAD + code)
    found = ns.body_bindings(class_statements(tree)[0])
    assert [(b.name, b.key, b.line - LINE) for b in found] == [
        ("vjp_bwd", ns.ASSIGN + ns.IN_BLOCK, 2),
        ("vjp_bwd", ns.DEF + ns.IN_BLOCK, 4),
    ]
    tree = ast.parse(HEAD + body("pass") + "\n\nsetattr(P, 'vjp_fwd', _bwd)\n")
    assert [(i, b.name, b.form) for i, b in outside_bindings(tree, class_statements(tree))] == [
        (0, "vjp_fwd", ns.SETATTR)
    ]


REBOUND = [
    (
        "an accumulator def, then a value assignment",
        body("def vjp_bwd(self, res, g, x_acc):", "    pass", "vjp_bwd = _bwd"),
    ),
    (
        "an assignment, then a def in an if",
        body("vjp_bwd = _bwd", "if True:", "    def vjp_bwd(self, res, g):", "        pass"),
    ),
    ("two assignments", body("vjp_bwd = _bwd", "vjp_bwd = _bwd")),
]


@pytest.mark.parametrize("name, code", REBOUND, ids=[c[0] for c in REBOUND])
def test_a_rule_bound_again_in_another_form_is_an_error(name, code):
    """Found by test_bind_props: each rule follows one binding, and the other came back to life."""
    source = HEAD + code
    result = _run(source)
    errors = [f for f in result.report.findings if f.severity == "error"]
    assert result.code == source and [f.rule for f in errors] == ["HJX016"]
    assert "`vjp_bwd` is bound 2 times in the class body" in errors[0].message


def test_two_definitions_under_accum_keep_the_earlier_dead():
    """Found by test_bind_props: renaming the last of two ``def vjp_bwd`` brought the first back."""
    code = body("def vjp_bwd(self, res, g):", "    return (g,)", "def vjp_bwd(self, res, g):", "    return (g,)")
    code += "\n\ndef use(op):\n    return op.vjp_bwd(1, 2)\n"
    result = migrate_source(HEAD + code, "m.py", Options(target=(0, 10, 0), strategy="accum"))
    assert result.code == HEAD + code
    assert any("defined twice" in f.message and f.severity == "error" for f in result.report.findings)


def test_the_words_hjx016_needs_name_every_binding_the_rules_decide():
    """A file that binds a decided name names one of the rule's words as the pre-filter
    reads names (whole): ``vjp_bwd`` is no word of ``vjp_bwd_retval_logs``, and a subclass
    of a base from another module names no base (``P.remat = f`` after it)."""
    from hijax_migrate.engine.triage import every_word
    from hijax_migrate.rules.base import decided_bindings
    from hijax_migrate.rules.registry import all_rules
    from hijax_migrate.rules.unmodelled_bindings import RULE, WORDS
    from hijax_migrate.sources.files import named_words

    assert "HiPrim" in WORDS
    for name in decided_bindings(all_rules()):
        for code in (f"P.{name} = f\n", f"setattr(P, '{name}', f)\n", f"class P(Base):\n    {name}: T = f\n"):
            assert RULE.needed(code, named_words(code.encode(), every_word())), code


def test_an_error_marked_as_checked_leaves_the_rest_to_the_rules():
    """``# noqa: HJX016`` on the binding: the rest of the file is migrated, as with any rule's error."""
    other = "class Q(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g,)\n\n\n"
    source = HEAD + other + body("vjp_bwd: object = _bwd  # noqa: HJX016")
    result = _run(source)
    assert "def vjp_bwd_retval(self, res, g):" in result.code
    assert [f.severity for f in result.report.findings if f.rule == "HJX016"] == ["suppressed"]


def test_a_rule_bound_on_another_modules_class(tmp_path, capsys):
    """B1/B2 on a class imported from another module of the tree: an error at the binding."""
    from hijax_migrate.cli import main

    (tmp_path / "prims.py").write_text(HEAD + body("pass"))
    user = "from prims import P, _bwd\n\nP.vjp_bwd = _bwd\nsetattr(P, 'vjp_fwd', _bwd)\n"
    user += "other = None\nother.vjp_bwd = _bwd\n"
    (tmp_path / "user.py").write_text(user)
    assert main(["--check", "--target-jax", "0.10", "--no-cache", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "user.py:3: HJX016 `P` (a class of the tree): `vjp_bwd` is bound by an attribute assignment" in err
    assert "user.py:4: HJX016 `P` (a class of the tree): `vjp_fwd` is bound by setattr" in err
    assert "user.py:6" not in err  # an object whose class the tree does not tell
    assert (tmp_path / "user.py").read_text() == user


def test_a_base_in_another_module_that_a_primitive_inherits(tmp_path, monkeypatch, capsys):
    """The mixin's module is checked alone, or with the tree: the subclass in another module is
    found by the tree's search, and the mixin's binding no rule follows is the error."""
    from hijax_migrate.cli import main

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mixins.py").write_text(
        HEAD.split("from jax")[0] + HEAD.split("\n\n\n", 1)[1] + "class Base:\n    vjp_bwd = _bwd\n"
    )
    prims = "from jax.experimental.hijax import VJPHiPrimitive\nfrom pkg.mixins import Base\n" + PRIMITIVE
    (tmp_path / "pkg" / "prims.py").write_text(prims)
    monkeypatch.chdir(tmp_path)
    for named in (["pkg"], ["pkg/mixins.py"]):
        assert main(["--check", "--target-jax", "0.10", "--jobs", "1", "--no-cache", *named]) == 1
        out = capsys.readouterr()
        assert (
            "mixins.py:" in out.out + out.err
            and "HJX016 Base: `vjp_bwd` is bound by an assignment" in out.out + out.err
        )
    (tmp_path / "pkg" / "prims.py").write_text(prims.replace("(Base, VJPHiPrimitive)", "(Base)"))
    assert main(["--check", "--target-jax", "0.10", "--jobs", "1", "--no-cache", "pkg"]) == 0, (
        "no primitive inherits it"
    )
