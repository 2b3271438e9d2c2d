"""``PrimitiveMap.line_in``: the lines of a function's statements, and of the
nodes inside one on a single line, read from ``ast``, are libcst's own."""

from __future__ import annotations

import libcst as cst
import pytest
from hijax_migrate.analysis.nodes import findall, parents_under
from hijax_migrate.analysis.primitives import PrimitiveMap
from libcst.metadata import MetadataWrapper, PositionProvider

from golden import GOLDEN, read_case

ODD = """\
class Op(Base):
    def vjp_bwd(self, res, g, *accs):
        if g is None: return None
        elif res:
            x = f(
                accs)
            return x
        else:
            pass
        for a in accs:
            try:
                a.accum(g); b = 1; return b
            except E as e:
                raise
            else:
                continue
            finally:
                del a
            try:
                pass
            except* F:
                pass
        while \\
              g:
            with ctx() as c, other():
                return (
                    c)
        match g:
            case [1, *rest]:
                return rest
            case _:
                return {"k": 1}[
                    "k"]
        async def inner():
            async with x: return await y
            async for z in w: yield z
        class Local:
            def deep(self): return lambda: (yield)
        nonlocal_value = [i for i in range(3)]; global_name: int = 1
        assert g, "msg"
        return logs(accs)(g)
"""


def _check(code: str, always: bool = False) -> int:
    """Each node of each function: ``line_in`` gives libcst's line, or leaves
    it to positions (counted: how many ast gave)."""
    tree = cst.parse_module(code)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    prims = PrimitiveMap(wrapper, {}, {})
    prims.code = code
    taken = 0
    for func in findall(tree, cst.FunctionDef):
        if not isinstance(func, cst.FunctionDef):
            continue
        for node in parents_under(func):
            if node is func or node not in positions:
                continue
            given = prims._statement_line(node, func)
            if given is not None:
                taken += 1
                assert given == positions[node].start.line, (func.name.value, cst.Module([]).code_for_node(node))
            if always:
                assert prims.line_in(node, func) == prims.line(node)  # what it stands for, whole-module positions
    return taken


def test_odd_layouts_give_libcst_lines():
    assert _check(ODD, always=True) > 100


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_other_newlines_are_left_to_libcst(newline):
    assert _check(ODD.replace("\n", newline)) == 0


def test_a_function_ast_cannot_pair_is_left_to_libcst():
    code = "def f[T](x):\n    return x\n"  # type parameters: this ast may not read them
    _check(code, always=True)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_golden_cases(path):
    case = read_case(path)
    for code in {case.source, case.expected}:
        _check(code)
