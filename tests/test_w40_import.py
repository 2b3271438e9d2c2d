"""A rule imported into a class body (``from .rules import bwd as vjp_bwd``): what the run
writes, without jax (the gradients: test_w40_import_jax.py). The proof reads another file
(``.rules``): a cached result must follow an edit there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from test_w40_import_jax import HALF, PRIMS, VALUE


def tree(root: Path, rules: str = VALUE) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    for name, text in {"__init__.py": "", "rules.py": rules, "prims.py": PRIMS, "half.py": HALF}.items():
        (pkg / name).write_text(text)
    return pkg


def run(pkg: Path, cache: Path, *flags: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "hijax_migrate", "--target-jax", "0.10", *flags, str(pkg)]
    env = {"HIJAX_MIGRATE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    return subprocess.run(command, capture_output=True, text=True, env=env)


def test_the_as_name_and_the_calls_that_reach_it_are_renamed(tmp_path):
    pkg = tree(tmp_path)
    done = run(pkg, tmp_path / "cache", "-i")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (pkg / "prims.py").read_text() == PRIMS.replace("bwd as vjp_bwd", "bwd as vjp_bwd_retval")
    assert (pkg / "half.py").read_text() == HALF.replace("vjp_bwd", "vjp_bwd_retval")
    assert (pkg / "rules.py").read_text() == VALUE


def test_a_cached_proof_follows_an_edit_of_the_imported_module(tmp_path):
    pkg, cache = tree(tmp_path), tmp_path / "cache"
    assert run(pkg, cache, "--check").returncode == 1  # changes to make, proven
    assert run(pkg, cache, "--check").returncode == 1  # again, from the cache
    (pkg / "rules.py").write_text(VALUE.replace("return (2 * res * g,)", "return [2 * res * g]"))
    refused = run(pkg, cache, "--check")
    assert "prims.py:18: HJX001 Sq: `vjp_bwd` is bound by an import whose function" in refused.stdout + refused.stderr
    assert "returns a list" in refused.stdout + refused.stderr
