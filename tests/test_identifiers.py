"""Every place the grammar holds an identifier is read (``analysis/identifiers.py``).

Programs are drawn from templates, one for each such place in the reference's
grammar (and ``ast``'s ASDL ``identifier`` fields), each place filled with the
name counted or a decoy; strings and comments spell it too, and count nowhere.
The generator knows how many places it filled: that is the answer."""

from __future__ import annotations

import ast
import sys

from hijax_migrate.analysis.identifiers import first_naming, occurrences
from hypothesis import given, settings
from hypothesis import strategies as st

NAME, DECOY = "vjp_bwd", "other"

# One statement a place, ``{}`` where an identifier stands
TEMPLATES = [
    "{}\n",  # a name, read
    "{} = 1\n",  # a name, bound
    "x.{}\n",  # an attribute
    "x.{}.y = 1\n",
    "def {}(self): pass\n",  # a def's name
    "async def {}(self): pass\n",
    "class {}: pass\n",  # a class's name
    "def f({}, /, {}, *{}, {}=1, **{}): pass\n",  # parameters
    "lambda {}, *{}: 0\n",
    "f({}=1)\n",  # a keyword argument
    "class D(x, {}=1): pass\n",
    "import {}\n",  # imports: every dotted part, and the alias
    "import a.{}.b as {}\n",
    "from {}.a import {} as {}\n",
    "from .{} import b\n",
    "from . import {}\n",
    "def f():\n    global {}, y\n",  # global, nonlocal
    "def f():\n    def g():\n        nonlocal {}\n",
    "try:\n    pass\nexcept E as {}:\n    pass\n",  # except ... as
    "match x:\n    case [*{}]:\n        pass\n",  # patterns: a star, a capture, as
    "match x:\n    case {{**{}}}:\n        pass\n",  # **rest
    "match x:\n    case C({}=1):\n        pass\n",  # a class pattern's keyword
    "match x:\n    case 1 as {}:\n        pass\n",
    "match x:\n    case {}:\n        pass\n",
    "[{} for {} in y if {}]\n",  # comprehensions
    "(y := {})\n",
    'f"{{{}}} {{y:{{{}}}}}"\n',  # an f-string's expressions, its format spec's too
    "@{}\ndef f(): pass\n",
    "x: {} = 1\n",
    "del {}\n",
]
if sys.version_info >= (3, 12):  # type parameters, and the ``type`` statement
    TEMPLATES += ["def f[{}](): pass\n", "class D[*{}, **{}]: pass\n", "type {}[{}] = int\n"]
INERT = ['"vjp_bwd"\n', "# vjp_bwd\n", "b'vjp_bwd'\n", 'f"vjp_bwd {{x}}"\n']  # spelt, named nowhere


@st.composite
def programs(draw) -> tuple[str, int]:
    text, count = "", 0
    for template in draw(st.lists(st.sampled_from(TEMPLATES + INERT), min_size=1, max_size=8)):
        names = draw(st.lists(st.booleans(), min_size=template.count("{}"), max_size=template.count("{}")))
        text += template.format(*(NAME if named else DECOY for named in names))
        count += sum(names)
    return text, count


@settings(max_examples=300, deadline=None)
@given(programs())
def test_every_place_an_identifier_stands_is_counted(program):
    text, count = program
    assert occurrences(ast.parse(text).body, NAME) == count, text


def test_each_template_names_it_once_a_place():
    for template in TEMPLATES:
        places = template.count("{}")
        assert occurrences(ast.parse(template.format(*[NAME] * places)).body, NAME) == places, template
        assert occurrences(ast.parse(template.format(*[DECOY] * places)).body, NAME) == 0, template


@st.composite
def placed(draw) -> tuple[str, int | None]:
    """A program, and the line of the first place filled with the name (None: none is)."""
    text, first = "", None
    for template in draw(st.lists(st.sampled_from(TEMPLATES + INERT), min_size=1, max_size=8)):
        names = draw(st.lists(st.booleans(), min_size=template.count("{}"), max_size=template.count("{}")))
        marked = template.format(*(f"\0{i}\0" for i in range(len(names))))  # where each place stands
        for i, named in enumerate(names):
            if named and first is None:
                first = text.count("\n") + 1 + marked[: marked.index(f"\0{i}\0")].count("\n")
        text += template.format(*(NAME if named else DECOY for named in names))
    return text, first


@settings(max_examples=300, deadline=None)
@given(placed())
def test_the_first_place_naming_it_in_source_order(program):
    text, line = program
    found = first_naming(ast.parse(text).body, NAME)
    assert (found.lineno if found is not None else None) == line, text
