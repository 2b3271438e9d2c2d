"""HJX015's triage test (``names_a_removed_helper``), a walk of the lines naming
its words: every form it must see (continued lines too), and the pair forms it must not."""

from __future__ import annotations

import ast

import pytest
from hijax_migrate.rules.removed_helpers import names_a_removed_helper

SEEN = [
    "x = transpose_jvp(f)",
    "y = jax.transpose_linearized",
    "from jax.experimental.hijax import vjp_fwd_from_lin as v",
    "import jax.experimental.hijax.apply_derived_linearization",
    "class P:\n    lin = linearize_from_jvp",
    "Op.lin = hijax.linearize_from_jvp",
    "from jax.experimental.hijax import linearize_from_jvp as lfj\nclass P:\n    lin = lfj",
    "class P:\n    lin = lfj\nfrom jax.experimental.hijax import linearize_from_jvp as lfj",  # the import after
    "from jax.experimental.hijax import (\n    HiPrim,\n    transpose_jvp,\n)",
    "y = (jax\n     .transpose_linearized)",
    "Op.\\\n    lin = hijax.linearize_from_jvp",
    "from jax.experimental.hijax import (\n    linearize_from_jvp as lfj,\n)\nOp.lin = (\n    lfj\n)",
    "x = f'{hjx.vjp_fwd_from_lin}'",
]
NOT_SEEN = [
    "lin, linearized = linearize_from_jvp",
    "lin = other_helper",
    "def _transpose_jvp(): pass",
    "from m import linearize_from_jvp as lfj\nlinear = lfj",
    "lin = lfj",
]


@pytest.mark.parametrize("code", SEEN)
def test_a_removed_helper_is_seen(code):
    assert names_a_removed_helper(ast.parse(code), code)


@pytest.mark.parametrize("code", NOT_SEEN)
def test_the_pair_forms_are_not(code):
    assert not names_a_removed_helper(ast.parse(code), code)
