"""The searches of the tree for other files' uses of a rule (``.vjp_bwd``,
``getattr(obj, "vjp_bwd")``) and for subclasses: each reads only the files
whose bytes hold the word, finds what a search of every file finds, and a
cached answer that rested on there being no use is a miss once another file
uses the rule."""

from __future__ import annotations

import ast
import hashlib
import os
import unicodedata
from pathlib import Path

import pytest
from class_arguments import class_statements, names_read
from hijax_migrate.analysis import index as index_module
from hijax_migrate.analysis import naming as naming_module
from hijax_migrate.analysis.ast_summary import _value_refs
from hijax_migrate.analysis.index import SEARCH_PASSES, Index
from hijax_migrate.cli import main
from hijax_migrate.core.line_breaks import as_line_feeds
from hijax_migrate.engine.triage import every_word
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources import files
from hijax_migrate.sources.files import walk
from hijax_migrate.tree import calls, holders
from hijax_migrate.tree import reads as reads_module
from hijax_migrate.tree import scans as scans_module
from hijax_migrate.tree.reads import TreeReads
from hijax_migrate.tree.scans import Scans
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_accum_calls import BASE, CALLER
from test_project import write

GETTER = 'from ops import Mul\n\n\ndef both(prim, res, g):\n    return getattr(prim, "vjp_bwd")(res, g)\n'


def ops_diff(root, cache) -> str:
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    outcomes = run(jobs, Options(target=(0, 10, 0), strategy="accum"), in_place=False, workers=1, cache_dir=cache)
    return {o.file: o.diff for o in outcomes}["ops.py"]


def test_a_use_that_appears_in_another_file_is_a_miss(tmp_path):
    root, cache = tmp_path / "tree", tmp_path / "cache"
    root.mkdir()
    (root / "ops.py").write_text(BASE.format(accs=""))
    (root / "use.py").write_text("x = 1\n")
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in ops_diff(root, cache)
    (root / "use.py").write_text(CALLER)  # calls the rule as it is: no accumulators any more
    assert "def vjp_bwd_retval(self, res, g):" in ops_diff(root, cache)
    (root / "use.py").write_text("x = 1\n")
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in ops_diff(root, cache)


def test_a_getter_that_appears_in_another_file_is_a_miss(tmp_path):
    root, cache = tmp_path / "tree", tmp_path / "cache"
    (root / "sub").mkdir(parents=True)
    (root / "ops.py").write_text(BASE.format(accs=""))
    (root / "sub" / "use.py").write_text("from ops import Mul\n")
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in ops_diff(root, cache)
    (root / "sub" / "use.py").write_text(GETTER)
    assert "x_acc" not in ops_diff(root, cache)


# The search for subclasses: a file is searched for a word only if its bytes
# hold it, and finds what a search of every file finds.

NAMERS = {
    "a.py": "from ops import Mul\n",
    "b.py": "import ops\n\nclass B(ops.Mul):\n    pass\n",
    "c.py": "from ops import MulBase\n\nclass C(MulBase):\n    pass\n",  # Mul only inside a longer name
    "d.py": "class D(\n    Base,\n    Mul,\n):\n    pass\n",
    "e.py": "x = 'Mul'  # named, but not in bases or an import\n",
    "f.py": "class F(Base):\n    pass\n",  # bytes without the word
    "g.py": "from ops import (\n    Base,\n    Mul as M,\n)\n",
    "h.py": "class H(Mul): pass\r\nclass I(Base): pass\r\n",
}


def naming(root: Path, word: str, scans=None) -> list[str]:
    index = Index(roots=(root,), scans=scans)
    return sorted(path.name for path, _, _ in index.naming_files(word))


def every_file_naming(root: Path, word: str) -> list[str]:
    """The search as it was: every file's names, each file read and searched."""
    return sorted(p.name for p in walk(root) if word in naming_module.names_in(p.read_bytes())[0])


@pytest.mark.parametrize("word", ["Mul", "MulBase", "Base", "ops", "M", "Nothing"])
def test_naming_finds_what_a_search_of_every_file_finds(tmp_path, word):
    write(tmp_path, NAMERS)
    assert naming(tmp_path, word) == every_file_naming(tmp_path, word)
    assert naming(tmp_path, word, Scans(tmp_path / ".cache", (tmp_path,))) == every_file_naming(tmp_path, word)


def test_only_files_holding_the_word_are_searched(tmp_path, monkeypatch):
    write(tmp_path, NAMERS)
    searched = []
    names_in = naming_module.names_in
    monkeypatch.setattr(index_module, "names_in", lambda data: searched.append(data) or names_in(data))
    assert naming(tmp_path, "Mul") == ["a.py", "b.py", "d.py", "g.py", "h.py"]
    assert sorted(searched) == sorted(t.encode() for n, t in NAMERS.items() if "Mul" in t)


@pytest.mark.parametrize("words", [{"Mul", "Base", "ops"}, {"Mul", "Base"}])
def test_searches_that_outnumber_the_passes_left_are_answered_by_the_index_from_the_first(tmp_path, monkeypatch, words):
    """A walk that will ask for more words than passes are left makes none: the index
    of names answers the words it would have answered after them, and the same."""
    write(tmp_path, NAMERS)
    passes = []
    files = holders.Holders.files
    monkeypatch.setattr(
        holders.Holders, "files", lambda self, root, word: passes.append(word) or files(self, root, word)
    )
    index = Index(roots=(tmp_path,))  # two passes, then the index
    index.searching(words)
    found = {word: sorted(path.name for path, _, _ in index.naming_files(word)) for word in sorted(words)}
    assert found == {word: every_file_naming(tmp_path, word) for word in sorted(words)}
    assert passes == ([] if len(words) > SEARCH_PASSES else sorted(words))


def test_a_file_known_to_lack_a_word_is_not_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr(scans_module, "_RACY_NS", 0)  # every file settled: remembered
    write(tmp_path / "tree", NAMERS)
    first = Scans(tmp_path / "cache", (tmp_path / "tree",))
    assert naming(tmp_path / "tree", "Mul", first) == ["a.py", "b.py", "d.py", "g.py", "h.py"]
    first.save()
    read = []
    monkeypatch.setattr(TreeReads, "read", lambda self, path: read.append(path.name) or path.read_bytes())
    again = Scans(tmp_path / "cache", (tmp_path / "tree",))
    assert naming(tmp_path / "tree", "Mul", again) == ["a.py", "b.py", "d.py", "g.py", "h.py"]
    holding = sorted(name for name, text in NAMERS.items() if "Mul" in text)
    assert sorted(read) == holding  # the others' lack of the word remembered; their names, once read
    read.clear()
    assert naming(tmp_path / "tree", "Quant", again) == [] and len(read) == len(NAMERS)  # another word
    again.save()
    read.clear()
    last = Scans(tmp_path / "cache", (tmp_path / "tree",))
    assert naming(tmp_path / "tree", "Quant", last) == [] and naming(tmp_path / "tree", "Mul", last) == [
        "a.py",
        "b.py",
        "d.py",
        "g.py",
        "h.py",
    ]
    assert sorted(read) == holding
    read.clear()
    (tmp_path / "tree" / "f.py").write_text("from ops import Mul\n")  # a new stat: read again by the next run
    assert naming(tmp_path / "tree", "Mul", last) == ["a.py", "b.py", "d.py", "g.py", "h.py"]  # this one's: as found
    last.save()
    read.clear()
    later = Scans(tmp_path / "cache", (tmp_path / "tree",))
    assert naming(tmp_path / "tree", "Mul", later) == ["a.py", "b.py", "d.py", "f.py", "g.py", "h.py"]
    assert sorted(read) == sorted([*holding, "f.py", "f.py"])  # f.py: for the word, then for its names


def test_a_run_stats_each_file_once(tmp_path, monkeypatch):
    """The pre-filter, the subclass index and the search for uses all ask for
    a file's stat: the run's first answer serves them (the tree as found)."""
    write(tmp_path / "tree", NAMERS)
    stats = []

    class Counted:  # the scans module's os, its stats counted
        def __getattr__(self, name):
            return getattr(os, name)

        def stat(self, path, *args, **options):
            stats.append(path)
            return os.stat(path, *args, **options)

    monkeypatch.setattr(scans_module, "os", Counted())
    record = Scans(None, (tmp_path / "tree",))
    for path in walk(tmp_path / "tree"):
        record.is_candidate(path, every_word())
    assert naming(tmp_path / "tree", "Mul", record) == ["a.py", "b.py", "d.py", "g.py", "h.py"]
    holders.Holders(record).files(tmp_path / "tree", "vjp_bwd")
    assert sorted(stats) == sorted(walk(tmp_path / "tree"))


def test_the_searches_for_uses_read_a_file_without_the_word_once(tmp_path, monkeypatch):
    write(
        tmp_path,
        {
            **{f"plain{n}.py": f"x = {n}\n" for n in range(5)},
            "use.py": CALLER,
            "get.py": GETTER,
            "ops.py": BASE.format(accs=""),
        },
    )
    read = []
    monkeypatch.setattr(TreeReads, "read", lambda self, path: read.append(path.name) or path.read_bytes())
    search = holders.Holders()  # a run's
    assert calls.use_elsewhere((tmp_path,), "vjp_bwd", str(tmp_path / "ops.py"), search=search) == (
        tmp_path / "use.py",
        5,
    )
    assert calls.use_elsewhere(
        (tmp_path,), "vjp_bwd", str(tmp_path / "ops.py"), by_name=True, naming="Mul", search=search
    ) == (tmp_path / "get.py", 5)
    assert all(read.count(f"plain{n}.py") == 1 for n in range(5))


def test_words_expected_are_found_in_the_same_pass(tmp_path, monkeypatch):
    write(tmp_path, NAMERS)
    alone = {word: holders.Holders().files(tmp_path, word) for word in ("Mul", "Base", "ops")}
    read = []
    monkeypatch.setattr(TreeReads, "read", lambda self, path: read.append(path.name) or path.read_bytes())
    search = holders.Holders()
    search.expect(["Base", "ops", "Never"])
    assert {word: search.files(tmp_path, word) for word in ("Mul", "Base", "ops")} == alone
    assert sorted(read) == sorted(NAMERS)  # one pass: each file read once
    assert search.files(tmp_path, "Never") == [] and len(read) == len(NAMERS)


def test_a_run_walks_its_tree_once(tmp_path, monkeypatch):
    """The jobs' walk (``.``) serves the searches, which name the tree by its absolute path."""
    write(
        tmp_path, {"ops.py": BASE.format(accs=""), "use.py": CALLER, "sub/__init__.py": "", "sub/plain.py": "x = 1\n"}
    )
    walks = []
    walk = files.walk
    monkeypatch.setattr(files, "walk", lambda root, *rest: walks.append(root) or walk(root, *rest))
    monkeypatch.chdir(tmp_path)
    assert main(["--check", "--strategy", "accum", "--target-jax", "0.10", "--jobs", "1", "--no-cache", "."]) == 1
    assert walks == [Path(".")]


def test_a_tree_named_two_ways_has_the_same_files(tmp_path, monkeypatch):
    write(tmp_path, {"a.py": "", "sub/b.py": "", "sub/c.md": ""})
    monkeypatch.chdir(tmp_path)
    for first, second in [(".", str(tmp_path)), (str(tmp_path), "."), ("sub", str(tmp_path / "sub") + "/")]:
        listings = files.Listings()  # a run's
        listings.files(Path(first))
        assert listings.files(Path(second)) == walk(Path(second))
        assert listings.files(Path(second)) is listings.files(Path(second))  # named so once a run


def test_a_file_under_two_roots_is_read_once_a_pass(tmp_path, monkeypatch):
    """A project's folders of scripts are roots of their own, inside the project's root."""
    write(tmp_path, {"ops.py": BASE.format(accs=""), "scripts/use.py": CALLER, "scripts/plain.py": "x = 1\n"})
    read = []
    monkeypatch.setattr(TreeReads, "read", lambda self, path: read.append(path.name) or path.read_bytes())
    search = holders.Holders()
    inner = search.files(tmp_path / "scripts", "vjp_bwd")
    assert inner == [(tmp_path / "scripts" / "use.py", hashlib.sha256(CALLER.encode()).hexdigest())]
    assert [path for path, _ in search.files(tmp_path, "vjp_bwd")] == [tmp_path / "ops.py", *(p for p, _ in inner)]
    assert sorted(read) == ["ops.py", "plain.py", "use.py"]
    search.files(tmp_path, "Mul")  # another word: read again
    assert len(read) == 6


# What the search for subclasses finds: a file that names the class in its
# bases or an import, however the statement is written.


@pytest.mark.parametrize(
    "source, word",
    [
        ("import ops\n\nclass Über(ops.Mul):\n    pass\n", "Mul"),  # a subclass named beyond ASCII
        ("from ops import Café\n\nclass Sub(Café):\n    pass\n", "Café"),  # a base named beyond ASCII
        ("import ops\n\nclass Sub(ops.\ufb01x):\n    pass\n", "fix"),  # NFKC: the ligature reads as 'fi'
        ("# -*- coding: latin-1 -*-\nimport ops\nclass Sub(ops.Café):\n    pass\n", "Café"),
        ("import ops\n\nclass Sub[T](ops.Mul):\n    pass\n", "Mul"),  # type parameters
        ("import ops\n\nclass Sub[T: dict[str, int]](ops.Mul):\n    pass\n", "Mul"),
        ("import ops\n\nclass Sub(ops.Base,  # see (note)\n          ops.Mul):\n    pass\n", "Mul"),
        ("from ops import A, \\\n    Mul\n", "Mul"),  # a backslash
        ("from ops import (A,  # (note)\n    Mul)\n", "Mul"),
        # a bracket and a colon in a comment or a string among the bases (the pattern ended there)
        ("import ops\n\nclass Sub(\n    Mixin,  # see foo(): bar\n    ops.Mul,\n):\n    pass\n", "Mul"),
        ('import ops\n\nclass Sub(f("):"), ops.Mul):\n    pass\n', "Mul"),
        ('import ops\n\nclass Sub(f(f"{x}):"), ops.Mul):\n    pass\n', "Mul"),  # an f-string: the rest
    ],
)
def test_the_search_for_subclasses_finds_a_file_however_it_names_the_class(tmp_path, source, word):
    encoding = "latin-1" if "latin-1" in source else "utf-8"
    (tmp_path / "sub.py").write_bytes(source.encode(encoding))
    (tmp_path / "plain.py").write_text("x = 1\n")
    assert naming(tmp_path, word) == ["sub.py"]
    assert naming(tmp_path, word, Scans(tmp_path / ".cache", (tmp_path,))) == ["sub.py"]


def test_a_use_spelt_beyond_ascii_is_a_use(tmp_path):
    """``prim.ｖjp_bwd`` is ``prim.vjp_bwd`` to Python (NFKC): a call of the rule."""
    write(tmp_path, {"ops.py": BASE.format(accs=""), "use.py": CALLER.replace(".vjp_bwd", ".\uff56jp_bwd")})
    assert calls.use_elsewhere((tmp_path,), "vjp_bwd", str(tmp_path / "ops.py")) == (tmp_path / "use.py", 5)


# The getter pre-test: any string literal that evaluates to the word, and a
# getter's name, pass; a stray escape elsewhere does not send a file to the tokenizer.
_ESCAPES = [
    lambda c: c,
    lambda c: f"\\x{ord(c):02x}",
    lambda c: f"\\{ord(c):o}",
    lambda c: f"\\u{ord(c):04x}",
    lambda c: f"\\U{ord(c):08X}",
    lambda c: "\\N{" + unicodedata.name(c) + "}",
    lambda c: "\\\n" + c,
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_ESCAPES), min_size=7, max_size=7), st.sampled_from(['"', "'", '"""']))
def test_the_getter_pre_test_passes_any_spelling_of_the_word(escapes, quote):
    literal = quote + "".join(escape(c) for escape, c in zip(escapes, "vjp_bwd")) + quote
    code = f"def f(prim):\n    return getattr(prim, {literal})\n"
    assert ast.literal_eval(literal) == "vjp_bwd"
    assert calls.may_get(code, "vjp_bwd")


@pytest.mark.parametrize(
    "code",
    [
        'getattr(p, "vjp_fwd")  # "\\x00"',
        'getattr(p, "\\x76jp_bwd_retval")',
        'x = "vjp_bwd"',
        'getattr(p, name)\nprint("\\u00e9")',
    ],
)
def test_the_getter_pre_test_passes_over_other_strings(code):
    assert not calls.may_get(code, "vjp_bwd")


_LINES = [
    "class A(Base):",
    "  class B(m.Base, metaclass=M):",
    "from ops import Mul",
    "import a.b as ab",
    "x = 'class C(D)'",
    "# import os",
    "classify(x)",
    "from x import (A,\n  B)",
    "subclass = 1",
    "import\\\n  a",
    "\tclass Ｅ(Ｆ):",
    "y = 1  # class G(H):",
    "\r",
    "",
    "\fclass J(k.L):",
    "class \\\n M(N):",
    "O = p.Q",
    "R: type = S  # t",
    "class U(f(V), W):",
    "X = Y == Z",
    "A = b.c[0] \t",
    "D = e  # f = g",
    "H = I\r",
    "J = K = l.M",
    "n = o(p.Q)",
    "r = s.\\\n  T",
    "u == V",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=12), st.sampled_from(["\n", "\r\n", "\r"]))
def test_the_names_are_those_of_every_line_the_pattern_matches(lines, newline):
    """Lines found by their keywords, as matching the pattern at every line would find them
    (Python's lines: a lone ``\\r`` ends one too)."""
    data = newline.join(lines).encode()
    lines_fed = as_line_feeds(data)
    parts = [p for match in naming_module._NAMES_THAT_SUBCLASS.finditer(lines_fed) for p in match.groups() if p]
    parts += [p for pattern in naming_module._FOLLOWED for p in pattern.findall(lines_fed)]  # the values
    words = {w.decode() for part in parts for w in naming_module._WORD.findall(part)}
    words |= naming_module._non_ascii(data, [w for p in parts for w in naming_module._NON_ASCII_WORD.findall(p)])
    assert naming_module.names_in(data)[0] == sorted(words)


@settings(max_examples=300, deadline=None)
@given(class_statements())
def test_a_class_s_argument_list_is_named_whole_however_it_is_written(drawn):
    """A superset of what Python reads: every name and attribute in the bases and keywords of
    each class statement that compiles (``ast``'s), whatever its strings and comments hold,
    after type parameters on any number of lines."""
    code, plain = drawn
    read = names_read(plain)
    assume(read is not None)
    assert set().union(*read) <= set(naming_module.names_in(code.encode())[0]), code


# Values a name is bound to, as a summary follows them (``ast_summary._value_refs``): dotted
# names in brackets, calls, conditions holding any expression, arms, lines going on.
_VALUES = [
    "m.Base",
    "(m.Base)",
    "(\n    m.Base\n)",
    "\\\n    m.Base",
    "f(x, 'a=b')",
    "m.Base if sys.version_info >= (3, 11) else Other",
    "getattr(h, 'HiPrim', None) or h.VJP",
    "(A\n    if c == 'x'\n    else m.D)",
    "A and (B or m.C)",
    "not A or B",
    "(m  # note\n    .Base)",
    "bases[0]",
    "lambda: m.Base",
    "[m.Base]",
    "m.Base()",
    "None",
]
_BINDINGS = ["B = {}", "B: type = {}", "B = C = {}", "(B := {})", "if (B := {}):\n    pass", "f(k={})"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_BINDINGS), st.sampled_from(_VALUES)), min_size=1, max_size=4))
def test_the_names_a_value_may_be_are_named_however_it_is_written(bindings):
    """A superset of what a summary follows: the names of every value a name is bound to
    (an assignment's, a walrus's), dotted parts each, in a module that compiles."""
    code = "".join(binding.format(value) + "\n" for binding, value in bindings)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        assume(False)
    values = [node.value for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr))]
    followed = {part for value in values for ref in _value_refs(value) for part in ref.split(".")}
    assert followed - {"None", "True", "False"} <= set(naming_module.names_in(code.encode())[0]), code


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_name_bound_to_a_base_is_named_whatever_ends_its_line(newline):
    data = newline.join(["from m import Base", "B = Base", "", "class P(B):", "    pass", ""]).encode()
    assert naming_module.names_in(data)[0] == ["B", "Base"]


def test_a_run_reads_each_file_once_for_its_searches_and_the_next_run_anew(tmp_path, monkeypatch):
    """The subclass index and the search for uses share the bytes the run read
    (within a budget); a later run in the same process reads the tree again."""
    from hijax_migrate.sources import originals

    root = tmp_path / "tree"
    write(root, {**NAMERS, "ops.py": BASE.format(accs=""), "use.py": "x = 1\n"})
    reads, read_bytes = [], originals.read_bytes
    monkeypatch.setattr(originals, "read_bytes", lambda path: reads.append(path.name) or read_bytes(path))
    index = Index(roots=(root,), search_passes=0)  # a run's
    assert [p.name for p, _, _ in index.naming_files("Mul")] == ["a.py", "b.py", "d.py", "g.py", "h.py"]
    assert [p.name for p, _ in index.search.files(root, "vjp_bwd")] == ["ops.py"]
    assert sorted(reads) == sorted(p.name for p in walk(root))
    monkeypatch.setattr(reads_module, "_KEEP", 0)  # over the budget: read again
    reads.clear()
    index = Index(roots=(root,), search_passes=0)  # the next run's
    index.naming_files("Mul")
    index.search.files(root, "vjp_bwd")
    assert all(reads.count(p.name) >= 2 for p in walk(root))
    monkeypatch.undo()
    assert "def vjp_bwd(self, res, g, x_acc, y_acc):" in ops_diff(root, None)
    (root / "use.py").write_text(GETTER)
    assert "x_acc" not in ops_diff(root, None)  # the next run reads use.py as it is now


@pytest.mark.parametrize("literal", ["r'vjp_bwd'", 'u"vjp_bwd"', '"""vjp_bwd"""', "'vjp_bwd' ''"])
def test_a_getter_of_the_rule_quoted_otherwise_in_another_file_is_a_use(tmp_path, literal):
    """Python reads each of these as "vjp_bwd": a rename or new signature would not reach the getter."""
    write(
        tmp_path,
        {
            "get.py": f"from ops import Mul\n\n\ndef f(m: Mul):\n    return getattr(m, {literal})\n",
            "ops.py": BASE.format(accs=""),
        },
    )
    assert calls.use_elsewhere(
        (tmp_path,), "vjp_bwd", str(tmp_path / "ops.py"), by_name=True, naming="Mul", search=holders.Holders()
    ) == (tmp_path / "get.py", 5)


# Which words a file's bytes may hold (``holders.held``), asked of many words at once.
_PIECES = ["vjp_bwd", "\uff56jp_bwd", "Mul", "Caf\u00e9", "\ufb01x", "fix", " ", "\n", "x = 1", "# hijax-migrate: skip"]
_WORDS = ["vjp_bwd", "Mul", "Caf\u00e9", "fix", holders.MARKS]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=8),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5, unique=True),
    st.sampled_from(["utf-8", "latin-1", "utf-7"]),
)
def test_the_words_a_file_may_hold_are_each_word_s_answer_and_all_python_reads(pieces, words, encoding):
    """Asked together, each word gets the answer it gets alone; and every word Python
    reads in the file (decoded as declared, NFKC-normalised) is among them."""
    text = f"# -*- coding: {encoding} -*-\n" + "".join(pieces)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        return  # not a file this encoding can hold
    found = holders.held(data, words)
    assert found == [word for word in words if holders.held(data, [word]) == [word]]
    read = unicodedata.normalize("NFKC", data.decode(encoding))
    assert {word for word in words if word != holders.MARKS and word in read} <= set(found)


def test_a_file_s_encoding_is_asked_once_whatever_the_words(monkeypatch):
    asked = []
    recoded = holders.recoded
    monkeypatch.setattr(holders, "recoded", lambda data: asked.append(data) or recoded(data))
    data = b"# -*- coding: utf-8 -*-\nclass Mul: pass\n"
    assert holders.held(data, ["Mul", "vjp_bwd", "dce", "vjp_fwd", "Base"]) == ["Mul"]
    assert asked == [data]


def test_a_primitive_s_decision_reads_the_tree_once(tmp_path, monkeypatch):
    """HJX001 on a rule that hands its accumulators to a call and returns logs, decided
    by triage: the files that may hold a mark and those importing the class are found
    in one pass (the class's name expected, whatever its kind: here ``HiPrim``)."""
    ops = (
        "from jax.experimental.hijax import HiPrim\n\nfrom helpers import run_bwd\n\n\n"
        "class Remat(HiPrim):\n    def vjp_fwd(self, nzs_in, x):\n        return x, (x,)\n\n"
        "    def vjp_bwd(self, res, g, *arg_accums):\n        logs = run_bwd(res, g, *arg_accums)\n"
        "        return logs\n"
    )
    write(tmp_path, {"ops.py": ops, "helpers.py": "def run_bwd(*args):\n    return None\n"})
    write(tmp_path, {f"plain{n}.py": f"x = {n}\n" for n in range(4)})
    read = []
    monkeypatch.setattr(TreeReads, "read", lambda self, path: read.append(path.name) or path.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["--check", "--target-jax", "0.12", "--jobs", "1", "--no-cache", "."]) == 0
    assert all(read.count(f"plain{n}.py") == 1 for n in range(4)), read
