"""A rewrite's code from the code kept of the statements it leaves in place
(``engine.codegen``) is libcst's code generation of it, byte for byte."""

from __future__ import annotations

import random

import libcst as cst
import pytest
from hijax_migrate.engine.codegen import KeptText

from golden import GOLDEN, read_case

ODD = [
    "import a\n\n\n# about B\n@deco  # why\n\n@other(\n    1)\nclass B(a.Base):\n    '''doc'''\n    x = 1; y = 2\n\n"
    "    # trailing, indented\n# trailing, not\n\n    def f(self):\n        if x:\n            return 1\n"
    "        # end of f\n\n\nasync def g():\n    async with a: pass\n# footer\n",
    "x = 1 \\\n  + 2\n\\\ny = 3\nclass C:\n    def f(self): return 1\n    def g(self):\n\n        pass\n",
    "class A:\n\tdef f(self):\n\t\tclass Inner:\n\t\t\tpass\n\t\treturn Inner\n",
    "class A:\n    pass",  # no final newline
    "class A:\r\n    x = 1\r\n",
    "if x:\n    class A:\n        y = 1\nelse:\n    class A:\n        y = 2\n",
]


class _Touch(cst.CSTTransformer):
    """Renames one name in fifty, adds a comment above one line in fifty."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def leave_Name(self, original, updated):
        return updated.with_changes(value=updated.value + "_") if self.random.random() < 0.02 else updated

    def leave_SimpleStatementLine(self, original, updated):
        if self.random.random() < 0.02:
            added = cst.EmptyLine(comment=cst.Comment("# +"))
            return updated.with_changes(leading_lines=[*updated.leading_lines, added])
        return updated


def _agrees(code: str) -> None:
    """A first rewrite, then later ones of it, each generated with the code kept."""
    tree = cst.parse_module(code)
    kept = KeptText()
    first = tree.visit(_Touch(0))
    assert kept.code(first) == first.code
    assert kept.code(first) == first.code  # every statement kept
    for seed in range(1, 4):
        new = first.visit(_Touch(seed))
        assert kept.code(new) == new.code


@pytest.mark.parametrize("code", ODD)
def test_kept_text_is_libcsts_code_of_the_rewrite(code):
    _agrees(code)


def test_kept_text_is_libcsts_code_in_every_golden_case():
    for path in sorted(GOLDEN.glob("*.py")):
        case = read_case(path)
        _agrees(case.source)
        _agrees(case.expected)


def test_a_statement_moved_deeper_is_generated_again():
    code = "class A:\n    def f(self):\n        return 1\n\n\nclass B:\n    pass\n"
    tree = cst.parse_module(code)
    kept = KeptText()
    assert kept.code(tree) == code
    method = tree.body[0].body.body[0]
    inner = tree.body[1].body.with_changes(body=[method], indent="        ")
    new = tree.with_changes(body=[tree.body[0], tree.body[1].with_changes(body=inner)])
    assert kept.code(new) == new.code
    assert kept.code(new.with_changes(default_indent="\t")) == new.with_changes(default_indent="\t").code


def test_code_libcst_changes_is_libcsts():
    """Where libcst's parse loses a byte of the input (a space before an
    ``except``'s colon), a kept statement's code is still libcst's."""
    code = "try:\n    pass\nexcept (A, B) :\n    pass\nclass C:\n    x = 1\n"
    tree = cst.parse_module(code)
    kept = KeptText()
    assert kept.code(tree) == tree.code
    new = tree.visit(_Touch(5))
    assert kept.code(new) == new.code
