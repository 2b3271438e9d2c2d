"""``PrimitiveMap.ast_line``: the line a finding names for an ``ast`` statement of a
function (a def's: its name's) is libcst's own, whatever the layout or line ending."""

from __future__ import annotations

import ast

import libcst as cst
import pytest
from hijax_migrate.analysis.primitives import PrimitiveMap
from libcst.metadata import MetadataWrapper, PositionProvider

from golden import all_cases, read_case

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


def _check(code: str) -> int:
    """Each statement of each function: ``ast_line`` against libcst's position (counted)."""
    tree = cst.parse_module(code)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    prims = PrimitiveMap(wrapper, {}, {})
    prims.code = code
    checked = 0
    for func in ast.walk(prims.bridge.parsed):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for stmt in ast.walk(func):
            if not isinstance(stmt, ast.stmt):
                continue
            node = prims.bridge.cst_of(stmt)
            shown = node.name if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else node
            assert prims.ast_line(stmt) == positions[shown].start.line, ast.unparse(stmt)[:60]
            checked += 1
    return checked


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_odd_layouts_give_libcst_lines(newline):
    assert _check(ODD.replace("\n", newline)) > 40


@pytest.mark.parametrize("path", sorted(all_cases()), ids=lambda path: path.stem)
def test_golden_functions_give_libcst_lines(path):
    _check(read_case(path).source)
