"""Class bodies built from the enumeration's forms: every binding of a rule is
migrated or reported, never passed over in silence.

Each program binds ``vjp_bwd`` (a value rule, or an accumulator one) on a
primitive through statements drawn from every form of docs/decisions.md's
"Every way a rule is bound" (A: the body; B: after the class; C: a
decorator, ``__init_subclass__``). The oracle is Python, not the tool's
model: the program, migrated, is run against a stand-in for jax's hijax
module (both strategies at 0.10, and 0.12), and the rule jax would call (``vjp_bwd`` as the class's method
resolution order finds it) must take accumulators, or be the base's own
(which calls ``vjp_bwd_retval``). Where the tool reports an error, the file
must be as it was.
"""

from __future__ import annotations

import builtins
import inspect
import types

from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.rules.context import Options
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HEAD = """from jax.experimental.hijax import VJPHiPrimitive
import contextlib

_FLAG = True


def _value(self, res, g):
    return (g,)


def _acc(self, res, g, x_acc):
    x_acc.accum(g)


def _add(cls):
    cls.vjp_bwd = _value
    return cls


"""
# Statements of a class body, each binding the rule in one form ({f}: _value or _acc).
BODY = [
    "def vjp_bwd(self, res, g):\n    return (g,)",
    "def vjp_bwd(self, res, g, x_acc):\n    x_acc.accum(g)",
    "@staticmethod\ndef vjp_bwd(res, g):\n    return (g,)",
    "vjp_bwd = {f}",
    "vjp_bwd = staticmethod({f})",
    "vjp_bwd: object = {f}",
    "x, vjp_bwd = 1, {f}",
    "[vjp_bwd] = [{f}]",
    "vjp_bwd = other = {f}",
    "(vjp_bwd := {f})",
    "for vjp_bwd in ({f},):\n    pass",
    "with contextlib.nullcontext({f}) as vjp_bwd:\n    pass",
    "if _FLAG:\n    vjp_bwd = {f}",
    "if _FLAG:\n    def vjp_bwd(self, res, g):\n        return (g,)",
    "try:\n    vjp_bwd = {f}\nexcept Exception:\n    pass",
    "locals()['vjp_bwd'] = {f}",
    "vars().update(vjp_bwd={f})",
    "exec('vjp_bwd = {f}')",
    "del vjp_bwd",
    "global vjp_bwd",
    "def vjp_bwd_retval(self, res, g):\n    return (g,)",
    "pass",
    "vjp_bwd = lambda *a: (a[2],)",  # accumulators taken by ``*a``, a tuple returned
]
AFTER = [
    "",
    "P.vjp_bwd = {f}",
    "setattr(P, 'vjp_bwd', {f})",
    "type.__setattr__(P, 'vjp_bwd', {f})",
    "def _install(c):\n    setattr(c, 'vjp_bwd', {f})\n_install(P)",  # on any class a function is given
    "del P.vjp_bwd",
    "delattr(P, 'vjp_bwd')",
]
DECORATORS = ["", "@_add\n"]
BASES = ["VJPHiPrimitive", "Base"]
BASE = "class Base(VJPHiPrimitive):\n    def __init_subclass__(cls, **kw):\n        cls.vjp_bwd = {f}\n\n\n"


def _indent(code: str) -> str:
    return "".join(f"    {line}\n" for line in code.splitlines())


@st.composite
def programs(draw) -> str:
    rule = st.sampled_from(["_value", "_acc"])
    body = draw(st.lists(st.sampled_from(BODY), min_size=1, max_size=3))
    base = draw(st.sampled_from(BASES))
    code = HEAD + (BASE.format(f=draw(rule)) if base == "Base" else "")
    code += draw(st.sampled_from(DECORATORS)) + f"class P({base}):\n"
    code += "".join(_indent(stmt.format(f=draw(rule))) for stmt in body)
    return code + "\n\n" + draw(st.sampled_from(AFTER)).format(f=draw(rule)) + "\n"


class _Accum:
    def accum(self, ct):
        pass


class VJPHiPrimitive:
    """A stand-in for jax's base: its ``vjp_bwd`` calls the value rule."""

    def vjp_bwd(self, res, g, *accs):
        for acc, ct in zip(accs, self.vjp_bwd_retval(res, g)):
            acc.accum(ct)


_HIJAX = types.SimpleNamespace(VJPHiPrimitive=VJPHiPrimitive, HiPrim=VJPHiPrimitive)


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if name.startswith("jax"):
        return _HIJAX
    return builtins.__import__(name, globals, locals, fromlist, level)


def _run(code: str) -> type | None:
    """The class ``P`` the program makes (None: the program fails before jax could run it)."""
    space = {"__builtins__": {**vars(builtins), "__import__": _import}, "__name__": "program"}
    try:
        exec(compile(code, "program.py", "exec", dont_inherit=True), space)
    except Exception:
        return None
    return space.get("P")


def _works(cls: type) -> bool:
    """Does the rule jax calls, ``cls().vjp_bwd(res, g, acc)`` for one input, run?"""
    try:
        instance = cls.__new__(cls)
        result = instance.vjp_bwd(1.0, 1.0, _Accum())
    except TypeError:
        return False
    except AttributeError:  # no vjp_bwd_retval under the base's rule: not a rule the rewrite made wrong
        return "vjp_bwd_retval" not in {n for c in inspect.getmro(cls) for n in vars(c)}
    return result is None or isinstance(result, dict)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from([((0, 10, 0), "auto"), ((0, 10, 0), "accum"), ((0, 12, 0), "auto")]))
def test_every_binding_is_migrated_or_reported(code, how):
    before = _run(code)
    if before is None:
        return  # the input itself does not run: nothing to compare
    try:
        result = migrate_source(code, "program.py", Options(target=how[0], strategy=how[1]))
    except MigrationError:
        return  # refused as a whole, with its line
    errors = [f for f in result.report.findings if f.severity == "error"]
    if any(f.rule == "HJX016" for f in errors):
        assert result.code == code, "a file with an unmodelled binding stays byte-identical"
    if errors:
        return  # reported: a person ports it
    after = _run(result.code)
    assert after is not None, f"the migrated program no longer runs:\n{result.code}"
    assert _works(after), f"silent: no error, and jax's call of vjp_bwd fails after the migration\n{result.code}"
