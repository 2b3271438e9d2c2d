"""The pre-filter: which files are read any further, by the words they name."""

from __future__ import annotations

import re

import pytest
from hijax_migrate.analysis import namespace as ns
from hijax_migrate.analysis.version_tests import VERSION_NAMES
from hijax_migrate.engine.triage import candidate_words, every_word
from hijax_migrate.rules.registry import all_rules
from hijax_migrate.sources import files as files_module
from hijax_migrate.sources.files import covering, file_words, named_words
from hypothesis import given, settings
from hypothesis import strategies as st

from golden import GOLDEN, TARGETS, left_alone, read_case

WORDS = every_word()  # every rule's, where any rule counts


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_every_file_a_migration_acts_on_is_a_candidate(path):
    """A file the pre-filter passes over is one the full migration leaves
    byte for byte and silently, at every target, under the case's flags."""
    from test_golden import options_for

    case = read_case(path)
    for code in {case.source, case.expected}:
        for target in TARGETS:
            options = options_for([*case.flags, "--target-jax", target])
            if named_words(code.encode(), WORDS) & candidate_words(options):
                continue
            left_alone(code, path.name, options, target)


@pytest.mark.parametrize("name", ["vjp_from_jvp", "jvp_from_lin", "MappingSpec", "transpose_jvp"])
def test_a_file_importing_a_name_newer_than_the_target_is_a_candidate(name):
    """With no primitive and no rule's word at 0.10: the engine refuses it
    (code already past the target), so the pre-filter must not pass it over."""
    from hijax_migrate.core.versions import parse_version
    from hijax_migrate.engine.engine import MigrationError, migrate_source
    from hijax_migrate.rules.context import Options

    code = f"from jax.experimental.hijax import {name}\n"
    options = Options(parse_version("0.10"))
    assert named_words(code.encode(), WORDS) & candidate_words(options)
    with pytest.raises(MigrationError, match=name):
        migrate_source(code, "m.py", options)


@pytest.mark.parametrize(
    "code, named",
    [
        ("def vjp_bwd(self, res, g):", {b"vjp_bwd"}),
        ("x.vjp_bwd_retval", {b"vjp_bwd_retval"}),  # not vjp_bwd: another name
        ("def _vjp_bwd_rule(): pass", set()),
        ("def remat_jaxpr(jaxpr): pass\ndef dce_sink(): pass", set()),
        ("    def  dce (self, used_outs):", {b"bound dce"}),  # in a class body: indented
        ("    def  remat (self, trace):", {b"def remat", b"bound remat"}),  # HJX012's, and HJX016's
        ("    def \\\n  remat(self):", {b"def remat", b"bound remat"}),
        ("def remat(self):", {b"def remat"}),  # a module's own function: no class binds it there
        ("from jax._src.interpreters import remat", set()),  # a global, not a class's
        ("x = ad_checkpoint.remat(f)\nremat(g)[0]\n", set()),  # uses
        ("class P(B): remat = _remat", {b"bound remat"}),  # a one-line body
        ("    async def dce(self, used_outs):", {b"bound dce"}),
        ("    async def remat(self, trace):", {b"def remat", b"bound remat"}),
        ("    dce = _dce", {b"bound dce"}),  # HJX010 decides a rule bound in the body too
        ("    remat = _remat", {b"bound remat"}),  # HJX012 decides only a def, HJX016 the rest
        ("P.remat = _remat\nsetattr(Q, 'dce', f)", {b"bound remat", b"bound dce"}),
        ("getattr(p, 'transpose_jvp')", set()),  # jax's names only: no hijax, so no import of them
        ("def ad_rule(): return ad.linearize_from_jvp(jvp)", set()),  # jax's own ad.py: another function
        ("from jax._src import hijax\nrule = hijax.transpose_jvp", {b"transpose_jvp"}),
        ("lin = hijax.apply_derived_linearization", {b"apply_derived_linearization"}),  # 'lineariz' is shared
        ("from hijax import vjp_fwd_from_lin, transpose_linearized", {b"vjp_fwd_from_lin", b"transpose_linearized"}),
        ("class A(VJPHiPrimitive): pass", {b"HiPrim"}),  # parts of names match anywhere
        ("hjx.AvalMutableQDD", {b"QDD"}),
        ("from jax.experimental.hijax import vjp_from_jvp", {b"vjp_from_jvp"}),  # newer than 0.11.0: refused
        ("if jax.__version_info__ != (0, 11, 0):", {b"compared __version_info__"}),  # HJX014's, exact
        ("if jax.__version_info__ < (0, 11):", set()),  # a range: HJX014 reports none
        ("v = jax.__version__\nw = jaxlib.version.__version__.split('.')", set()),  # reads, no comparison
    ],
)
def test_whole_names_and_parts_of_names(code, named):
    assert named_words(code.encode(), WORDS) == named


@pytest.mark.parametrize(
    "code, encoding, named",
    [
        ("class A(B):\n    def ｖjp_bwd(self, res, g):\n", "utf-8", {b"vjp_bwd"}),  # Python reads vjp_bwd
        ("class A(B):\n    def ｄｃｅ(self, used_outs):\n", "utf-8", {b"bound dce"}),
        ("class A(B):\n    def ｒｅｍａｔ(self, trace):\n", "utf-8", {b"def remat", b"bound remat"}),
        ("# -*- coding: cp932 -*-\nx.ｖjp_fwd\n", "cp932", {b"vjp_fwd"}),  # decoded as declared
        ("# café\nx = 1\n", "utf-8", set()),
        ("ﬁvjp_bwd = 1\n", "utf-8", {b"vjp_bwd"}),  # a superset: as bytes, a name starts after the ligature
    ],
)
def test_names_beyond_ascii_are_read_as_python_reads_them(code, encoding, named):
    assert named_words(code.encode(encoding), WORDS) == named


def test_a_notebook_is_searched_for_bytes_not_names(tmp_path):
    """In JSON, `\\n` before a name hides where it starts."""
    notebook = tmp_path / "n.ipynb"
    notebook.write_text('{"cells": [{"source": "import jax\\nvjp_bwd = 1"}]}')
    script = tmp_path / "n.py"
    script.write_text("import jax\nnvjp_bwd = 1\n")
    assert b"vjp_bwd" in file_words(notebook, WORDS)
    assert not file_words(script, WORDS)


def test_a_word_across_two_chunks_of_a_big_file_is_found(tmp_path):
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * 1020 + b"\nclass A:\n    def vjp_bwd(self): pass\n")
    assert file_words(big, WORDS, chunk=1024) == {b"vjp_bwd"}


def test_the_words_of_the_rules_that_run():
    from test_golden import options_for

    older, newer = (candidate_words(options_for(["--target-jax", t])) for t in ("0.10", "0.12"))
    assert b"def remat" in newer and b"def remat" not in older  # HJX012 reports from jax 0.12
    assert b"HiPrim" in candidate_words(options_for(["--target-jax", "0.12", "--select", "HJX010"]))
    assert b"vjp_bwd" not in candidate_words(options_for(["--target-jax", "0.12", "--select", "HJX010"]))


FRAGMENTS = ["def", " ", "\t", "\\", "\n", "dce", "remat", "vjp_bwd", "_", "x", "é", "("]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8))
def test_a_whole_name_is_found_as_the_pattern_finds_it(fragments):
    """The occurrence-by-occurrence test agrees with the pattern it replaces
    (a name not preceded or followed by a name's byte; after `def` and blanks)."""
    data = "".join(fragments).encode()
    for word in (b"vjp_bwd", b"def remat"):
        if word.startswith(b"def "):
            pattern = rb"\bdef[\s\\]+" + word[4:] + rb"(?!\w)"
        else:
            pattern = rb"(?<!\w)" + word + rb"(?!\w)"
        assert (word in named_words(data, WORDS)) == (re.search(pattern, data) is not None), (data, word)


@pytest.mark.parametrize("qualified", sorted(VERSION_NAMES))
def test_every_name_of_jax_version_the_gates_read_names_a_word_of_theirs(qualified):
    """HJX014 reads jax's version by these names: a file spelling one, as an
    attribute or an import, is read, whatever else it names (its primitives'
    base may come from another module: it need name no other word)."""
    from hijax_migrate.rules.version_gates import RULE

    module, _, last = qualified.rpartition(".")
    gates = frozenset(found for word in RULE.needs for found in covering(word))
    for code in (f"import {module}\nok = {qualified} == '0.11.0'\n", f"from {module} import {last} as v\n"):
        assert named_words(code.encode(), WORDS) & gates, code


@pytest.mark.parametrize(
    "code, code_of_rule, needed",
    [
        ("class A(HiPrim):\n    def  remat(self, trace, *args):\n", "HJX012", True),  # once missed: 'def remat'
        ("class A(HiPrim):\n    async def \\\n remat(self):\n", "HJX012", True),
        ("class A(HiPrim):\n    def remat_jaxpr(self):\n", "HJX012", False),
        ("v = sys.python_version\n", "HJX014", False),  # '_version' inside a name: HJX014 took it
        ("v = jax.version._version != '0.11.0'\n", "HJX014", True),
        ("v = jax.version._version\n", "HJX014", False),
        ("v = jax.__version_info__ == (0, 11, 0)\n", "HJX014", True),
        ("v = jax.__version_info__\n", "HJX014", False),  # no comparison: nothing it reports
        ("class P(VJPHiPrimitive): pass\n", "HJX003", True),
        ("class P(HiPrimitive): pass\n", "HJX003", False),  # a need holding a part: the need itself
        ("def _vjp_bwd_rule(): pass\n", "HJX001", False),
    ],
)
def test_a_rule_is_asked_of_a_text_naming_its_needs_as_the_prefilter_reads_them(code, code_of_rule, needed):
    """Triage and the engine ask a rule of a text by the pre-filter's reading of
    names (``Rule.needed``), not by a substring: the two agreed on no text where a
    blank or a longer name stood (``def  remat``: the pre-filter sent it on, the
    rule was not asked, and --check said nothing was left)."""
    from hijax_migrate.rules.registry import all_rules

    rule = next(r for r in all_rules() if r.code == code_of_rule)
    assert rule.needed(code, named_words(code.encode(), WORDS)) is needed


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from([*FRAGMENTS, "remat", "_version", "__version__", "python", "VJPHiPrimitive"]), max_size=8)
)
def test_a_rule_asked_of_a_text_has_a_word_the_prefilter_finds_there(fragments):
    """Whatever the text, a rule asked of it names a word the pre-filter finds in it:
    no rule acts where a file of that text alone would have been passed over."""
    from hijax_migrate.rules.registry import all_rules

    code = "".join(fragments)
    named = named_words(code.encode(), WORDS)
    for rule in all_rules():
        if rule.needs and rule.needed(code, named):
            assert named & frozenset(found for word in rule.needs for found in covering(word)), (code, rule.code)


# A binding in a class body, in each form a rule decides (``Rule.binds``; ``analysis.namespace``),
# of a class whose base comes from another module: its file names nothing else of hijax.
_BINDINGS = {
    ns.DEF: "    def {name}(self, *args):\n        return args\n",
    ns.DEF + ns.IN_BLOCK: "    if FLAG:\n        def {name}(self, *args):\n            return args\n",
    ns.ASSIGN: "    {name} = _impl\n",
    ns.ANNOTATED: "    {name}: object = _impl\n",
    ns.CHAINED: "    other = {name} = _impl\n",
    ns.UNPACKING: "    {name}, other = _impl, None\n",
    ns.WALRUS: "    (({name} := _impl))\n",
    ns.FOR: "    for {name} in (_impl,):\n        pass\n",
    ns.IMPORT: "    from helpers import _impl as {name}\n",
}
_DECIDED = [(rule, name, form) for rule in all_rules() for name, forms in rule.binds.items() for form in sorted(forms)]


def _binding(name: str, form: str) -> str:
    form = form.removesuffix(ns.ON_BASE)  # on a mixin a primitive inherits: the same text, read alike
    if form == ns.FACTORY:
        return f"from lib import Base\nP = type('P', (Base,), {{'{name}': _impl}})\n"
    return "from lib import Base\n\n\nclass P(Base):\n" + _BINDINGS[form].format(name=name)


def test_every_form_a_rule_decides_is_spelt_here():
    assert {form.removesuffix(ns.ON_BASE) for _, _, form in _DECIDED} <= {*_BINDINGS, ns.FACTORY}


@pytest.mark.parametrize("rule, name, form", _DECIDED, ids=lambda x: getattr(x, "code", str(x)))
def test_a_binding_a_rule_decides_names_a_word_of_the_rule(rule, name, form):
    """The pre-filter reads a file binding a name a rule decides, in any form it decides,
    and the rule is asked of it: ``dce = _dce`` (HJX010) and ``vjp_bwd_retval_logs = True``
    (HJX004) in a subclass of a base from another module named no word of theirs, and
    --check said nothing was left."""
    code = _binding(name, form)
    named = named_words(code.encode(), WORDS)
    assert named & frozenset(found for word in rule.needs for found in covering(word)), code
    assert rule.needed(code, named)


def test_rules_bound_in_a_subclass_of_a_base_from_another_module_are_checked(tmp_path):
    from test_cli import cli

    (tmp_path / "lib.py").write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n"
        "    def vjp_bwd_retval(self, res, g):\n        return (g,), {'g': g}\n"
    )
    (tmp_path / "flag.py").write_text("from lib import Base\n\n\nclass Op(Base):\n    vjp_bwd_retval_logs = True\n")
    (tmp_path / "dce.py").write_text(
        "from lib import Base\n\n\ndef _dce(self, used_outs):\n    return used_outs, self\n\n\n"
        "class P(Base):\n    dce = _dce\n"
    )
    done = cli("--check", "--no-cache", "--target-jax", "0.12", "flag.py", "dce.py", cwd=tmp_path)
    assert "flag.py:4: HJX004 Op: sets `vjp_bwd_retval_logs = True` for the `vjp_bwd_retval` it inherits" in done.stderr
    assert "dce.py" in done.stdout.split()  # ``_dce`` gains ``live_ins`` where nothing else names it
    assert done.returncode == 1


# Every word and the pieces they share: a name inside a longer one (``vjp_bwd`` in
# ``vjp_bwd_retval``), the shared parts, ``hijax``, and what ends a name or not.
_PIECES = sorted({*(word.split()[-1].decode() for word in WORDS), "vjp_", "lineariz", "_version", "hijax", "def "})


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from([*_PIECES, " ", "_", "x", "\n", "."]), max_size=10), st.booleans())
def test_each_word_is_named_as_if_it_were_searched_alone(fragments, whole):
    """The searches a word shares with others (a needle looked for once, a shorter name
    or a shared part missing ruling out every word holding it) answer as a search of
    each word alone would: its name's bytes, then (a whole file) the name whole."""
    data = "".join(fragments).encode()
    alone = {word for word in WORDS if named_words(data, frozenset({word}), whole)}
    assert named_words(data, WORDS, whole) == alone, data
    for word in alone:
        assert word.split()[-1] in data


_NEEDLES = sorted({needle for look in files_module._looks(WORDS) for needle in (*look[2], *look[3])})


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from([*(n.decode() for n in _NEEDLES), *(n[:-1].decode() for n in _NEEDLES), " ", "\n", "é"]),
        max_size=8,
    )
)
def test_each_needle_is_tested_as_containment(fragments):
    """Each needle's test (``re``'s scan for its first byte, or ``in``, the faster for it)
    answers ``needle in data``, on text holding it, a cut of it, or neither."""
    data = "".join(fragments).encode()
    for needle in _NEEDLES:
        assert files_module.needle_test(needle)(data) is (needle in data), (needle, data)
    assert {files_module.needle_test(needle) is files_module.needle_test(needle) for needle in _NEEDLES} == {True}
