"""The same input gives byte-identical output under any hash seed and any
``--jobs``: stdout (text and JSON), the files written and the cache entries.

Subprocesses, since a process's hash seed is fixed when it starts; a few
only: each run covers a tree of tricky inputs (golden cases with several
findings, a family across files, a rule with several accumulator uses)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from golden import GOLDEN, read_case

CASES = (
    "hjx015_aliases_warns",
    "hjx013_removed_names_after_gate_warns",
    "hjx007_derived_mixed_pair_warns",
    "accum_refuses_handed_on_warns",
    "hjx002_fwd_used_outside_fwd_warns",
    "hjx009_init_unreadable_warns",
)
FAMILY = {
    "pkg/__init__.py": "",
    "pkg/base.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n\n"
    "class Base(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g,)\n\n\n"
    "class Other(VJPHiPrimitive):\n    def vjp_bwd(self, res, g):\n        return (g, g)\n",
    "pkg/sub.py": "from . import base\n\nB = base.Base\n\n\nclass Sub(B):\n"
    "    def vjp_bwd(self, res, g, x_acc):\n        x_acc.accum(g)\n\n\n"
    "class Two(base.Other):\n    def debug(self, res, g):\n        return self.vjp_bwd(res, g)\n",
    "pkg/uses.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n\ndef helper(a, b):\n    return a\n\n\n"
    "class Op(VJPHiPrimitive):\n    def vjp_bwd(self, res, g, x_acc, y_acc, z_acc):\n"
    "        print(y_acc)\n        helper(z_acc, 1)\n        k = [x_acc, y_acc]\n"
    "        helper(x_acc, 2)\n        y_acc.accum(g)\n        x_acc.accum(g)\n        return (g, g, g)\n",
}
for _root, _ops in (
    ("proj_a", "from jax.experimental.hijax import VJPHiPrimitive as Base\n"),
    ("proj_b", "class Base:\n    pass\n"),
):  # a monorepo: one package name, two roots
    FAMILY.update(
        {
            f"{_root}/common/__init__.py": "",
            f"{_root}/common/ops.py": _ops,
            f"{_root}/common/layer.py": "from .ops import Base\n\n\nclass Layer(Base):\n"
            "    def vjp_bwd(self, res, g):\n        return (g,)\n",
        }
    )
SEEDS = ("0", "1", "4242")


def _tree(folder: Path) -> None:
    for name in CASES:
        (folder / f"{name}.py").write_text(read_case(GOLDEN / f"{name}.py").source)
    for name, text in FAMILY.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def _run(seed: str, cwd: Path, *args: str, cache: Path | None = None) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "NO_COLOR": "1"}
    env["HIJAX_MIGRATE_CACHE_DIR"] = str(cache) if cache else ""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hijax_migrate",
            "--target-jax",
            "0.12",
            "--color",
            "never",
            *args,
            *([] if cache else ["--no-cache"]),
            ".",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1, 3), done.stderr
    return done.stdout + done.stderr


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_output_files_and_cache_do_not_depend_on_the_hash_seed_or_the_jobs(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    _tree(source)
    seen = []
    for seed, jobs in zip(SEEDS, ("1", "2", "1")):
        work, cache = tmp_path / "work", tmp_path / f"cache{seed}"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(source, work)  # the same path each time: it is part of cache keys
        text = _run(seed, source, "--diff", "--jobs", jobs)
        written = _run(seed, work, "-i", "--output-format", "json", "--jobs", "2" if jobs == "1" else "1", cache=cache)
        entries = {name: data for name, data in _files(cache).items() if not name.startswith("scans")}
        seen.append((text, written, _files(work), entries))
    assert "error" in seen[0][0] and seen[0][3], "the tree must give findings and cache entries to compare"
    for other in seen[1:]:
        for part, (first, then) in enumerate(zip(seen[0], other)):
            assert first == then, f"part {part} differs between hash seeds"
