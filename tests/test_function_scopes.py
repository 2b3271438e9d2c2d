"""A function's scopes alone (analysis/function_scopes.py) answer as the whole
module's ScopeProvider does, for every function of every golden input and of
generated programs: each node's scope being the function's own or not, each
name's bindings in the function and who reads them, what the accumulator
analysis makes of each parameter, and which function a plain call reaches.
Where a form could make them differ, the whole module's scopes answer."""

from __future__ import annotations

import ast
import functools
import random
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest
import rule_programs
from hypothesis import HealthCheck, given, settings
from libcst.metadata import MetadataWrapper, ScopeProvider

from golden import all_cases, read_case

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import program_trees  # noqa: E402
from hijax_migrate.analysis.accum_uses import Unknown, Uses
from hijax_migrate.analysis.function_scopes import FunctionScopes, scopes_alone, whole_module_function
from hijax_migrate.analysis.names import NameModel
from hijax_migrate.analysis.nodes import findall, parents_under


def _model(source: str) -> NameModel | None:
    try:
        return NameModel.of(ast.parse(source))
    except SyntaxError:
        return None


def _bindings(scope) -> dict[str, dict[int, set[int]]]:
    """name -> id(binding node) -> ids of the nodes reading it."""
    found: dict[str, dict[int, set[int]]] = {}
    for assignment in scope.assignments:
        found.setdefault(assignment.name, {})[id(assignment.node)] = {id(r.node) for r in assignment.references}
    return found


def _uses(func, scopes, parents) -> dict[str, object]:
    """What ``Uses`` makes of each parameter: its writes and calls, or the reason it cannot tell."""
    answers = {}
    for param in [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]:
        try:
            acc = Uses(func, scopes, parents).named(param.name.value)
            answers[param.name.value] = ([id(w) for w in acc.writes], [id(h.call) for h in acc.handed])
        except Unknown as unknown:
            answers[param.name.value] = (str(unknown), id(unknown.node))
    return answers


@functools.cache  # a text is checked once a process: the drawn trees share many of their files
def check_agrees(source: str) -> tuple[int, int]:
    """Every function of ``source``: its own scopes against the module's; (answered alone, fell back)."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    module, whole = wrapper.module, wrapper.resolve(ScopeProvider)
    scopes, parents = FunctionScopes(wrapper, _model(source)), parents_under(module)
    alone = 0
    for func in findall(module, cst.FunctionDef):
        if scopes.alone_agrees(func):
            alone += 1
            small = scopes.of(func)  # scopes_alone(func), made once: module_function below reads it too
            assert small is not whole, func.name.value
            own, whole_own = small[func.body], whole[func.body]
            for node in parents_under(func):
                assert (small.get(node) is own) == (whole.get(node) is whole_own), (func.name.value, node)
            assert _bindings(own) == _bindings(whole_own), func.name.value
            assert _uses(func, small, parents) == _uses(func, whole, parents), func.name.value
        for call in findall(func, cst.Call, lambda c: isinstance(c.func, cst.Name)):
            name = call.func.value
            assert scopes.module_function(call, func, name) == whole_module_function(whole, module, call, name)
    return alone, scopes.fallbacks


def test_golden_inputs_answer_alone_as_the_whole_module():
    alone = fell_back = 0
    for path in all_cases():
        counts = check_agrees(read_case(path).source)
        alone, fell_back = alone + counts[0], fell_back + counts[1]
    assert alone > 200 and fell_back < alone  # most functions are answered alone: the test is not empty


def test_drawn_program_trees_answer_alone_as_the_whole_module():
    for seed in range(60):
        tree = program_trees.draw_tree(random.Random(seed).choice, "pkg")
        for path, text in tree.files.items():
            if path.endswith(".py"):
                check_agrees(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=rule_programs.programs())
def test_generated_rule_programs_answer_alone_as_the_whole_module(code):
    check_agrees(code)


# Each form where libcst's visit of a function reads outside it; the second
# source shows the answers alone would differ, so the whole module's answer.
OUTSIDE = {
    "global": "x = 1\ndef f(a):\n    global x\n    x = a\n",
    "nonlocal": "def g():\n    x = 1\n    def f(a):\n        nonlocal x\n        x = a\n",
    "type parameters": "def f[T](a: T):\n    return a\n",
    "cast": "from typing import cast\ndef f(a):\n    return cast('a', a)\n",
    "NewType": "from typing import NewType as N\ndef f(a):\n    return N(a, int)\n",
    "typing subscript": "from typing import Optional\ndef f(a):\n    return Optional['a']\n",
    "dotted import": "import a.accum\ndef f(a):\n    a.accum(1)\n",
    "Literal": "from typing import Literal\ndef f(a):\n    x: Literal['a'] = 1\n",
}


@pytest.mark.parametrize("form", sorted(OUTSIDE))
def test_forms_reading_outside_the_function_fall_back(form):
    source = OUTSIDE[form]
    wrapper = MetadataWrapper(cst.parse_module(source))
    scopes = FunctionScopes(wrapper, _model(source))
    func = [f for f in findall(wrapper.module, cst.FunctionDef) if f.name.value == "f"][0]
    assert not scopes.alone_agrees(func)
    assert scopes.of(func) is scopes.whole()
    check_agrees(source)


@pytest.mark.parametrize("form", ["cast", "NewType", "typing subscript", "dotted import", "Literal"])
def test_those_forms_would_differ_alone(form):
    """Why they fall back: libcst's scopes of the function alone see another reader of ``a``."""
    wrapper = MetadataWrapper(cst.parse_module(OUTSIDE[form]))
    whole = wrapper.resolve(ScopeProvider)
    func = [f for f in findall(wrapper.module, cst.FunctionDef) if f.name.value == "f"][0]
    assert _bindings(scopes_alone(func)[func.body]) != _bindings(whole[func.body])


def test_what_stands_around_the_body_is_answered_alone():
    """Decorators, defaults and annotations are read in the scope around the function, by both."""
    source = (
        "from typing import Literal, Optional, cast\nimport a.b\n"
        "@cast('a', a.b)\ndef f(a: Optional['a'], b: Literal['a'] = a.b) -> Optional['a']:\n    return a\n"
    )
    wrapper = MetadataWrapper(cst.parse_module(source))
    scopes = FunctionScopes(wrapper, _model(source))
    func = findall(wrapper.module, cst.FunctionDef)[0]
    assert scopes.alone_agrees(func)
    assert check_agrees(source) == (1, 0)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def h(x):\n    pass\nclass C:\n    def f(self, a):\n        h(a)\n", "def"),
        ("import h\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        ("def h(x):\n    pass\ndef h(x):\n    pass\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        ("if X:\n    def h(x):\n        pass\nclass C:\n    def f(self, a):\n        h(a)\n", "none"),
        ("def h(x):\n    pass\nclass C:\n    def f(self, a, h):\n        h(a)\n", "local"),
        ("def h(x):\n    pass\nclass C:\n    h = 1\n    def f(self, a):\n        h(a)\n", "def"),  # a class scope
        (
            "def h(x):\n    pass\nclass C:\n    def f(self, a):\n        def g():\n            h(a)\n        h = 2\n",
            "local",
        ),
        ("def h(x):\n    pass\nclass C:\n    def f(self, a):\n        return [h(a) for h in a]\n", "local"),
        ("def h(x):\n    pass\nx = [(h := 1) for _ in ()]\nclass C:\n    def f(self, a):\n        h(a)\n", "def"),
    ],
)
def test_which_function_a_call_reaches(source, expected):
    wrapper = MetadataWrapper(cst.parse_module(textwrap.dedent(source)))
    scopes = FunctionScopes(wrapper, _model(source))
    func = [f for f in findall(wrapper.module, cst.FunctionDef) if f.name.value == "f"][0]
    call = findall(func, cst.Call, lambda c: isinstance(c.func, cst.Name) and c.func.value == "h")[0]
    found = scopes.module_function(call, func, "h")
    assert (found if isinstance(found, str) else "def") == expected
    check_agrees(source)
