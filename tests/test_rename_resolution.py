"""The base rename reads names as Python binds them (``analysis/resolution.py``), shown by
running drawn modules (``binding_programs``): what every read sees, before the rename under
a jax with both names, after it under a jax with the new one only, is the same, or the file
is refused with an error; a second run changes nothing. Resolution itself is held to the
reference's rules on explicit cases."""

from __future__ import annotations

import ast
import random

import pytest
from binding_programs import NEW, OLD, RENAMES, build, run
from hijax_migrate.analysis.names import NameModel
from hijax_migrate.analysis.resolution import resolve, visible
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_golden import options_for

from golden import migrated


def _renamed(code: str, target: str = "0.12"):
    try:
        compile(code, "prog.py", "exec")
    except SyntaxError:
        return None
    return migrated(code, "prog.py", options_for(["--target-jax", target]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(RENAMES)))
def test_every_read_sees_what_it_saw_before_the_rename(rng, rename):
    (old, new), target = rename, RENAMES[rename]
    code = build(rng, old, new)
    result = _renamed(code, target)
    assume(result is not None)
    if any(f.severity == "error" for f in result.report.findings):
        return  # what is refused is left as written, and said: the rest may have moved
    assert run(result.code, (new,)) == run(code, (old, new)), result.code
    again = migrated(result.code, "prog.py", options_for(["--target-jax", target]))
    assert again.code == result.code


def test_the_generator_draws_each_form_and_block():
    """Each binding form, block and read of the enumeration is drawn, and some drawn
    modules keep the old name bound by an alias (Python's resolution could not show
    every read is the import) while others rename it outright."""
    drawn = "\n".join(build(random.Random(seed)) for seed in range(300))
    for form in (
        "import *",
        "hjx.",
        ":=",
        "for VJPHiPrimitive in",
        "as VJPHiPrimitive",
        "except _Err as",
        "def VJPHiPrimitive",
        "class HiPrim",
        "del VJPHiPrimitive",
        "global ",
        "'VJPHiPrimitive'",
        "f'{",
        "for _ in range(1)",
        "lambda",
        "def f",
        "class C",
        "if FLAG",
        "for _ in range",
        "\n_log(VJPHiPrimitive)\n",
        "(x=VJPHiPrimitive)",
        "lambda x=VJPHiPrimitive",
        "globals()['VJPHiPrimitive']",
        "fromlist=['x']).VJPHiPrimitive",
        "return m.VJPHiPrimitive",
        "if FLAG else None\n",
    ):
        assert form in drawn, form
    outcomes = set()
    for seed in range(300):
        result = _renamed(build(random.Random(seed)))
        if result is not None:
            outcomes.add(f"import {NEW} as {OLD}" in result.code)
            outcomes.add(f"import {NEW}\n" in result.code and f"import {NEW} as" not in result.code)
    assert outcomes == {True, False}


def test_the_generator_draws_reads_in_a_class_body_before_a_later_module_binding():
    """A class body whose statement stands at the module's top level runs where it stands:
    some drawn modules read a name there that the module binds again after the class, the
    reads ``resolution`` follows in order (each then run before and after the rename)."""
    found = 0
    for seed in range(1500):
        model = NameModel.of(ast.parse(build(random.Random(seed))))
        for name, reads in model.reads.items():
            for scope, read in reads:
                later = [
                    b for b in model.bindings.get(name, ()) if b.scope.parent is None and b.after > (read.lineno, 0)
                ]
                found += scope.in_order and id(read) in model.straight and bool(later)
    assert found >= 3


def _resolved(code: str, name: str, line: int):
    """The bindings (as their lines) the read of ``name`` on ``line`` may be, and whether it may be unbound."""
    model = NameModel.of(ast.parse(code))
    scope, read = next((s, r) for s, r in model.reads[name] if r.lineno == line)
    found = resolve(model, scope, name, read)
    return (
        None if found is None else (sorted(b.within.lineno if b.within else 0 for b in found.bindings), found.unbound)
    )


@pytest.mark.parametrize(
    "code, line, expected",
    [
        ("from m import X\nX\n", 2, ([1], False)),  # the module's, bound before
        ("X\nfrom m import X\n", 1, ([], True)),  # bound after the read, which runs once: not yet bound
        ("X = 1\nclass K:\n    X = X\n", 3, ([1], False)),  # a class body binds it after: the module's
        ("X = 1\nclass K:\n    Y = X\n    X = 2\n", 3, ([1], False)),
        ("for _ in y:\n    X\n    X = 1\n", 2, None),  # a loop may bind it first: not followed
        ("while X:\n    X = 1\n", 1, None),  # a while's test runs again after its body
        ("if c:\n    X\nX = 1\n", 2, None),  # in a block of the module: not followed
        ("if c:\n    X = 1\nX\n", 3, ([2], True)),  # may not have run
        ("X = 1\nclass K:\n    if c:\n        X = 2\n    X\n", 5, ([1, 4], False)),  # a class body: else the module's
        # a class body whose statement stands at the module's top level runs there, in order
        ("X = 1\nclass K:\n    X\nX = 2\n", 3, ([1], False)),
        ("class K:\n    X\nX = 1\n", 2, ([], True)),  # nothing bound yet: a builtin, or a NameError
        ("X = 1\nclass K:\n    class J:\n        X\nX = 2\n", 4, ([1], False)),  # through class bodies
        ("X = 1\nif c:\n    class K:\n        X\nX = 2\n", 4, None),  # the class in a block: not followed
        ("X = 1\nclass K:\n    if c:\n        X\nX = 2\n", 4, None),  # the read in a block: not followed
        ("X = 1\nwhile c:\n    class K:\n        X\n    X = 2\n", 4, None),  # a loop may bind it first
        # local to the function; its straight statements run in order at each call: an
        # UnboundLocalError, never the module's
        ("X = 1\ndef f():\n    X\n    X = 2\n", 3, ([], True)),
        ("X = 1\ndef f():\n    X = 2\n    X\n", 4, ([3], False)),
        ("X = 1\nclass K:\n    X = 2\n    def f(self):\n        X\n", 5, ([1], False)),  # class skipped
        ("def f():\n    X\nX = 1\n", 2, ([3], False)),  # a function runs later: every module binding
        ("def f():\n    [(X := 1) for _ in y]\n    X\n", 3, ([2], False)),  # := binds around a comprehension
        ("def f():\n    global X\n    X = 1\nX\n", 4, None),  # global: not followed
        ("X = 1\ndel X\nX\n", 3, None),  # del: not followed
        ("try:\n    from m import X\nexcept E:\n    X = 0\nX\n", 5, ([2, 4], True)),
    ],
)
def test_resolution_follows_the_reference(code, line, expected):
    assert _resolved(code, "X", line) == expected


def test_the_new_name_is_seen_wherever_its_block_binds_it():
    model = NameModel.of(ast.parse("def f():\n    Y\n    Y = 1\nY = 2\n"))
    scope = next(s for s, r in model.reads["Y"] if r.lineno == 2)
    assert [b.within.lineno for b in visible(model, scope, "Y")] == [3]
    module = next(b.scope for b in model.bindings["Y"] if b.within.lineno == 4)
    assert [b.within.lineno for b in visible(model, module, "Y")] == [4]


@pytest.mark.parametrize(
    "code",
    [
        # the namespace read by a key: the new name was not there before
        "from jax.experimental.hijax import OLD\ntry:\n    _log(globals()['NEW'])\nexcept KeyError:\n"
        "    _log('unbound')\n",
        "from jax.experimental.hijax import OLD\n_log('NEW' in globals())\n",
        "from jax.experimental.hijax import OLD\n_log(sorted(n for n in dir() if n.endswith('Primitive')))\n",
        # a read of the new name before the module binds it, in a class body and in a function
        "from jax.experimental.hijax import OLD\nclass C:\n    _read(lambda: NEW)\n"
        "from jax.experimental.hijax import NEW\n",
        "from jax.experimental.hijax import OLD\ndef f():\n    _read(lambda: NEW)\n_call(f)\n"
        "from jax.experimental.hijax import NEW\n",
        # a function's read of the old name before its local binding (an UnboundLocalError), where
        # the function binds the new name before it, straight or in a block (seed 18710)
        "from jax.experimental.hijax import OLD\ndef f():\n    from jax.experimental.hijax import NEW\n"
        "    _log(OLD)\n    from jax.experimental.hijax import OLD\n_call(f)\n",
        "from jax.experimental.hijax import OLD\ndef f():\n    if FLAG:\n"
        "        from jax.experimental.hijax import NEW\n"
        "    if not FLAG:\n        from jax.experimental.hijax import OLD\n    _log(OLD)\n_call(f)\n",
        # a function reading the old name, called after the new name's import and before the
        # old one's (a NameError), or where the old one's import may not have run (seed 27928)
        "from jax.experimental.hijax import NEW\n_read(lambda: OLD)\nfrom jax.experimental.hijax import OLD\n",
        "def f():\n    return OLD\nfrom jax.experimental.hijax import NEW\n_read(f)\n"
        "from jax.experimental.hijax import OLD, NEW\n",
        "if not FLAG:\n    from jax.experimental.hijax import OLD\nfrom jax.experimental.hijax import NEW\n"
        "_read(lambda: OLD)\n",
    ],
    ids=[
        "globals-key",
        "in-globals",
        "dir",
        "class-body-before",
        "function-called-before",
        "local-read-before",
        "local-in-a-block",
        "called-between",
        "def-called-between",
        "old-in-a-block",
    ],
)
@pytest.mark.parametrize("rename", sorted(RENAMES))
def test_a_rename_adds_no_key_a_read_finds(code, rename):
    """Found by the generator above (hypothesis, seeds 6411, 14905, 18710 and 27928): the
    renamed import binds the new name where a read found none; it keeps the old name bound
    instead."""
    (old, new), target = rename, RENAMES[rename]
    code = code.replace("OLD", old).replace("NEW", new)
    result = _renamed(code, target)
    assert not any(f.severity == "error" for f in result.report.findings)
    assert run(result.code, (new,)) == run(code, (old, new)), result.code
    assert f"import {new} as {old}" in result.code


@pytest.mark.parametrize(
    "read",
    [
        "    _log(OLD)\n",
        "    def g(x=OLD):\n        return x\n    _log(g())\n",
        "    g = lambda x=OLD: x\n    _log(g())\n",
    ],
    ids=["straight", "a default", "a lambda's default"],
)
@pytest.mark.parametrize("rename", sorted(RENAMES))
def test_a_read_local_to_its_function_is_no_star_import_read(read, rename):
    """The generator's seed 49522: under a star import, a function reads the old name before
    the function binds it (a default is evaluated in the function around it): an
    UnboundLocalError, which the star's new name would have answered, renamed. Left as it is;
    the module's reads are renamed."""
    (old, new), target = rename, RENAMES[rename]
    code = (
        "from jax.experimental.hijax import *\ndef f():\n" + read + "    def OLD():\n        return 1\n"
        "_call(f)\nclass K(OLD):\n    pass\n_log(K)\n"
    ).replace("OLD", old)
    result = _renamed(code, target)
    assert not any(f.severity == "error" for f in result.report.findings)
    assert f"class K({new})" in result.code and read.replace("OLD", old) in result.code
    assert run(result.code, (new,)) == run(code, (old, new)), result.code
