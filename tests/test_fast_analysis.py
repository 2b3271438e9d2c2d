"""The module summary (``ast_summary``, the one builder) reads every form of
binding and class statement, and base chains resolve at any depth."""

from __future__ import annotations

import ast
import json
import re
import sys

import libcst as cst
import pytest
from hijax_migrate.analysis.ast_summary import parse_ast, summarize_ast
from hijax_migrate.analysis.project import Project
from hijax_migrate.analysis.scopes import Kind
from hypothesis import given
from hypothesis import strategies as st
from test_project import OLD_RULE, migrate_tree, write

from golden import GOLDEN, TARGETS, left_alone, migrated, read_case

TRICKY = """\
import a.b.c
import a.b as ab
from . import sibling
from ..up import Thing as T, Other
from pkg.mod import *
if VERSION: import fast as impl
else: from slow import impl
try:
    from x import Base
except ImportError:
    Base = object
Alias = A if cond else B
Either = A or b.B and C
Annotated: type = T
Plain: int
x = y = ab.Base
class Outer(ab.Base, Base[T], *mixins, f().G, (lambda: 0)(), metaclass=Meta):
    class Inner(Outer): pass
    def method(self):
        class Local(T): ...
        return Local
async def coroutine():
    class InAsync(sibling.S): pass
for item in items:
    class InLoop(impl.K): pass
with ctx() as c:
    class InWith(Other): pass
while False:
    pass
else:
    class InElse(Alias): pass
match command:
    case [x]:
        class InCase(Either): pass
"""


def _shape(summary) -> list:
    """Everything a summary says, as plain data (scopes by position)."""
    scopes: dict[int, int] = {}

    def scope_id(scope):
        return scopes.setdefault(id(scope), len(scopes))

    def bindings(scope):
        return {
            name: [
                (b[0], b[1].qualname if b[0] == "class" else b[1], scope_id(b[2]) if b[0] == "value" else None, b[3:])
                for b in found
            ]
            for name, found in scope.bindings.items()
        }

    classes = [
        (info.qualname, info.bases, scope_id(info.scope), bindings(info.scope), bindings(info.body), info.module)
        for info in summary.classes
    ]
    return [bindings(summary.scope), classes]


def _facts(code: str, module: str = "pkg.sub.mod", is_package: bool = False):
    return _shape(summarize_ast(parse_ast(code), module, is_package)[0])


TRICKY_MODULE = {
    "Alias": [("value", ["A", "B"], 0, ())],
    "Annotated": [("value", ["T"], 0, ())],
    "Base": [("import", "x.Base", None, ()), ("value", ["object"], 0, ())],
    "Either": [("value", ["A", "b.B", "C"], 0, ())],
    **{name: [("class", name, None, ())] for name in ("InCase", "InElse", "InLoop", "InWith", "Outer")},
    "Other": [("import", "pkg.up.Other", None, ())],
    "Plain": [("value", [], 0, ())],
    "T": [("import", "pkg.up.Thing", None, ())],
    "a": [("import", "a", None, ())],
    "ab": [("import", "a.b", None, ())],
    "coroutine": [("value", [], 0, ("method",))],
    "impl": [("import", "fast", None, ()), ("import", "slow.impl", None, ())],
    "item": [("value", [], 0, ())],  # a ``for`` target: a value the code makes when it runs
    "c": [("value", [], 0, ())],  # a ``with`` target: what ``__enter__`` gives
    "sibling": [("import", "pkg.sub.sibling", None, ())],
    "x": [("value", ["ab.Base"], 0, ())],
    "y": [("value", ["ab.Base"], 0, ())],
}


def test_tricky_module_summarised():
    facts = _facts(TRICKY)
    assert facts[0] == TRICKY_MODULE
    assert [(c[0], c[1], c[2]) for c in facts[1]] == [
        ("Outer", ["ab.Base", "Base", "mixins", "f.G", None], 0),
        ("Outer.Inner", ["Outer"], 1),
        ("Outer.method.<locals>.Local", ["T"], 2),
        ("coroutine.<locals>.InAsync", ["sibling.S"], 3),
        ("InLoop", ["impl.K"], 0),
        ("InWith", ["Other"], 0),
        ("InElse", ["Alias"], 0),
        ("InCase", ["Either"], 0),
    ]
    assert facts[1][0][4] == {"Inner": [("class", "Outer.Inner", None, ())], "method": [("value", [], 1, ("method",))]}
    assert facts[1][2][3] == {"Local": [("class", "Outer.method.<locals>.Local", None, ())]}
    assert {c[5] for c in facts[1]} == {"pkg.sub.mod"}
    assert _facts(TRICKY, is_package=True)[0]["sibling"] == [("import", "pkg.sub.mod.sibling", None, ())]


RULE_FORMS = """\
class Classic:
    def vjp_bwd(self, res, g, scale=2.0):
        return g * scale, None
    vjp_bwd_retval_logs: bool = True
    debug = vjp_bwd_retval_logs = False
class Accumulating(Classic):
    def vjp_bwd(self, res, g, x_acc):
        x_acc.accum(g)
    @staticmethod
    def vjp_bwd(res, g):
        return {"g": g}
    @staticmethod
    def vjp_bwd(res, g):
        return (g,)
    def vjp_bwd(self, res, g, *accs):
        return g
    def vjp_bwd(self, res, g):
        def inner():
            return g
    vjp_bwd = shared
    def vjp_bwd(self, res, *gs):
        return gs
"""


def test_rule_forms_and_class_bodies_summarised():
    from hijax_migrate.analysis.ast_summary import rule_form
    from hijax_migrate.analysis.summary import bridge_of

    by_ast = _facts(RULE_FORMS)
    forms = [b[3] for b in by_ast[1][1][4]["vjp_bwd"]]
    assert forms == [
        ("accumulator",),
        ("accumulator",),
        ("classic",),
        ("accumulator",),
        ("accumulator",),
        (),
        ("classic",),
    ]
    assert by_ast[1][0][4]["vjp_bwd_retval_logs"] == [("value", ["True"], 1, ()), ("value", ["False"], 1, ())]
    assert by_ast[1][0][4]["debug"] == [("value", ["False"], 1, ())]
    # the rewrites' form of a libcst def is the summary's, of ast's statement through the bridge
    tree = cst.parse_module(RULE_FORMS)
    bridge = bridge_of(tree, RULE_FORMS)
    defs = [stmt for cls in tree.body for stmt in cls.body.body if isinstance(stmt, cst.FunctionDef)]
    assert [(rule_form(bridge.ast_of(func)),) for func in defs] == [("classic",), *(form for form in forms if form)]


def test_base_chain_through_hundreds_of_modules(tmp_path):
    depth = 400  # each hop was several Python frames: far past the recursion limit
    files = {"pkg/__init__.py": "", "pkg/m0.py": "from jax.experimental.hijax import VJPHiPrimitive as C0\n"}
    for i in range(1, depth):
        files[f"pkg/m{i}.py"] = f"from pkg.m{i - 1} import C{i - 1}\n\nclass C{i}(C{i - 1}):\n    pass\n"
    files["pkg/leaf.py"] = f"from pkg.m{depth - 1} import C{depth - 1} as Base\n\nclass Leaf(Base):\n{OLD_RULE}"
    write(tmp_path, files)
    assert sorted(migrate_tree(tmp_path)) == ["pkg/leaf.py"]


def test_reexports_through_hundreds_of_modules(tmp_path):
    depth = 400
    files = {"pkg/__init__.py": "", "pkg/r0.py": "from jax.experimental import hijax\nBase = hijax.VJPHiPrimitive\n"}
    for i in range(1, depth):
        files[f"pkg/r{i}.py"] = f"from pkg import r{i - 1} as previous\nBase = previous.Base\n"
    files["pkg/leaf.py"] = f"from pkg.r{depth - 1} import Base\n\nclass Leaf(Base):\n{OLD_RULE}"
    write(tmp_path, files)
    assert sorted(migrate_tree(tmp_path)) == ["pkg/leaf.py"]


def test_import_cycle_between_modules_is_no_primitive(tmp_path):
    write(
        tmp_path,
        {
            "a.py": "from b import Base\n",
            "b.py": "from a import Base\n",
            "c.py": "X = Y\nY = X\n",
            "leaf.py": f"from a import Base\nfrom c import X\n\nclass Leaf(Base):\n{OLD_RULE}\nclass Other(X):\n"
            f"{OLD_RULE}",
        },
    )
    project = Project(roots=(tmp_path,))
    summary = project.summary("leaf")
    assert [project.class_kind(info).name for info in summary.classes] == ["NONE", "NONE"]
    assert project.answers.cyclic and not project.answers.cacheable  # such answers are never cached
    assert migrate_tree(tmp_path) == {}


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_files_left_to_ast_are_those_the_migration_leaves(path):
    """What triage passes over, the full migration leaves byte for byte, and
    silently: a skipped file never hides a change or a warning."""
    from hijax_migrate.engine.triage import untouched
    from test_golden import options_for

    case = read_case(path)
    for code in {case.source, case.expected}:
        for target in TARGETS:
            options = options_for([*case.flags, "--target-jax", target])
            report = untouched(code, path.name, options, Project())
            if report is None:
                continue
            full = left_alone(code, path.name, options, target, report.findings)  # fixtures' notes: the same words
            assert full.report.primitives == report.primitives


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_rules_triage_passes_over_change_nothing(path):
    """A triaged migration (only the rules triage names, asked again after
    each rewrite) gives what running every rule gives: text, changes,
    findings, or the same refusal."""
    from hijax_migrate.core.errors import MigrationError
    from hijax_migrate.engine.engine import migrate_source
    from test_golden import options_for

    case = read_case(path)
    for target in TARGETS:
        options = options_for([*case.flags, "--target-jax", target])
        results = []
        for triaged in (False, True):  # the full migration: the one the case's other tests ask for
            try:
                result = (
                    migrate_source(case.source, path.name, options, Project(), triaged=True)
                    if triaged
                    else migrated(case.source, path.name, options)
                )
                report = result.report
                results.append((result.code, report.changes, report.findings, report.primitives))
            except MigrationError as error:
                results.append((str(error), error.line))
        assert results[0] == results[1], target


def test_triage_passes_over_migrated_code_and_plain_code():
    from hijax_migrate.engine.triage import untouched
    from test_golden import options_for

    # each output at its own case's target (at an older one, newer code is an error)
    migrated = [case for case in map(read_case, sorted(GOLDEN.glob("*.py"))) if case.has_output]
    passed = [case for case in migrated if untouched(case.expected, "x.py", options_for(case.flags), Project())]
    assert len(passed) >= len(migrated) // 4  # else the fast path is no path
    assert untouched(TRICKY, "x.py", options_for([]), Project()) is not None


OLD_DCE = (
    "from jax.experimental.hijax import HiPrim\n\nclass Op(HiPrim):\n"
    "    def dce(self, used_outs):  # zz_word\n        return used_outs\n"
)


@pytest.mark.parametrize(
    "change, words, acting",
    [
        ({}, {b"bound dce"}, {"HJX010"}),
        ({"needs": ("zz_word",)}, {b"zz_word"}, {"HJX010"}),  # a word no other list knows
        ({"needs": ("zz_other",)}, {b"zz_other"}, set()),  # the file does not name it
        ({"since": (0, 13, 0)}, set(), set()),  # newer than the target: not selected
        ({"kinds": frozenset({Kind.OLD})}, {b"bound dce"}, set()),  # no such class here
        ({"kinds": frozenset({Kind.HIPRIM})}, {b"bound dce"}, {"HJX010"}),
    ],
)
def test_a_rules_words_kinds_and_release_are_read_from_its_package_alone(monkeypatch, request, change, words, acting):
    """Triage and the pre-filter know a rule only through its ``RULE``: a
    word, a release or a kind changed there changes the words a file must
    name and what triage sends to libcst, with nothing else to edit."""
    from dataclasses import replace

    from hijax_migrate.engine import triage
    from hijax_migrate.engine.triage import acting_rules, candidate_words, every_word
    from hijax_migrate.rules import dce_live_ins, registry
    from hijax_migrate.sources.files import named_words
    from test_golden import options_for

    monkeypatch.setattr(dce_live_ins, "RULE", replace(dce_live_ins.RULE, **change))
    monkeypatch.setattr(registry, "_LOADED", [])  # the registry reads the packages again
    for memo in (every_word, triage._candidate_words):  # memos of the registry as the packages say
        memo.cache_clear()
        request.addfinalizer(memo.cache_clear)  # the registry as it was, for the tests after
    options = options_for(["--target-jax", "0.12"])
    others = candidate_words(options_for(["--target-jax", "0.12", "--ignore", "HJX010"]))
    # its words are the run's (``bound dce`` is HJX016's too: what only it names goes with it)
    assert words <= candidate_words(options) and candidate_words(options) - others == words - others
    named = named_words(OLD_DCE.encode(), candidate_words(options))
    assert named & words == words & {b"bound dce", b"zz_word"}  # the pre-filter finds what the file names
    assert words <= every_word()  # and so do its searches where any rule counts
    assert acting_rules(OLD_DCE, "x.py", options, Project()) == acting


TYPE_PARAMS = """\
from jax.experimental import hijax
type Alias[T] = list[T]
type Plain = int
type = "a name, not a statement"
def helper[T: (int, str)](
        x: T) -> T:
    return x
class Op[T,
         U](hijax.VJPHiPrimitive):
    def vjp_bwd[V](self, res, g):
        return (g,)
class Sub(Op[int, str], Alias):
    pass
"""


def test_type_parameters_are_read_without_libcst():
    from hijax_migrate.analysis.newsyntax import without_type_params

    older = without_type_params(TYPE_PARAMS)
    assert older is not None and "def helper(" in older and "class Op(" in older and "type Alias" not in older
    facts = _facts(TYPE_PARAMS)
    assert sorted(facts[0]) == ["Op", "Sub", "helper", "hijax", "type"]  # ``type Alias``: no binding
    assert facts[0]["type"] == [("value", [], 0, ())]
    assert [(c[0], c[1], c[4]) for c in facts[1]] == [
        ("Op", ["hijax.VJPHiPrimitive"], {"vjp_bwd": [("value", [], 1, ("classic",))]}),
        ("Sub", ["Op", "Alias"], {}),
    ]
    assert without_type_params("x = 1\n") is None


@pytest.mark.parametrize("code", ["f(x); type A = int\n", "if c: type A[T] = list[T]\n", "if c: f(); type A = int\n"])
def test_a_type_statement_after_a_semicolon_or_on_a_headers_line_is_cut(code):
    from hijax_migrate.analysis.newsyntax import ALIAS, without_type_params

    older = without_type_params(code)
    assert older is not None and "type A" not in older and f"{ALIAS} =" in older
    assert isinstance(parse_ast(code), ast.Module)  # read, not refused as syntax this Python cannot read
    assert without_type_params("def f(a: type[int] = int): pass\n") is None  # a ``type`` after any other ``:``


ONE_LINE_PARAMS = '''\
from jax.experimental import hijax
DOC = """
def looks[T](x): a string, not a statement
"""
type Alias[T] = list[T]
class Op[T](hijax.VJPHiPrimitive):
    async def vjp_bwd[V: int](self, res, g):
        return (g,)
class Sub(Op[int], Alias):
    pass
'''


@pytest.mark.parametrize("code", [TYPE_PARAMS, ONE_LINE_PARAMS, ONE_LINE_PARAMS.replace("def looks", "    pass")])
def test_type_parameters_found_by_pattern_read_as_by_the_tokenizer(code, monkeypatch):
    """The pattern's cuts (one-line lists) give the summary the tokenizer's cuts
    give; a cut in a string fails the check and the tokenizer decides."""
    from hijax_migrate.analysis import ast_summary, newsyntax

    fast = parse_ast(code)
    monkeypatch.setattr(ast_summary, "parse_by_pattern", lambda code: None)
    slow = ast.parse(newsyntax.without_type_params(code))
    assert _summary_facts(fast) == _summary_facts(slow)
    assert [(n.lineno, n.col_offset) for n in ast.walk(fast) if isinstance(n, ast.ClassDef)] == [
        (n.lineno, n.col_offset) for n in ast.walk(slow) if isinstance(n, ast.ClassDef)
    ]


def test_a_cut_in_a_string_is_caught():
    from hijax_migrate.analysis import newsyntax

    cuts = newsyntax._pattern_cuts(ONE_LINE_PARAMS)
    tree = ast.parse(newsyntax._apply_offsets(ONE_LINE_PARAMS, cuts))
    assert not newsyntax._all_start_statements(tree, ONE_LINE_PARAMS, cuts)  # the string's "def looks[T]"
    rest = [cut for cut in cuts if ONE_LINE_PARAMS.count("\n", 0, cut[0]) != 2]
    assert newsyntax._all_start_statements(tree, ONE_LINE_PARAMS, rest)


def _summary_facts(tree) -> tuple:
    summary = summarize_ast(tree)[0]
    return [(c.qualname, c.bases) for c in summary.classes], sorted(summary.scope.bindings)


def test_a_tree_of_migrated_primitives_never_imports_libcst_nor_what_it_does_not_use(tmp_path):
    import subprocess
    import sys

    for n in range(10):
        (tmp_path / f"op{n}.py").write_text(
            "from jax.experimental.hijax import VJPHiPrimitive\n\n"
            f"class Op{n}(VJPHiPrimitive):\n"
            "    def vjp_fwd(self, nzs_in, *args):\n        return args, args\n\n"
            "    def vjp_bwd(self, res, g, *accums):\n        accums[0].accum(g)\n\n\n"
            "def kind(x):\n    return type(x), type('T', (), {'n': 1})\n"
        )  # no type() placing a rule
    # Documents too: their cells are triaged as one module (a notebook, a guide that names the API).
    cell = (tmp_path / "op0.py").read_text()
    (tmp_path / "guide.md").write_text(
        f"# Guide\n\n```python\n{cell}```\n\nCall `vjp_bwd` by hand:\n\n```python\nprim.vjp_bwd(res, g)\n```\n"
    )
    (tmp_path / "op.ipynb").write_text(
        json.dumps(
            {
                "cells": [
                    {"cell_type": "code", "source": cell, "metadata": {}, "outputs": [], "execution_count": None}
                ],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )
    code = (
        "import sys\nfrom hijax_migrate.cli import main\n"
        f"assert main(['--check', '--no-cache', '--target-jax', '0.10', {str(tmp_path)!r}]) == 0\n"
        "print(*(name in sys.modules for name in ('libcst', 'pathspec', 'packaging', 'multiprocessing')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # No ignore file, no pin, nothing migrated, too few files to fork for.
    assert done.stdout.split() == ["False"] * 4
    assert "12 primitives found" in done.stderr


SIGNATURES = [
    "(self, used_outs)",
    "(self, used_outs, live_ins)",
    "(self, used_outs=None)",
    "(self, *used)",
    "(self, used_outs, *, k)",
    "(self, /, used_outs)",
    "(self)",
    "(self, used_outs, **kw)",
    "(self, a, b=1)",
    "(self, used_outs, *args)",
]
# Each body, and how many values each of its own returns gives (None: no visible tuple)
BODIES = {
    "return a, b": {2},
    "return (a, b, c)": {3},
    "return x": {None},
    "return": {None},
    "pass": set(),
    "return (*a, b, c)": {3},  # a display of three items, as written
    "if c:\n        return a, b\n    return a, b, c": {2, 3},
    "def inner():\n        return a, b\n    return a, b, c": {3},  # the nested function's is its own
    "return [a, b]": {None},
    "return a, (b, c)": {2},
}


@pytest.mark.parametrize("signature", SIGNATURES)
@pytest.mark.parametrize("body", BODIES)
def test_dce_and_remat_tests_against_python(signature, body):
    """HJX010's signature test against ``inspect``'s reading of the compiled function;
    HJX012's count of values against the table (its rewrite reads the same decision)."""
    import inspect

    from hijax_migrate.rules import dce_live_ins, remat_override

    code = f"def remat{signature}:\n    {body}\n"
    params = inspect.signature(_compiled(code)).parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    old = len(positional) == 2 and all(p.default is p.empty for p in positional)
    old = old and not any(p.kind is p.VAR_POSITIONAL for p in params)
    assert dce_live_ins.old_signature(parse_ast(code).body[0]) is old
    in_class = "class Op:\n" + "".join(f"    {line}\n" for line in code.splitlines())
    found = remat_override.old_remat_rule(parse_ast(in_class).body[0])
    assert (None if found is None else found[1]) == (None if BODIES[body] == {3} else BODIES[body])


def _compiled(code: str):
    space: dict = {}
    exec(compile(code, "<generated>", "exec", dont_inherit=True), space)
    return space["remat"]


FWDS = [
    "def vjp_fwd(self, x):",
    "def vjp_fwd(self, nzs_in, x):",
    "def vjp_fwd(self, _nzs_in, x):",
    "def vjp_fwd(self, nz, y):",
    "def vjp_fwd(self, a, b=1):",
    "def vjp_fwd(self, *args):",
    "def vjp_fwd(self, nzs, *args):",
    "@staticmethod\n    def vjp_fwd(x, y):",
    "def vjp_fwd(self):",
    "def vjp_fwd(self, a, b, c):",
    "@staticmethod\n    def vjp_fwd(nzs_in, x):",
]
COUNTS = [
    "",
    "    def __init__(self, a):\n        self.in_avals = (a,)\n",
    "    def __init__(self, a):\n        self.in_avals = [a, a]\n        self.in_avals = (a,)\n",
    "    def __init__(self, a):\n        self.in_avals = x = (a,)\n",
    "    def expand(self, x, scale=2.0):\n        return x\n",
    "    def expand(self, *xs):\n        return xs\n",
    "    def expand(self, x, y):\n        return x\n    def __init__(self, a):\n        self.in_avals = a, a, a\n",
]


# The verdict on each class of COUNTS (rows) x FWDS (columns): T lacks ``nzs_in``,
# F has it (or no signature to fix), N cannot be judged (the rewrite warns).
VERDICTS = ["TFFFTTFTTTF", "TFFFTTFFNNF", "NTTTTTFTNFT", "TFFFTTFTTTF", "TFFFTTFFNNF", "TFFFTTFTTTF", "NNNNNTFNNTN"]


@pytest.mark.parametrize("fwd", FWDS)
@pytest.mark.parametrize("count", COUNTS)
def test_nzs_in_verdict_is_the_rules_own(fwd, count):
    """One verdict, read from ``ast``: triage's test is it (not False), and the
    rewrite reads it for the class it plans."""
    from hijax_migrate.rules import fwd_nzs_in

    code = f"class Op(Base):\n{count}    {fwd}\n        return x, None\n"
    verdict = fwd_nzs_in.nzs_in_verdict(parse_ast(code).body[0])
    assert {True: "T", False: "F", None: "N"}[verdict] == VERDICTS[COUNTS.index(count)][FWDS.index(fwd)]
    assert fwd_nzs_in.RULE.class_test is fwd_nzs_in.lacks_nzs_in  # the test triage runs
    assert fwd_nzs_in.lacks_nzs_in(parse_ast(code).body[0], None) == (verdict is not False)


IMPORTS = [
    "from jax.experimental.hijax import vjp_from_jvp",
    "from jax._src.hijax import vjp_from_lin as v",
    "from jax.experimental.hijax import *",
    "from .hijax import vjp_from_jvp",
    "from other import vjp_from_jvp",
    "try:\n    from jax.experimental.hijax import vjp_from_jvp\nexcept E:\n    pass",
    "if new:\n    from jax.experimental.hijax import vjp_from_jvp",
    "def f():\n    from jax.experimental.hijax import vjp_from_jvp",
    "class C:\n    from jax.experimental.hijax import (HiPrim,\n        vjp_from_lin)",
    "vjp_from_jvp = 1",
    "import jax.experimental.hijax as vjp_from_jvp",
    "with x:\n    from jax.experimental.hijax import vjp_from_lin",
    "from jax._src.hijax import MappingSpec",
    "from jax.experimental.hijax import MappingSpec",
]


@pytest.mark.parametrize("code", IMPORTS)
@pytest.mark.parametrize("target", [(0, 9, 0), (0, 10, 0), (0, 11, 1)])
def test_newer_import_test_is_the_engines_own(code, target):
    from hijax_migrate.core.errors import MigrationError
    from hijax_migrate.engine import triage
    from hijax_migrate.engine.newer_imports import check_imports

    try:
        check_imports(cst.parse_module(code), code, target, lambda node: 0)
        raised = False
    except MigrationError:
        raised = True
    assert triage.imports_newer(parse_ast(code), code, target) == raised


def test_the_attribute_pre_test_is_linear_on_comment_blocks():
    """A ``.`` then a block of ``# # ...`` comment lines and no name: a pattern
    whose comment could stop early matched it in 2**lines ways (jax 0.11.0's
    docs/ffi.py, a notebook of such lines, took minutes). Forty lines, which
    that pattern would not finish, and the pre-test still finds what it must."""
    from hijax_migrate.analysis.attr_reach import holding, spans
    from hijax_migrate.tree.calls import may_use

    code = "x = 1  # a sentence ends.\n" + "# # a #\n" * 40 + "z = 1\n"
    assert not may_use(code, "vjp_bwd")
    assert may_use("f(y.  # # a\n  # # b \\\n  vjp_bwd)\n", "vjp_bwd")
    assert holding(cst.parse_module(code), code, spans(parse_ast(code).body), {"vjp_bwd"}) == []


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12's ast reads type parameters itself")
@pytest.mark.parametrize(
    "code, parses", [(ONE_LINE_PARAMS.replace("def looks", "    pass"), 1), (ONE_LINE_PARAMS, 3), (TRICKY, 1)]
)
def test_a_module_with_type_parameters_is_parsed_once(code, parses, monkeypatch):
    """Where the pattern finds type parameters (and every cut checks), the
    parse of the text as it is, which fails at the first, is not made; a cut
    in a string (the docstring's ``def looks[T]``) costs that parse and the
    tokenizer's, as before. The tree is the same either way."""
    from hijax_migrate.analysis import ast_summary

    calls = []
    real = ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *a, **k: calls.append(text) or real(text, *a, **k))
    tree = parse_ast(code)
    assert len(calls) == parses
    monkeypatch.setattr(ast_summary, "parse_by_pattern", lambda code: None)
    before = parse_ast(code)
    assert ast.dump(tree) == ast.dump(before)


def test_derived_pairs_as_jax_writes_them_need_no_libcst():
    """HJX015 is module-wide, but triage sends a file to libcst for it only
    where a removed helper is named, or ``linearize_from_jvp`` (by any name)
    is assigned to ``lin`` alone: jax 0.12's own modules (pairs, ``def
    _transpose_jvp``, a local ``lin``) stay with ``ast``."""
    from hijax_migrate.engine.triage import acting_rules
    from test_golden import options_for

    options = options_for(["--target-jax", "0.12"])
    quiet = read_case(GOLDEN / "hjx015_pairs_as_jax_writes_them.py").source
    assert acting_rules(quiet, "x.py", options, Project()) == set()
    for name in ("hjx015_lin_alias_warns.py", "hjx015_lin_left_single_warns.py", "hjx015_reexport_warns.py"):
        assert "HJX015" in acting_rules(read_case(GOLDEN / name).source, "x.py", options, Project()), name


PLACING = [
    'Mul = type("Mul", (Base,), {"vjp_bwd": bwd})\n',
    '@deco\n@type("M", (Base,), {"vjp_bwd": bwd})\ndef f(): pass\n',
    'x = f"""{\n(\ntype\n)("M", (), {**rules})}"""\n',
    'class A:\n    def g(self):\n        return [\uff54\uff59\uff50\uff45("M", (), {"vjp_bwd": b}) for b in bs]\n',
    'y = (\n  type\n)(\n"M", (),\n {key: bwd})\n',
]


def _placing_calls(tree: ast.Module) -> list[ast.Call]:
    """Every ``type(...)`` call given a dict, found by a walk of every node."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "type"
        and any(isinstance(arg, ast.Dict) for arg in [*node.args, *(k.value for k in node.keywords)])
    ]


@pytest.mark.parametrize("code", PLACING)
def test_a_type_call_placing_a_rule_is_found_by_its_lines(code):
    """``_places_rules`` looks only over the lines that may name ``type``
    (decorators above a definition, an f-string walked whole, a name NFKC
    makes ``type``): it finds what a walk of every node finds."""
    from hijax_migrate.engine.triage import _places_rules

    renamed = code.replace("type", "list").replace("\uff54\uff59", "\uff4c\uff49")  # NFKC: ``list``
    quiet = "def vjp_bwd(self, res, g):\n    return type(g)\n\n\n" + renamed
    assert _placing_calls(ast.parse(code)) and _places_rules(ast.parse(code), code)
    assert not _places_rules(ast.parse(quiet), quiet)


def test_type_calls_placing_rules_found_by_lines_as_by_a_walk_in_every_golden_case():
    from hijax_migrate.analysis.line_walk import over_lines, word_lines

    for path in sorted(GOLDEN.glob("*.py")):
        code = read_case(path).source
        try:
            tree = ast.parse(code)
        except SyntaxError:  # newer syntax than this Python's
            continue
        found = set(over_lines(tree, word_lines(code, ("type",))))
        assert [n for n in _placing_calls(tree) if n in found] == _placing_calls(tree), path.name


@given(
    st.lists(
        st.sampled_from(["def", "class", "type", " ", "\t", "x", "_1", "[", "=", "(", "\n", "é", "d", "ef"]),
        max_size=14,
    )
)
def test_the_type_parameter_pre_test_finds_what_one_pattern_of_the_three_finds(parts):
    """A pattern a keyword, searched each: the texts an alternation of the keywords finds."""
    from hijax_migrate.analysis import ast_summary

    text = "".join(parts)
    alternation = re.compile(r"(?:def|class|type)[ \t]+\w+[ \t]*[=\[]")
    assert any(pattern.search(text) for pattern in ast_summary._MAY_CUT) == bool(alternation.search(text))
