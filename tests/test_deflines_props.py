"""Generated layouts: each line DefLines reads from ``ast`` (classes,
functions, top-level imports) is libcst's position of it, whatever stands
around it: line continuations, ``;``-joined statements, decorators over
several lines, form feeds, tabs, comments, non-ASCII text, CRLF, a BOM."""

from __future__ import annotations

import libcst as cst
from hijax_migrate.analysis.deflines import DefLines
from hijax_migrate.analysis.summary import bridge_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_deflines import _check

_NAME = st.sampled_from(["Op", "f", "é", "漢字", "vjp_bwd", "ﬁx"])  # ﬁx: ast reads it as fix
# What may stand before a statement on its line, or between its keyword and its name.
_LEAD = st.sampled_from(["", "", "x = '漢字'; ", "x = 1; \\\n    "])
_GAP = st.sampled_from([" ", " ", "\t", " \\\n    ", "  \\\n"])


def _indent(lines: list[str], by: str) -> list[str]:
    return [by + line if line.strip() else line for line in lines]


def _definition(body):
    """A class or function (async, decorated over several lines, its name after a
    continuation), holding ``body``."""

    def build(kind, gap, name, decorators, body, one_line, by):
        head = kind + gap + name + ("(Base)" if kind == "class" else "(self, a=(1,\n  2))") + ":"
        if one_line and not body:
            return [*decorators, f"{head} pass"]
        return [*decorators, head, *_indent([*body, "pass"], by)]

    decorator = st.sampled_from(["@d", "@d(lambda: 0,\n   k=1)", "@a.b  # note", "@d\n"])
    return st.builds(
        build,
        st.sampled_from(["class", "def", "async def"]),
        _GAP,
        _NAME,
        st.lists(decorator, max_size=2),
        body,
        st.booleans(),
        st.sampled_from(["    ", "\t", "  "]),
    )


def _block(body):
    def build(kind, body, by):
        inner = _indent([*body, "pass"], by)
        return {
            "if": ["if c:", *inner, "else:", *inner],
            "try": ["try:", *inner, "except E:", *inner],
            "match": ["match v:", "    case 1:", *_indent(inner, "    ")],
            "with": ["with m:", *inner],
            "for": ["for i in x:", *inner],
        }[kind]

    return st.builds(
        build, st.sampled_from(["if", "try", "match", "with", "for"]), body, st.sampled_from(["    ", "\t"])
    )


_SIMPLE = st.one_of(
    st.builds(lambda lead: [f"{lead}import os"], _LEAD),
    st.builds(lambda lead, gap: [f"{lead}from a import ({gap}b,\n    c)"], _LEAD, _GAP),
    st.just(["from \\\n    e import f"]),
    st.just(["x = 1; import d; y = 2;"]),
    st.just(["s = '''\nclass NotOne:\n'''"]),
    st.just(["# class Commented:"]),
    st.just(["\x0c"]),  # a page break: a form feed alone on its line
    # characters str.splitlines counts as line breaks, and Python does not
    st.builds(
        lambda ch: [f"# a{ch}b", f"t = '{ch}'; u = '''{ch}", "'''"],
        st.sampled_from(["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]),
    ),
    st.just([""]),
)
_STATEMENTS = st.recursive(
    st.lists(_SIMPLE, min_size=1, max_size=2).map(lambda parts: sum(parts, [])),
    lambda inner: st.lists(st.one_of(_definition(inner), _block(inner), inner), min_size=1, max_size=3).map(
        lambda parts: sum(parts, [])
    ),
    max_leaves=8,
)


@st.composite
def modules(draw) -> str:
    parts = draw(st.lists(st.one_of(_STATEMENTS, _definition(_STATEMENTS)), min_size=1, max_size=4))
    feeds = draw(st.lists(st.booleans(), min_size=len(parts), max_size=len(parts)))  # before a top-level line
    code = (
        "\n".join(
            ("\x0c" if feed and i == 0 else "") + line
            for part, feed in zip(parts, feeds)
            for i, line in enumerate(part)
        )
        + "\n"
    )
    try:
        compile(code, "<generated>", "exec", dont_inherit=True)
    except SyntaxError:  # an indentation mixed past what Python allows, say
        code = code.replace("\t", "    ")
    bom, newline = draw(st.sampled_from(["", "", "", "\ufeff"])), draw(st.sampled_from(["\n", "\n", "\n", "\r\n"]))
    return bom + code.replace("\n", newline)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(code=modules())
def test_lines_read_from_ast_are_libcsts(code):
    try:
        cst.parse_module(code)
    except cst.ParserSyntaxError:
        return  # not Python libcst reads (nor would the tool)
    _check(code)


def test_a_layout_ast_reads_another_way_is_left_to_libcst():
    """ast refuses a BOM; CRLF is not counted; a name after a continuation, or
    one ast normalizes (NFKC), is not checked on its line: libcst decides."""
    for code in ("\ufeffclass Op: pass\n", "class Op:\r\n    pass\r\n", "class \\\n  Op: pass\n", "def ﬁx(): pass\n"):
        tree = cst.parse_module(code)
        assert DefLines(bridge_of(tree, code), code).line(tree.body[0]) is None
