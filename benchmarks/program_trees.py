"""Realistic hijax program trees, drawn at random: the generator the
refusal benchmark (``refusals.py``) and the tests share.

A tree is a package with a primitive, perhaps a subclass of it in another
file, a ``main`` module that takes its gradient, and look-alike code the tool
must not be thrown by: a quantizer's own ``vjp_bwd`` protocol called on
itself, unrelated classes calling ``super().vjp_bwd(res, g)``, debugging
helpers taking a rule as a value. The primitive is linear, ``sum(c_i * x_i)``,
so every program knows its gradient (``EXPECTED``) without running it.

Every choice goes through ``pick(options)``: ``random.Random(seed).choice``
for the benchmark, a hypothesis ``draw`` for tests, so a test can produce
any tree the benchmark can.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

PRIM_HEAD = '''from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum

COEFS = {coefs}


class Lin(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval,) * {n}
        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, {params}):
        return {out}

    def vjp_fwd(self, nzs_in, {params}):
        return self.expand({params}), None

'''

MAIN = '''import jax
import jax.numpy as jnp

from {pkg}.ops.{module} import {cls}

ARGS = ({args},)
ARGNUMS = {argnums}
EXPECTED = {expected}


def f({params}):
    return jnp.sum({cls}(jax.typeof(x0))({params}))
'''

LOOK_ALIKES = {
    "quantizer": '''class QuantOp:
    """Not a hijax primitive: a quantization library's own protocol."""

    def vjp_fwd(self, x):
        return x, None

    def vjp_bwd(self, res, g):
        return g, None

    def grad(self, res, g):
        return self.vjp_bwd(res, g)
''',
    "unrelated_super": '''class Logger:
    def vjp_bwd(self, _res, g):
        return (g,)


class Verbose(Logger):
    def vjp_bwd(self, _res, g):
        print("backward")
        return super().vjp_bwd(_res, g)
''',
    "debug_value": '''def debug(prim, res, g):
    rule = prim.vjp_bwd
    return rule


def trace_rule(obj):
    return getattr(obj, "vjp_bwd", None)
''',
    "two_argument_call": '''def replay(op, res, g):
    return op.vjp_bwd(res, g)
''',
}

SUBCLASS_SPELLINGS = {
    "plain": "from .prims import Lin\n\n\nclass Sub(Lin):\n",
    "attribute": "from . import prims\n\n\nclass Sub(prims.Lin):\n",
    "form_feed": "from .prims import Lin\n\n\n\fclass Sub(Lin):\n",
    "continued": "from .prims import Lin\n\n\nclass \\\n        Sub(Lin):\n",
    "alias": "from . import prims\n\nBase = prims.Lin\n\n\nclass Sub(Base):\n",
}

SUBCLASS_BODIES = {
    "super": "    def vjp_bwd(self, res, g):\n        return super().vjp_bwd(res, g)\n",
    "super_explicit": "    def vjp_bwd(self, res, g):\n        return super(Sub, self).vjp_bwd(res, g)\n",
    "inherits": "    pass\n",
}


@dataclass
class Tree:
    """Files by path (relative to the tree's folder) and what they mean."""

    files: dict[str, str] = field(default_factory=dict)
    forms: list[str] = field(default_factory=list)  # what was drawn, for the report
    since: str = "0.8.1"  # the oldest jax the program is valid for once migrated (logs: 0.11.1)


def newer(version: str, target: str) -> bool:
    as_tuple = lambda text: tuple(int(part) for part in text.split("."))  # noqa: E731
    return as_tuple(version) > as_tuple(target)


def tuple_of(items: list[str]) -> str:
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def value_rule(pick, cts: list[str]) -> tuple[str, str]:
    """A ``vjp_bwd(self, res, g)`` returning the cotangents, some way."""
    form = pick(["tuple", "bare", "list", "comprehension", "conditional", "call", "generator"])
    n = len(cts)
    body = {
        "tuple": f"return {tuple_of(cts)}",
        "bare": f"return {', '.join(cts)}{',' if n == 1 else ''}",
        "list": f"return [{', '.join(cts)}]",
        "comprehension": f"return [COEFS[i] * g for i in range({n})]",
        "conditional": f"return {tuple_of(cts)} if g is not None else {tuple_of(['None'] * n)}",
        "call": "return self._cts(g)",
        "generator": f"return tuple(COEFS[i] * g for i in range({n}))",
    }[form]
    return f"def vjp_bwd(self, res, g):\n    {body}\n", f"value:{form}"


def half_port(pick, cts: list[str]) -> tuple[str, str]:
    """Accumulators taken, some written, the cotangents still returned (some or all)."""
    n = len(cts)
    accs = [f"x{i}_acc" for i in range(n)]
    lines, returned, uses = [], [], []
    if pick([False, True]):
        lines += [f"if {' and '.join(f'isinstance({a}, NullAccum)' for a in accs)}:", "    return None"]
        uses.append("null_exit")
    for acc, ct in zip(accs, cts):
        use = pick(["returned", "written", "both_arms", "helper"])
        uses.append(use)
        if use == "returned":
            returned.append(ct)
            continue
        if use == "written":
            lines.append(f"{acc}.accum({ct})")
        elif use == "both_arms":
            lines += ["if g is not None:", f"    {acc}.accum({ct})", "else:", f"    {acc}.accum(None)"]
        else:
            lines.append(f"self._write({acc}, {ct})")
        returned.append("None")
    lines.append(f"return {tuple_of(returned)}")
    body = textwrap.indent("\n".join(lines), "    ")
    return f"def vjp_bwd(self, res, g, {', '.join(accs)}):\n{body}\n", "half:" + "+".join(uses)


def accum_rule(pick, cts: list[str]) -> tuple[str, str]:
    """A valid accumulator rule: writes (directly or through a helper), returns None or logs."""
    n = len(cts)
    how = pick(["direct", "helper_all", "star"])
    ret = pick(["None", '{"norm": g}'])
    if how == "star":
        lines = [f"assert len(arg_accums) == {n}"] + [f"arg_accums[{i}].accum({ct})" for i, ct in enumerate(cts)]
        sig = "*arg_accums"
    else:
        accs = [f"x{i}_acc" for i in range(n)]
        sig = ", ".join(accs)
        lines = ([f"{a}.accum({ct})" for a, ct in zip(accs, cts)] if how == "direct"
                 else [f"_write_all(({', '.join(accs)}{',' if n == 1 else ''}), {tuple_of(cts)})"])
    lines.append(f"return {ret}")
    body = textwrap.indent("\n".join(lines), "    ")
    return f"def vjp_bwd(self, res, g, {sig}):\n{body}\n", f"accum:{how}:{'logs' if ret != 'None' else 'none'}"


HELPERS = '''

def _write_all(accs, cts):
    for acc, ct in zip(accs, cts):
        acc.accum(ct)
'''

SCALING_DECORATOR = '''import functools


def halved(rule):
    """Post-processes the returned cotangents: the gradient is halved."""
    @functools.wraps(rule)
    def wrapper(self, res, g):
        return tuple(None if ct is None else 0.5 * ct for ct in rule(self, res, g))
    return wrapper


'''


def primitive_module(pick, coefs: list[int]) -> tuple[str, list[str], float]:
    """The primitive's module, the forms drawn, and the factor on its gradient."""
    n = len(coefs)
    cts = ["None" if c == 0 else pick([f"{c} * g", f"COEFS[{i}] * g", f"g * {c}"]) for i, c in enumerate(coefs)]
    kind = pick(["value", "value", "half", "accum", "decorated"])
    scale = 1.0
    if kind == "half":
        rule, form = half_port(pick, cts)
    elif kind == "accum":
        rule, form = accum_rule(pick, cts)
    else:
        rule, form = value_rule(pick, cts)
        if kind == "decorated":
            rule, form, scale = "@halved\n" + rule, "decorated:" + form, 0.5
    params = ", ".join(f"x{i}" for i in range(n))
    out = " + ".join(f"{c} * x{i}" for i, c in enumerate(coefs))
    head = PRIM_HEAD.format(coefs=tuple_of([str(c) for c in coefs]), n=n, params=params, out=out)
    if kind == "decorated":
        head = SCALING_DECORATOR + head
    methods = [rule,
               f"def _cts(self, g):\n    return {tuple_of(cts)}\n",
               "def _write(self, acc, ct):\n    acc.accum(ct)\n"]
    body = "\n".join(textwrap.indent(m, "    ") for m in methods)
    return head + body + HELPERS, [form], scale


def draw_tree(pick, pkg: str) -> Tree:
    """One program tree under the package ``pkg``."""
    n = pick([1, 2, 3])
    coefs = [pick([0, 1, 2, 3]) for _ in range(n)]
    if not any(coefs):
        coefs[0] = 1
    prims, forms, scale = primitive_module(pick, coefs)
    tree = Tree({f"{pkg}/__init__.py": "", f"{pkg}/ops/__init__.py": "", f"{pkg}/ops/prims.py": prims}, forms,
                "0.11.1" if forms[0].endswith(":logs") else "0.8.1")
    module, cls = "prims", "Lin"
    if pick([False, True]) and not forms[0].startswith(("accum", "half")):
        spelling, body = pick(sorted(SUBCLASS_SPELLINGS)), pick(sorted(SUBCLASS_BODIES))
        tree.files[f"{pkg}/ops/sub.py"] = SUBCLASS_SPELLINGS[spelling] + SUBCLASS_BODIES[body]
        tree.forms.append(f"subclass:{spelling}:{body}")
        module, cls = "sub", "Sub"
    for name in sorted(LOOK_ALIKES):
        if pick([False, True]):
            tree.files[f"{pkg}/other/{name}.py"] = LOOK_ALIKES[name]
            tree.forms.append(f"look-alike:{name}")
    if any(path.startswith(f"{pkg}/other/") for path in tree.files):
        tree.files[f"{pkg}/other/__init__.py"] = ""
    params = ", ".join(f"x{i}" for i in range(n))
    expected = [[scale * c] * 3 for c in coefs]
    tree.files[f"{pkg}/main.py"] = MAIN.format(pkg=pkg, module=module, cls=cls, params=params,
                                               args=", ".join(["jnp.array([1.0, 2.0, 3.0])"] * n),
                                               argnums=tuple(range(n)), expected=expected)
    return tree
