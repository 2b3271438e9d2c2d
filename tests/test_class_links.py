"""The files naming a class (``Links.users``, what a hook checks with a change)
are those whose words, split as Python splits names, include it: one search
for the wanted names gives the answer splitting every file did."""

from __future__ import annotations

import re

from class_arguments import class_statements, names_read
from hijax_migrate.core.brackets import ended_early
from hijax_migrate.tree.class_links import Links, classes
from hypothesis import assume, given, settings
from hypothesis import strategies as st

WORDS = [
    b"class A(Base):\n",
    b"class Sub(A):\n",
    b"A",
    b"Ab",
    b"_A",
    b"A_",
    b"A1",
    b"x.A",
    b"(A)",
    b" ",
    b"\n",
    b"caf\xc3\xa9A",
    b"A\xc3\xa9",
    b"# A\n",
    b"'A'",
    b"Base",
    b"classy",
    b"class\tB:\n",
]


def by_words(links: Links, keys: set) -> set:
    names = {name for key in keys for name, _ in links.classes.get(key, ())}
    return {key for key, data in links.texts.items() if names & set(re.findall(rb"\w+", data))}


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.sampled_from("abcdef"), st.lists(st.sampled_from(WORDS), max_size=8).map(b"".join), max_size=6)
)
def test_users_are_the_files_whose_words_name_a_class(texts):
    links = Links(texts)
    for key in texts:
        assert links.users({key}) == by_words(links, {key})


# Python's reading: indentation of blanks and form feeds, blanks or a continued line between
# tokens, names with letters beyond ASCII
_WS = rb"(?:[ \t\f]|\\\r?\n)"
ANCHORED = re.compile(rb"^[ \t\f]*class" + _WS + rb"+((?:\w|[\x80-\xff])+)" + _WS + rb"*(?:\(([^)]*)\))?", re.MULTILINE)


@given(
    st.lists(
        st.sampled_from(
            WORDS
            + [
                b"myclass C:\n",
                b"  class D(A, B):\n",
                b"x = 1; class E: pass\n",
                b"\tclass F(\n    A):\n",
                b"s = 'class X(\n",
                b"class Y(Z):\n",
                b"class G(H,\n  class I(J):\n",
                b"\fclass K(A):\n",
                b"class \\\n  L(A):\n",
                b"class M\\\n(A, B):\n",
                b"class Caf\xc3\xa9(A):\n",
                b"class N(Caf\xc3\xa9):\n",
            ]
        ),
        max_size=10,
    ).map(b"".join),
    st.sampled_from([b"\n", b"\r\n", b"\r"]),
)
def test_classes_are_those_found_at_a_lines_start(data, newline):
    """Each of Python's line breaks starts a line: a lone ``\\r`` (classic Mac OS) too; a
    form feed indents, a continued line goes on, a name may have letters beyond ASCII."""
    data = data.replace(b"\n", newline)
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    matches = list(ANCHORED.finditer(lines))
    found = classes(data)
    assert [name for name, _ in found] == [m.group(1) for m in matches]
    for (_, bases), m in zip(found, matches):
        expected = set(re.findall(rb"(?:\w|[\x80-\xff])+", m.group(2) or b""))
        # past the first ``)`` where it may stand in a string or a comment (``ended_early``): more
        assert bases >= expected if ended_early(m.group(2) or b"") else bases == expected


@settings(max_examples=300, deadline=None)
@given(class_statements())
def test_each_class_is_linked_by_every_name_its_argument_list_reads(drawn):
    """A superset of what Python reads: each class statement that compiles is found, with every
    name and attribute in its bases and keywords, whatever its strings and comments hold,
    after type parameters on any number of lines."""
    code, plain = drawn
    read = names_read(plain)
    assume(read is not None)
    found = classes(code.encode())
    assert [name for name, _ in found] == [b"Sub", b"Next"]
    for (_, bases), names in zip(found, read):
        assert {name.encode() for name in names} <= bases, code


def test_a_file_without_the_word_class_defines_none():
    assert classes(b"x = 1\n") == [] and classes(b"class A(B, C):\n    pass\n") == [(b"A", {b"B", b"C"})]
