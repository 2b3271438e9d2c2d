"""Trees whose subclass the subclass search must find however it is spelled
(issue 25): Python reads a class statement after a form feed, across a
backslash, with comments and tabs between its tokens, and its base through an
alias, in the same file or another, or through a subclass in a third file.
Each subclass takes accumulators below a base whose rule returns values: the
base must not be renamed under it (jax: "should not override both").

Run under real jax by test_families, as ``family_cases.TREES``.
"""

from family_cases import ACCUM_RULE, BOTH_FOOTER, DOUBLE, OUT_OF_STEP, TreeCase

_HEAD = "\nimport jax\nimport jax.numpy as jnp\n\nimport base\n"
_FOOTER = BOTH_FOOTER.replace("MulBase(", "base.MulBase(")  # the base named only through its module


def _tree(name: str, main: str, **others: str) -> TreeCase:
    return TreeCase(name, {"base.py": OUT_OF_STEP.files["base.py"], **others, "main.py": main + _FOOTER}, DOUBLE)


RESOLVE_TREES = [
    _tree("subclass_after_a_form_feed", f"{_HEAD}\n\n\fclass Mul(base.MulBase):{ACCUM_RULE}"),
    _tree("subclass_statement_continued_by_a_backslash", f"{_HEAD}\n\nclass \\\nMul(base.MulBase):{ACCUM_RULE}"),
    _tree(
        "subclass_with_comments_and_tabs_between_tokens",
        f"{_HEAD}\n\nclass\tMul (  # the base:\n\tbase . MulBase,  # (a comment)\n):{ACCUM_RULE}",
    ),
    _tree("subclass_of_an_alias_in_its_file", f"{_HEAD}\nB = base.MulBase\n\n\nclass Mul(B):{ACCUM_RULE}"),
    _tree(
        "subclass_of_an_alias_made_in_another_file",
        f"{_HEAD}\nfrom aliases import B\n\n\nclass Mul(B):{ACCUM_RULE}",
        **{"aliases.py": "import base\n\nB = base.MulBase\n"},
    ),
    _tree(
        "subclass_of_a_subclass_in_a_third_file",
        f"{_HEAD}\nfrom mid import Mid\n\n\nclass Mul(Mid):{ACCUM_RULE}",
        **{"mid.py": "from base import MulBase\n\n\nclass Mid(MulBase):\n    pass\n"},
    ),
]
