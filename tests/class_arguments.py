"""Class statements drawn with any type parameters and argument list: strings and comments
holding brackets and colons, nested brackets, keywords, lines going on (``brackets``' readers are held to
the names Python reads there: ``analysis.naming``, ``tree.class_links``)."""

from __future__ import annotations

import ast

from hypothesis import strategies as st

ARGUMENTS = [
    "Mixin",
    "ops.Mul",
    "B",
    'f("):")',
    "g('''\n):''')",
    "h(x)[0]",
    'k["]"]',
    "metaclass=M",
    "{'a': (1)}",
    "r'\\'):'",
    'rb"):"',
    "lambda: (C)",
    "*bases",
    "(D)",
    "f'{e}):'",
]
SEPARATORS = [", ", ",\n    ", ",  # see f(): x\n    ", ", \\\n    ", ",  # ')\n    "]


# Type parameters (Python 3.12), on one line or several: brackets and colons inside
TYPE_PARAMETERS = ["", "[T]", "[T: (int, str)]", "[T: list[int]]", "[\n    T,\n    *Ts,\n]", "[**P, T: dict[str, int]]"]


@st.composite
def class_statements(draw) -> tuple[str, str]:
    """A module of a class statement (then another), whose type parameters and argument
    list are drawn; and the same without type parameters, which Python 3.11 reads too."""
    arguments = draw(st.lists(st.sampled_from(ARGUMENTS), min_size=1, max_size=6))
    code = "("
    for index, argument in enumerate(arguments):
        code += argument + (draw(st.sampled_from(SEPARATORS)) if index < len(arguments) - 1 else "")
    code += "):\n    pass\nclass Next(Last):\n    pass\n"
    return f"class Sub{draw(st.sampled_from(TYPE_PARAMETERS))}{code}", f"class Sub{code}"


def names_read(code: str) -> list[set[str]] | None:
    """Every name and attribute in each class statement's bases and keywords, as Python
    reads them (None: the code does not compile)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found = []
    for cls in (node for node in tree.body if isinstance(node, ast.ClassDef)):
        parts = [*cls.bases, *(keyword.value for keyword in cls.keywords)]
        read = {node.id for part in parts for node in ast.walk(part) if isinstance(node, ast.Name)}
        found.append(read | {node.attr for part in parts for node in ast.walk(part) if isinstance(node, ast.Attribute)})
    return found
