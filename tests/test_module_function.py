"""Which function a plain call in a rule reaches (``function_names.module_function``): a
block around the call binding the name ("local"), the module's one ``def`` of it, or
"none". Explicit cases, then every call of the golden inputs and of drawn programs held
to libcst's scopes of the whole module: the answer agrees, or is a "none" where the
name is declared ``global``/``nonlocal`` (not followed) or a comprehension's ``:=`` binds
it at module level (libcst counts no binding there; Python does)."""

from __future__ import annotations

import ast
import random
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest
import rule_programs
from hypothesis import HealthCheck, given, settings
from libcst.metadata import ClassScope, MetadataWrapper, ScopeProvider

from golden import all_cases, read_case

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import program_trees  # noqa: E402
from hijax_migrate.analysis.function_names import module_function
from hijax_migrate.analysis.names import NameModel
from hijax_migrate.analysis.nodes import findall

HEAD = "def h(x):\n    pass\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (HEAD + "class C:\n    def f(self, a):\n        h(a)\n", "def"),
        ("import h\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        (HEAD + HEAD + "class C:\n    def f(self, a):\n        h(a)\n", "none"),
        ("if X:\n    def h(x):\n        pass\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        (HEAD + "class C:\n    def f(self, a, h):\n        h(a)\n", "local"),
        (HEAD + "class C:\n    h = 1\n    def f(self, a):\n        h(a)\n", "def"),  # a class body is skipped
        (HEAD + "class C:\n    def f(self, a):\n        def g():\n            h(a)\n        h = 2\n", "local"),
        (HEAD + "class C:\n    def f(self, a):\n        return [h(a) for h in a]\n", "local"),
        (HEAD + "class C:\n    def f(self, a):\n        [(h := 1) for _ in a]\n        h(a)\n", "local"),
        (HEAD + "x = [(h := 1) for _ in ()]\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        (HEAD + "x = [h for h in ()]\nclass C:\n    def f(self, a):\n        h(a)\n", "def"),  # stays inside
        (HEAD + "def g():\n    [(h := 1) for _ in ()]\nclass C:\n    def f(self, a):\n        h(a)\n", "def"),
        (HEAD + "def g():\n    global h\n    h = 1\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        (HEAD + "class C:\n    def f(self, a):\n        del h\n        h(a)\n", "def"),  # raises there
        ("async def h(x):\n    pass\ndef f(a):\n    h(a)\n", "def"),  # the caller says "async"
    ],
)
def test_which_function_a_call_reaches(source, expected):
    tree = ast.parse(textwrap.dedent(source))
    read = _calls(tree)[0]
    found = module_function(NameModel.of(tree), tree.body, read)
    assert (found if isinstance(found, str) else "def") == expected
    if not isinstance(found, str):
        assert found.name == "h" and found in tree.body


def _calls(tree: ast.Module) -> list[ast.Name]:
    """The names called as ``name(...)`` inside functions, in source order."""
    found = [
        node.func
        for func in ast.walk(tree)
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(func)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    return sorted({id(n): n for n in found}.values(), key=lambda n: (n.lineno, n.col_offset))


def libcst_answer(scopes, module: cst.Module, call: cst.Call, name: str) -> str:
    """libcst's scopes of the whole module: "local", "def" or "none"."""
    scope = scopes[call]
    while scope is not scope.globals:
        if not isinstance(scope, ClassScope) and scope.assignments[name]:
            return "local"
        scope = scope.parent
    bindings = list(scope.globals.assignments[name])
    node = bindings[0].node if len(bindings) == 1 else None
    return "def" if isinstance(node, cst.FunctionDef) and node in module.body else "none"


def check_agrees(source: str) -> tuple[int, int]:
    """Every plain call inside a function of ``source``: (agreeing, conservative "none")."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0, 0
    wrapper = MetadataWrapper(cst.parse_module(source))
    scopes, model = wrapper.resolve(ScopeProvider), NameModel.of(tree)
    theirs = {}
    for func in findall(wrapper.module, cst.FunctionDef):
        for call in findall(func, cst.Call, lambda c: isinstance(c.func, cst.Name)):
            theirs.setdefault(call, libcst_answer(scopes, wrapper.module, call, call.func.value))
    ours = [module_function(model, tree.body, read) for read in _calls(tree)]
    ours = ["def" if not isinstance(found, str) else found for found in ours]
    assert len(ours) == len(theirs), source
    agree = careful = 0
    for mine, (call, other) in zip(ours, sorted(theirs.items(), key=lambda kv: _start(wrapper, kv[0]))):
        name = call.func.value
        bound = model.bindings.get(name, ())
        if mine != other:
            assert mine != "def", (source, name)  # never a def libcst does not reach
            assert name in model.declared or any(b.scope.kind == "comprehension" for b in bound), (source, name)
            # (libcst counts a comprehension's := at module level as no binding there: it is one)
            careful += 1
        else:
            agree += 1
    return agree, careful


def _start(wrapper, node):
    from libcst.metadata import PositionProvider

    position = wrapper.resolve(PositionProvider)[node].start
    return position.line, position.column


def test_golden_inputs_agree_with_libcst():
    agree = careful = 0
    for path in all_cases():
        counts = check_agrees(read_case(path).source)
        agree, careful = agree + counts[0], careful + counts[1]
    assert agree > 100 and careful <= agree // 20  # most calls are answered, and answered alike


def test_drawn_program_trees_agree_with_libcst():
    for seed in range(40):
        tree = program_trees.draw_tree(random.Random(seed).choice, "pkg")
        for path, text in tree.files.items():
            if path.endswith(".py"):
                check_agrees(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=rule_programs.programs())
def test_generated_rule_programs_agree_with_libcst(code):
    check_agrees(code)
