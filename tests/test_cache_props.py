"""The cache's key covers everything that changes the output, by property:
for random changes between runs (a file edited, black's settings edited,
other options), a warm run prints what a run without the cache prints.

``HIJAX_CACHE_EXAMPLES`` raises the number of cases (the suite runs a few
dozen; the measurement in docs/safety.md ran hundreds).
"""

from __future__ import annotations

import os
from pathlib import Path

from hijax_migrate.cli import main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("HIJAX_CACHE_EXAMPLES", "20"))
BASES = {
    "primitive": "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Base(VJPHiPrimitive):\n    pass\n",
    "plain": "class Base:\n    pass\n",
}
OPS = {
    "short": "from pkg.base import Base\n\n\nclass Op(Base):\n    def vjp_bwd(self, res, g):\n        return (g, g)\n",
    "long": (
        "from pkg.base import Base\n\n\nclass Op(Base):\n"
        "    def vjp_bwd(self, residuals_of_the_forward_pass, cotangent_of_output):\n"
        "        return ('a', cotangent_of_output)\n"
    ),
    "done": (
        "from pkg.base import Base\n\n\nclass Op(Base):\n    def vjp_bwd_retval(self, res, g):\n        return (g, g)\n"
    ),
}
BLACK = {
    "none": "",
    "narrow": "[tool.black]\nline-length = 30\n",
    "wide": "[tool.black]\nline-length = 120\n",
    "quotes": "[tool.black]\nline-length = 40\nskip-string-normalization = true\n",
}
FLAGS = {
    "plain": [],
    "black": ["--black"],
    "0.12": ["--target-jax", "0.12"],
    "0.12-black": ["--target-jax", "0.12", "--black"],
}
STEPS = st.one_of(
    st.tuples(st.just("base"), st.sampled_from(sorted(BASES))),
    st.tuples(st.just("ops"), st.sampled_from(sorted(OPS))),
    st.tuples(st.just("black"), st.sampled_from(sorted(BLACK))),
    st.tuples(st.just("flags"), st.sampled_from(sorted(FLAGS))),
)


class Tree:
    def __init__(self, root: Path):
        self.root, self.flags = root, FLAGS["black"]
        (root / "pkg").mkdir(parents=True, exist_ok=True)
        (root / ".git").mkdir(exist_ok=True)  # the project's top, for black and the tool
        (root / "pkg" / "__init__.py").write_text("")
        for step in [("base", "primitive"), ("ops", "long"), ("black", "narrow")]:
            self.apply(step)

    def apply(self, step: tuple[str, str]) -> None:
        kind, variant = step
        if kind == "flags":
            self.flags = FLAGS[variant]
            return
        name, text = {"base": ("pkg/base.py", BASES), "ops": ("pkg/ops.py", OPS), "black": ("pyproject.toml", BLACK)}[
            kind
        ]
        (self.root / name).write_text(text[variant])


def run(capsys, flags: list[str], cached: bool) -> tuple[int, str, str]:
    code = main(["--target-jax", "0.10", *flags, "-j", "1", *([] if cached else ["--no-cache"]), "pkg"])
    out, err = capsys.readouterr()
    return code, out, err


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEPS, min_size=1, max_size=4))
def test_a_warm_run_prints_what_a_run_without_the_cache_prints(tmp_path_factory, monkeypatch, capsys, steps):
    root = tmp_path_factory.mktemp("tree")
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(root / ".cache"))
    monkeypatch.chdir(root)
    tree = Tree(root)
    run(capsys, tree.flags, cached=True)  # the cache holds the first state's results
    for step in steps:
        tree.apply(step)
        warm = run(capsys, tree.flags, cached=True)
        assert warm == run(capsys, tree.flags, cached=False), f"after {step}"


def test_black_settings_change_the_output(tmp_path, monkeypatch, capsys):
    """The property's changes matter: the narrow and wide settings format differently."""
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path / ".cache"))
    monkeypatch.chdir(tmp_path)
    tree = Tree(tmp_path)
    narrow = run(capsys, tree.flags, cached=True)
    tree.apply(("black", "wide"))
    wide = run(capsys, tree.flags, cached=True)
    assert narrow[1] != wide[1] and "residuals_of_the_forward_pass,\n" in narrow[1]
