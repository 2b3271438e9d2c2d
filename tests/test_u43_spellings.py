"""The unsafe fix's rename follows every way the language spells the rule's name as a value
(issue 43, ``analysis/rule_spellings.py``, read by ``engine/unsafe.py``).

A string expression the compiler folds to ``"vjp_bwd"`` (the lexical reference: string literals
side by side are one literal; escapes, raw and triple-quoted forms; an f-string with no field;
``+`` of such, folded by the compiler's constant folding) is one site, written anew as the
literal ``"vjp_bwd_retval"``. A piece of the name joined to anything else (a call, a name) is not
followed: the fix is refused, never half made. The generators draw both, the pieces of the name
cut anywhere; ``"vjp_" "bwd"`` and ``'vjp\\x5fbwd'`` had no fix before.
"""

from __future__ import annotations

import ast

from hijax_migrate.analysis import rule_spellings as spellings
from hijax_migrate.core.model import ERROR, Finding
from hijax_migrate.engine import unsafe
from hypothesis import assume, given, settings
from hypothesis import strategies as st

OLD, NEW = spellings.OLD, spellings.NEW
TEMPLATE = """from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (2 * g,)


class Scaled(Op):
    def vjp_bwd(self, res, g):
        return tuple(3 * ct for ct in getattr(Op, {expr})(self, res, g))
"""


@st.composite
def pieces(draw) -> list[str]:
    """The name cut into one to three pieces, anywhere."""
    cuts = sorted(draw(st.sets(st.integers(1, len(OLD) - 1), max_size=2)))
    bounds = [0, *cuts, len(OLD)]
    return [OLD[a:b] for a, b in zip(bounds, bounds[1:])]


@st.composite
def literal(draw, text: str) -> str:
    """``text`` as one string literal of any form the tokenizer reads."""
    quote = draw(st.sampled_from(['"', "'", '"""', "'''"]))
    form = draw(st.sampled_from(["plain", "raw", "escaped", "fstring"]))
    if form == "escaped":
        body = "".join(f"\\x{ord(c):02x}" if c == "_" or draw(st.booleans()) else c for c in text)
        return f"{quote}{body}{quote}"
    prefix = {"plain": "", "raw": draw(st.sampled_from(["r", "R"])), "fstring": "f"}[form]
    return f"{prefix}{quote}{text}{quote}"


@st.composite
def folded(draw) -> str:
    """An expression whose value is the name: its pieces side by side or added, maybe bracketed."""
    parts = [draw(literal(piece)) for piece in draw(pieces())]
    joins = [draw(st.sampled_from([" ", "", " + "])) for _ in parts[1:]]
    expr = parts[0] + "".join(join + part for join, part in zip(joins, parts[1:]))
    return f"({expr})" if draw(st.booleans()) else expr


def _argument(code: str) -> ast.expr:
    """The name argument of the ``getattr`` call."""
    calls = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "getattr"]
    return calls[0].args[1]


@settings(deadline=None)  # no timing: CI's machine is busy
@given(folded())
def test_a_folded_spelling_is_one_site_renamed_whole(expr):
    assume(eval(expr) == OLD)  # quotes side by side may read otherwise: '' then '' is not '''
    code = TEMPLATE.format(expr=expr)
    assert spellings.unfollowed(code) is None
    text = spellings.renamed(code, unsafe.candidate_sites(code, []))
    assert ast.unparse(_argument(text)) in (f"'{NEW}'", f'"{NEW}"')
    # nothing else moved: the tree is the template's with the name written plainly, every spelling renamed
    expected = ast.dump(ast.parse(TEMPLATE.format(expr=f'"{NEW}"').replace(f"def {OLD}", f"def {NEW}")))
    assert ast.dump(ast.parse(text)) == expected


@settings(deadline=None)
@given(pieces(), st.sampled_from(["SUFFIX", "str(SUFFIX)", '"".join(SUFFIX)']))
def test_a_piece_joined_to_another_value_is_not_followed(parts, other):
    assume(len(parts) > 1 and len(parts[0]) >= 3)
    code = TEMPLATE.format(expr=f'"{parts[0]}" + {other}') + f'\n\nSUFFIX = "{OLD[len(parts[0]) :]}"\n'
    assert "spells the name otherwise" in spellings.unfollowed(code)


NEW_CLASS = 'Op2 = types.new_class("Op2", (Op,), {{}}, lambda ns: ns.update({}))'
SETTERS = {
    "a constant": ('_NAME = "vjp_bwd"\n', "setattr(Op, _NAME, _bwd)", True),
    "a loop over literals": ("", 'for _n, _f in (("vjp_bwd", _bwd),):\n    setattr(Op, _n, _f)', True),
    "an entry of a dict": ('_RULES = {"backward": "vjp_bwd"}\n', 'setattr(Op, _RULES["backward"], _bwd)', True),
    "added pieces": ("", 'setattr(Op, "vjp_" + "bwd", _bwd)', True),
    "a call": ("", 'setattr(Op, "_".join(("vjp", "bwd")), _bwd)', False),
    "an imported name": ("from names import NAME\n", "setattr(Op, NAME, _bwd)", False),
    "a namespace written out": ("import types\n", NEW_CLASS.format('{"vjp_bwd": _bwd}'), True),
    "a namespace from elsewhere": ("import types\n", NEW_CLASS.format("MEMBERS"), False),
    "a namespace by keywords": ("import types\n", NEW_CLASS.format("**MEMBERS"), False),
    "a namespace with keys computed": ("import types\n", NEW_CLASS.format("{KEY: _bwd}"), False),
}


def test_which_refusals_the_rename_answers():
    """A binding whose name is not written out at its site is answered where the values it may
    hold are spelled where the rename reaches: never a call's result or another module's name."""
    for what, (before, binding, expected) in SETTERS.items():
        code = f"{before}\nclass Op:\n    pass\n\n\ndef _bwd(self, res, g):\n    return (g,)\n\n\n{binding}\n"
        line = code.splitlines().index(binding.splitlines()[-1]) + 1
        refusal = Finding("m.py", line, "a name not written out", "HJX016", severity=ERROR)
        assert bool(unsafe.answered(spellings.parsed(code), [refusal])) is expected, what
