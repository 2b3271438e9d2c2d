"""HJX016: a rule bound on a class a function is given (``cls.vjp_bwd = f`` on a parameter,
``setattr(cls, "vjp_bwd", f)``), in a helper module of no class of its own. The helper may be
handed any class of the tree (as a decorator, or called), a primitive among them: a value rule
so bound fails at jax 0.12 ("should return None or a dict ... got tuple"), and the run said
nothing of it. It is an error at the helper's line now, as it was where the module had a class
that may be a primitive; an accumulator rule of the module so bound is right at the target and
stands."""

from __future__ import annotations

from pathlib import Path

import pytest
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk

OPS = """from jax.experimental.hijax import HiPrim

from pkg.helpers import install


@install
class Op(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None
"""
VALUE = "def _bwd(self, res, g):\n    return (g * 2.0,)\n"
ACCUMULATOR = "def _bwd(self, res, g, x_acc):\n    x_acc.accum(g * 2.0)\n"
BINDERS = {
    "attribute": "def install(cls):\n    cls.vjp_bwd = _bwd\n    return cls\n",
    "setattr": "def install(cls):\n    setattr(cls, 'vjp_bwd', _bwd)\n    return cls\n",
    "type.__setattr__": "def install(cls):\n    type.__setattr__(cls, 'vjp_bwd', _bwd)\n    return cls\n",
}


def _findings(root: Path, rule: str, binder: str) -> list:
    files = {"pkg/__init__.py": "", "pkg/ops.py": OPS, "pkg/helpers.py": f"{rule}\n\n{binder}"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    outcomes = run(jobs, Options(target=(0, 12, 0)), in_place=False, workers=1)
    return [(o.file, f.line, f.rule, f.severity) for o in outcomes for f in o.findings]


@pytest.mark.parametrize("binder", sorted(BINDERS))
def test_a_value_rule_a_helper_binds_on_a_given_class_is_an_error(tmp_path, binder):
    line = 6  # the rule (2 lines), two blank lines, ``def install``, then its binding
    assert _findings(tmp_path, VALUE, BINDERS[binder]) == [("pkg/helpers.py", line, "HJX016", "error")]


@pytest.mark.parametrize("binder", sorted(BINDERS))
def test_an_accumulator_rule_so_bound_stands(tmp_path, binder):
    assert _findings(tmp_path, ACCUMULATOR, BINDERS[binder]) == []
