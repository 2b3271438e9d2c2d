"""Runnable hijax programs whose backward rules take every form that once
gave wrong gradients: half-ports with each kind of accumulator use, returns in
try/except/finally and with, defaulted extra parameters, variadic and pytree
inputs, rules called as values, ``g=None``.

The primitive is linear, ``out = sum(c_i * x_i)``; each program also defines
``plain``, the same function without the primitive, so that a run under jax
compares ``grad(f)`` with ``grad(plain)``.
"""

from __future__ import annotations

import textwrap

from hypothesis import strategies as st

HEAD = """import contextlib

import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum

COEFS = {coefs}


class Lin(VJPHiPrimitive):
    def __init__(self, aval):
{avals}        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, {params}):
        return {out}

    def vjp_fwd(self, nzs_in, {params}):
        return self.expand({args}), None

    def _ct(self, i, g):
        if i == {raise_at}:
            raise NotImplementedError
        return COEFS[i] * g

    def _write(self, acc, ct):
        acc.accum(ct)

"""

FOOT = """

def f({names}):
    return jnp.sum({cls}(jax.typeof({first}))({names}))


def plain({names}):
    return jnp.sum({out})


ARGS = {values}
ARGNUMS = {argnums}
"""

VALUE = "jnp.array([1.0, 2.0, 3.0])"


def block(body: str, indent: int = 8) -> str:
    return textwrap.indent(textwrap.dedent(body).strip("\n"), " " * indent) + "\n"


@st.composite
def cotangents(draw, coefs: list[int], pytree: bool) -> list[str]:
    """One expression per input (for a pytree input: a dict literal or a name)."""
    if pytree:
        dict_ct = "{" + ", ".join(f'"{k}": {c} * g' for k, c in zip("ab", coefs)) + "}"
        return [draw(st.sampled_from([dict_ct, "cts_dict"]))]
    forms = [lambda i, c: f"{c} * g", lambda i, c: f"COEFS[{i}] * g", lambda i, c: f"g * {c}"]
    return ["None" if c == 0 else draw(st.sampled_from(forms))(i, c) for i, c in enumerate(coefs)]


def tuple_of(items: list[str]) -> str:
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


@st.composite
def value_returns(draw, cts: list[str], n: int, variadic: bool, pytree: bool) -> str:
    """A body returning the cotangents, some way."""
    forms = ["tuple", "bare", "name", "conditional", "with", "finally", "starred"]
    form = draw(st.sampled_from(forms if pytree else [*forms, "try", "generator"]))
    literal = tuple_of(cts)
    if form == "bare":
        return f"return {', '.join(cts)}{',' if n == 1 else ''}"
    if form == "name":
        return f"cts = {literal}\nreturn cts"
    if form == "conditional":
        return f"if g is None:\n    return None\nreturn {literal}"
    if form == "try":  # the first try raises at some input: nothing may be written twice
        raising = tuple_of([ct if ct == "None" else f"self._ct({i}, g)" for i, ct in enumerate(cts)])
        return f"try:\n    return {raising}\nexcept NotImplementedError:\n    return {literal}"
    if form == "with":
        return f"with contextlib.nullcontext():\n    return {literal}"
    if form == "finally":
        return f"try:\n    return {literal}\nfinally:\n    pass"
    if form == "generator":
        count = "len(COEFS)" if variadic else str(n)
        return f"return tuple(COEFS[i] * g for i in range({count}))"
    if form == "starred":
        return f"cts = [{', '.join(cts)}]\nreturn (*cts,)"
    return f"return {literal}"


@st.composite
def classic_rule(draw, cts: list[str], n: int, variadic: bool, pytree: bool) -> str:
    sig = draw(st.sampled_from(["res, g", "res, g, verbose=False", "res, g, *, scale=1", "res, g=None"]))
    body = draw(value_returns(cts, n, variadic, pytree))
    return f"def vjp_bwd(self, {sig}):\n" + textwrap.indent(body, "    ")


@st.composite
def half_ported_rule(draw, cts: list[str], n: int, pytree: bool) -> str:
    """Accumulators there, cotangents still returned; each accumulator used some way."""
    star = draw(st.booleans())
    accs = [f"arg_accums[{i}]" for i in range(n)] if star else [f"x{i}_acc" for i in range(n)]
    sig = "*arg_accums" if star else ", ".join(accs)
    lines = []
    if star and draw(st.booleans()):
        lines.append(f"assert len(arg_accums) == {n}")
    if draw(st.booleans()):  # an early exit for inputs not differentiated: an inspection
        lines += [f"if {' and '.join(f'isinstance({a}, NullAccum)' for a in accs)}:", "    return None"]
    returned = []
    for acc, ct in zip(accs, cts):
        uses = ["returned", "returned", "written", "written_none", "handed_on", "maybe"]
        use = draw(st.sampled_from(uses[:1] if pytree else uses))  # a dict is written leaf by leaf
        if ct == "None" or use == "returned":
            returned.append(ct)
            continue
        write = f"self._write({acc}, {ct})" if use == "handed_on" else f"{acc}.accum({ct})"
        lines += ["if g is not None:", f"    {write}"] if use == "maybe" else [write]
        returned.append("None" if use == "written_none" else ct)
    lines.append(f"return {tuple_of(returned)}")
    return f"def vjp_bwd(self, res, g, {sig}):\n" + textwrap.indent("\n".join(lines), "    ")


@st.composite
def programs(draw) -> str:
    shape = draw(st.sampled_from(["named", "named", "variadic", "pytree"]))
    n = 1 if shape == "pytree" else draw(st.integers(1, 3))
    coefs = draw(
        st.lists(st.integers(0, 3), min_size=2 if shape == "pytree" else n, max_size=2 if shape == "pytree" else n)
    )
    cts = draw(cotangents(coefs, shape == "pytree"))
    kind = draw(st.sampled_from(["classic", "half"] if shape != "variadic" else ["classic"]))
    rule = draw(
        classic_rule(cts, n, shape == "variadic", shape == "pytree")
        if kind == "classic"
        else half_ported_rule(cts, n, shape == "pytree")
    )
    if "cts_dict" in rule:
        rule = rule.replace(
            ":\n", ":\n    cts_dict = {" + ", ".join(f'"{k}": {c} * g' for k, c in zip("ab", coefs)) + "}\n", 1
        )
    names = ["xs"] if shape == "pytree" else [f"x{i}" for i in range(n)]
    if shape == "pytree":
        out = " + ".join(f'{c} * xs["{k}"]' for k, c in zip("ab", coefs))
        literal = draw(st.booleans())
        avals = (
            '        self.in_avals = ({"a": aval, "b": aval},)\n'
            if literal
            else '        avals = {"a": aval, "b": aval}\n        self.in_avals = (avals,)\n'
        )
        values = f'({{"a": {VALUE}, "b": {VALUE}}},)'
        first = 'xs["a"]'
    else:
        out = " + ".join(f"{c} * x{i}" for i, c in enumerate(coefs))
        avals = f"        self.in_avals = (aval,) * {n}\n"
        values = "(" + ", ".join([VALUE] * n) + ",)"
        first = "x0"
    params = "*xs" if shape == "variadic" else ", ".join(names)
    expand_out = " + ".join(f"{c} * xs[{i}]" for i, c in enumerate(coefs)) if shape == "variadic" else out
    head = HEAD.format(
        coefs=tuple_of([str(c) for c in coefs]),
        avals=avals,
        params=params,
        out=expand_out,
        args="*xs" if shape == "variadic" else ", ".join(names),
        raise_at=draw(st.integers(0, n)),
    )
    text = head + textwrap.indent(rule, "    ") + "\n"
    cls = "Lin"
    if kind == "classic" and "g=None" not in rule and draw(st.booleans()):  # the rule called as a value
        call = draw(st.sampled_from(["super().vjp_bwd(res, g)", "Lin.vjp_bwd(self, res, g)"]))
        text += f"\n\nclass Sub(Lin):\n    def vjp_bwd(self, res, g):\n        return {call}\n"
        cls = "Sub"
    argnums = draw(st.sampled_from([(0,), tuple(range(len(names)))] if len(names) > 1 else [(0,)]))
    return text + FOOT.format(names=", ".join(names), cls=cls, first=first, out=out, values=values, argnums=argnums)


def sample_checks(batch) -> dict:
    """A sample of programs (``HIJAX_JAX_PROGRAMS``, 20 by default), migrated at
    0.10 in both strategies, for jax_batch's 0.10.2 process to run:
    {"programs": (batch, codes, [(code, strategy, result) changed], positions before, after)}.
    test_properties reads it."""
    import os

    from hijax_migrate.engine.engine import migrate_source
    from hijax_migrate.rules.context import Options
    from hypothesis import HealthCheck, given, settings

    codes: list[str] = []

    @settings(
        max_examples=int(os.environ.get("HIJAX_JAX_PROGRAMS", "20")),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(code=programs())
    def collect(code):
        codes.append(code)

    collect()
    codes = list(dict.fromkeys(codes))
    migrated = [
        (code, strategy, migrate_source(code, options=Options(target=(0, 10, 0), strategy=strategy)))
        for code in codes
        for strategy in ("auto", "accum")
    ]
    changed = [(code, strategy, result) for code, strategy, result in migrated if result.code != code]
    befores = [batch.module(code) for code in codes]
    afters = [batch.module(result.code) for _, _, result in changed]
    return {"programs": (batch, codes, changed, befores, afters)}
