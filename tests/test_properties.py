"""Property-based tests: generated modules of hijax primitives and
look-alikes, in varied signatures, return forms, nesting, comments and
formatting. Whatever the input: the output parses, a second run changes
nothing, nothing outside the rewritten methods changes, and classes that are
no primitives are never touched. Runnable programs (``rule_programs``) carry
the rule forms that once gave wrong gradients; a sample runs under jax."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
import rule_programs
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jax_batch import HAS_JAX_HERE

IMPORTS = "import jax.experimental.hijax as hjx\n{}from jax.experimental.hijax import VJPHiPrimitive as Base\n"
# How the old name is bound: plainly, re-exported explicitly, by jax's star import.
BASE_IMPORTS = (
    "from jax.experimental.hijax import VJPHiPrimitive\n",
    "from jax.experimental.hijax import VJPHiPrimitive as VJPHiPrimitive\n",
    "from jax.experimental.hijax import *\n",
)
BASES = ("VJPHiPrimitive", "hjx.VJPHiPrimitive", "Base")
INPUTS = ("x", "y", "z", "weights", "x_acc", "inp")
RULE_METHODS = frozenset({"vjp_fwd", "vjp_bwd", "vjp_bwd_retval"})
TARGETS = ((0, 9, 0), (0, 10, 0), (0, 11, 1), (0, 12, 0))

comments = st.sampled_from(["", "  # why", "  # " + "x" * 30])
spacing = st.sampled_from(["\n", "\n\n", "\n    # between methods\n"])


@st.composite
def cotangent(draw, i: int) -> str:
    return draw(st.sampled_from([f"g * {i + 1}", "g", f"res[{i}] * g", "None", f"-g  # d{i}"]))


@st.composite
def returns(draw, n: int) -> str:
    """The body of a backward rule returning ``n`` cotangents, some way."""
    items = [draw(cotangent(i)) for i in range(n)]
    flat = [item.split("  #")[0] for item in items]
    form = draw(st.sampled_from(["tuple", "bare", "multiline", "conditional", "nested", "name", "none"]))
    if form == "bare":
        return f"return {', '.join(flat)}{',' if n == 1 else ''}"
    if form == "multiline":  # comments after the commas: kept with the writes
        return (
            "return (\n"
            + "".join(f"    {item.replace('  #', ',  #', 1) if '#' in item else item + ','}\n" for item in items)
            + ")"
        )
    if form == "conditional":
        return f"if res is None:\n    return ({', '.join(flat)},)\nreturn ({', '.join(flat)},)"
    if form == "nested":
        return f"def inner():\n    return 1\nreturn ({', '.join(flat)},)"
    if form == "name":
        return f"ct = ({', '.join(flat)},)\nreturn ct"
    if form == "none":
        return "return None"
    return f"return ({', '.join(flat)},)"


@st.composite
def primitive(draw, name: str) -> str:
    n = draw(st.integers(1, 3))
    inputs = draw(st.lists(st.sampled_from(INPUTS), min_size=n, max_size=n, unique=True))
    nzs = ["nzs_in"] if draw(st.booleans()) else []
    sig_space = draw(st.sampled_from(["", " "]))
    fwd = (
        f"def vjp_fwd(self, {', '.join(nzs + inputs)}):{draw(comments)}\n"
        f"    return {inputs[0]}, ({', '.join(inputs)},)\n"
    )
    bwd = (
        f"def vjp_bwd({sig_space}self, res, g{sig_space}):{draw(comments)}\n"
        + textwrap.indent(draw(returns(n)), "    ")
        + "\n"
    )
    methods = [fwd, bwd]
    if draw(st.booleans()):
        methods.insert(0, f"def expand(self, {', '.join(inputs)}):\n    return {inputs[0]}\n")
    body = draw(spacing).join(textwrap.indent(m, "    ") for m in methods)
    return f"class {name}({draw(st.sampled_from(BASES))}):\n{body}"


@st.composite
def lookalike(draw, name: str) -> str:
    """Same methods, no hijax base: must never change."""
    bwd = textwrap.indent(draw(returns(draw(st.integers(1, 3)))), "        ")
    return (
        f"class {name}:{draw(comments)}\n    def vjp_fwd(self, x):\n        return x, x\n\n"
        f"    def vjp_bwd(self, res, g):\n{bwd}\n"
    )


def placed(cls: str, where: str) -> str:
    name = cls.split("(")[0].split(":")[0].removeprefix("class ")
    if where == "function":
        return f"def make():\n{textwrap.indent(cls, '    ')}\n    return {name}\n"
    if where == "class":
        return f"class Outer:\n    '''holds one'''\n\n{textwrap.indent(cls, '    ')}"
    return cls


@st.composite
def modules(draw) -> str:
    parts = [IMPORTS.format(draw(st.sampled_from(BASE_IMPORTS)))]
    for k in range(draw(st.integers(1, 4))):
        cls = draw(primitive(f"Prim{k}") if draw(st.booleans()) else lookalike(f"Tape{k}"))
        parts.append(placed(cls, draw(st.sampled_from(["top", "top", "function", "class"]))))
    parts.append("def vjp_bwd(res, g):\n    return (g,)\n")  # a module function: never touched
    return "\n\n".join(parts)


class _Hollow(cst.CSTTransformer):
    """Empties the rule methods of primitive classes (named Prim*)."""

    def __init__(self):
        super().__init__()
        self.classes: list[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node.name.value)

    def leave_ClassDef(self, original_node, updated_node):
        self.classes.pop()
        return updated_node

    def _hollowed(self, node: cst.FunctionDef) -> bool:
        return bool(self.classes) and self.classes[-1].startswith("Prim") and node.name.value in RULE_METHODS

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return not self._hollowed(node)  # its body is dropped: not walked

    def leave_FunctionDef(self, original_node, updated_node):
        return cst.parse_statement("def rule_method(): ...") if self._hollowed(original_node) else updated_node


def skeleton(code: str, renamed: bool) -> str:
    """The code less the rule methods of primitives, and less an ``import
    jax`` line (added for tree writes of values whose structure is hidden)."""
    text = cst.parse_module(code).visit(_Hollow()).code
    lines = text.splitlines(keepends=True)
    text = "".join(line for line in lines if line != "import jax\n")
    return text.replace("VJPHiPrimitive", "HiPrim") if renamed else text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=modules(), target=st.sampled_from(TARGETS), strategy=st.sampled_from(["auto", "rename", "accum"]))
def test_migration_properties(code, target, strategy):
    options = Options(target=target, strategy=strategy)
    out = migrate_source(code, options=options).code
    compile(out, "<migrated>", "exec")  # parses, as Python itself sees it
    assert migrate_source(out, options=options).code == out  # idempotent
    renamed = target >= (0, 11, 2)
    assert skeleton(out, renamed) == skeleton(code, renamed)  # only rule methods changed


@settings(max_examples=60, deadline=None)
@given(classes=st.lists(st.integers(0, 10_000).flatmap(lambda n: lookalike(f"Tape{n}")), min_size=1, max_size=4))
def test_lookalikes_alone_never_change(classes):
    code = "\n\n".join(classes)
    for target in TARGETS:
        assert migrate_source(code, options=Options(target=target)).code == code


# Runnable programs with the rule forms that once gave wrong gradients (issue 10).
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=rule_programs.programs(), strategy=st.sampled_from(["auto", "rename", "accum"]))
def test_rule_programs_migrate_or_warn(code, strategy):
    options = Options(target=(0, 10, 0), strategy=strategy)
    result = migrate_source(code, options=options)
    compile(result.code, "<migrated>", "exec")
    assert migrate_source(result.code, options=options).code == result.code  # idempotent
    if result.code == code:  # every program has a rule to port: left alone only with a warning
        assert result.report.findings and all(f.line > 0 for f in result.report.findings)


@pytest.mark.jax
@pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python (pip install jax==0.10.2)")
def test_generated_programs_give_right_gradients_under_jax(jax_010_runs):
    """A sample of generated programs (``rule_programs.sample_checks``),
    migrated in both strategies, run under jax 0.10.2 in jax_batch's process:
    the gradient is jax.grad of the plain function (under grad and jit), or
    the file is untouched with a warning."""
    batch, codes, changed, befores, afters = jax_010_runs["programs"]
    assert codes and all("error" in batch.result(before) for before in befores), (
        "a generated program already worked unmigrated"
    )
    for (_, strategy, result), position in zip(changed, afters, strict=True):
        after = batch.result(position)
        assert "error" not in after, f"{strategy}: {after['error']}\n{result.code}"
        assert after["grad"] == after["plain"] and after["jit"] == after["plain"], f"{strategy}\n{result.code}"
