"""Whole class families and names resolved by scope, under a real jax."""

from __future__ import annotations

import sys

import pytest

from family_cases import FWD_CASES, JAX_012_ONLY
from test_semantics import HAS_JAX_HERE, JAX_012, PY312, check_case

SINGLE_FILE = FWD_CASES
needs_jax = pytest.mark.skipif(not HAS_JAX_HERE, reason="jax is not installed for this Python")
needs_012 = pytest.mark.skipif(not (JAX_012 or "").startswith("0.12"), reason="needs HIJAX_PY312 with jax 0.12")


@pytest.mark.jax
@needs_jax
@pytest.mark.parametrize("case", SINGLE_FILE, ids=lambda c: c.name)
def test_single_file_under_jax_010(case, tmp_path):
    check_case(case, sys.executable, "0.10", tmp_path)


@pytest.mark.jax
@needs_012
@pytest.mark.parametrize("case", SINGLE_FILE + JAX_012_ONLY, ids=lambda c: c.name)
def test_single_file_under_jax_012(case, tmp_path):
    check_case(case, PY312, "0.12", tmp_path)
