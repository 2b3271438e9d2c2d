"""Every golden output is Python that CPython compiles, and keeps every name
its input bound wherever the output still uses it (a rename that leaves a
use behind is a NameError at run time)."""

from __future__ import annotations

import ast

import pytest

from golden import all_cases, read_case


def bound_and_used(tree: ast.AST) -> tuple[set[str], set[str]]:
    bound, used = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return bound, used


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: p.stem)
def test_output_compiles_and_keeps_names(path):
    case = read_case(path)
    try:
        before = ast.parse(case.source)
    except SyntaxError:
        pytest.skip("syntax newer than this Python")
    after = ast.parse(case.expected)
    compile(after, str(path), "exec")
    bound_before, _ = bound_and_used(before)
    bound_after, used_after = bound_and_used(after)
    lost = {name for name in used_after & bound_before if name not in bound_after}
    assert not lost, f"used but no longer bound: {sorted(lost)}"
