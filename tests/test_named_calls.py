"""A rule whose signature a rule changes, called through the class's name in another
module (``rules/named_calls.py``): HJX002's ``vjp_fwd`` (``Op.vjp_fwd(op, x)``) and
HJX010's ``dce`` (``Op.dce(op, used)``) keep their signatures, with an error naming the
call: given the new parameter, the call there would miss an argument (a TypeError), and
the run said nothing. A subclass in another module passing ``super().vjp_fwd(x)`` on from
its own ``vjp_fwd`` is its family's: both gain ``nzs_in``, as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk

OPS = """from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g):
        return (g * 2.0,)
"""


def _migrated(root: Path, files: dict[str, str]):
    for name, text in {"pkg/__init__.py": "", "pkg/ops.py": OPS, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    target = (0, 12, 0) if "dce" in files.get("pkg/ops.py", "") else (0, 10, 0)
    return run(jobs, Options(target=target), in_place=False, workers=1)


def test_a_call_through_the_class_name_in_another_module_keeps_the_signature(tmp_path):
    use = "from pkg.ops import Op\n\n\ndef forward(op, x):\n    return Op.vjp_fwd(op, x)\n"
    outcomes = _migrated(tmp_path, {"pkg/use.py": use})
    errors = [(o.file, f.line, f.rule) for o in outcomes for f in o.findings if f.severity == "error"]
    assert errors == [("pkg/ops.py", 5, "HJX002")]
    message = next(f.message for o in outcomes for f in o.findings)
    assert "use.py:5" in message and "lacks `nzs_in`" in message
    diff = next(o.diff for o in outcomes if o.file == "pkg/ops.py")
    assert "+    def vjp_fwd(self, nzs_in, x):" not in diff


def test_a_subclass_passing_it_on_from_its_own_vjp_fwd_gains_it_with_its_base(tmp_path):
    sub = "from pkg.ops import Op\n\n\nclass Sub(Op):\n    def vjp_fwd(self, x):\n        return super().vjp_fwd(x)\n"
    diffs = {o.file: o.diff for o in _migrated(tmp_path, {"pkg/sub.py": sub})}
    assert "+    def vjp_fwd(self, nzs_in, x):" in diffs["pkg/ops.py"]
    assert "+        return super().vjp_fwd(nzs_in, x)" in diffs["pkg/sub.py"]


DCE = """from jax.experimental.hijax import HiPrim


class Op(HiPrim):
    def dce(self, used_outs):
        return used_outs, self
"""


# A call of ``dce`` in another module, through the class's name or by a name (``name_refs``)
CALLS = {"through the class": "Op.dce(op, used)", "by a name": "getattr(Op, 'dce')(op, used)"}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_dce_called_in_another_module_keeps_its_signature(tmp_path, call):
    use = f"from pkg.ops import Op\n\n\ndef prune(op, used):\n    return {CALLS[call]}\n"
    outcomes = _migrated(tmp_path, {"pkg/ops.py": DCE, "pkg/use.py": use})
    errors = [(o.file, f.line, f.rule) for o in outcomes for f in o.findings if f.severity == "error"]
    assert errors == [("pkg/ops.py", 5, "HJX010")]
    assert not any(o.diff for o in outcomes)


def test_a_dce_no_module_calls_by_name_gains_live_ins(tmp_path):
    use = "from pkg.ops import Op\n\n\ndef prune(op, used):\n    return op.dce(used, ())\n"
    diffs = {o.file: o.diff for o in _migrated(tmp_path, {"pkg/ops.py": DCE, "pkg/use.py": use})}
    assert "+    def dce(self, used_outs, live_ins):" in diffs["pkg/ops.py"]


def test_a_subclass_delegating_from_its_own_dce_gains_it_with_its_base(tmp_path):
    sub = "from pkg.ops import Op\n\n\nclass Sub(Op):\n    def dce(self, used_outs):\n"
    sub += "        return Op.dce(self, used_outs)\n"
    diffs = {o.file: o.diff for o in _migrated(tmp_path, {"pkg/ops.py": DCE, "pkg/sub.py": sub})}
    assert "+    def dce(self, used_outs, live_ins):" in diffs["pkg/ops.py"]
    assert "+        return Op.dce(self, used_outs, live_ins)" in diffs["pkg/sub.py"]


def test_the_module_is_walked_once_a_rule_whatever_the_classes_asked(tmp_path, monkeypatch):
    """Each class's ``vjp_fwd`` asks for this file's calls and references by name: the
    module is walked for them once (a walk of jax's 86 kB test module per class, before);
    the answers are those of a walk each."""
    from hijax_migrate.rules import named_calls

    classes = "".join(OPS.split("\n\n\n", 1)[1].replace("class Op", f"class Op{n}") + "\n\n" for n in range(4))
    ops = (
        OPS.split("\n\n\n", 1)[0] + "\n\n\n" + classes + "def use(op, x):\n    return getattr(Op2, 'vjp_fwd')(op, x)\n"
    )
    walks = []
    for name in ("file_uses", "file_named_uses"):
        real = getattr(named_calls, name)
        monkeypatch.setattr(named_calls, name, lambda *args, real=real, name=name: walks.append(name) or real(*args))
    outcomes = _migrated(tmp_path, {"pkg/ops.py": ops})
    assert sorted(walks) == ["file_named_uses", "file_uses"]
    errors = [(f.line, f.rule) for o in outcomes for f in o.findings if f.severity == "error"]
    assert errors == [(21, "HJX002")]  # Op2's, called by a name: the others gain `nzs_in`
    diff = next(o.diff for o in outcomes if o.file == "pkg/ops.py")
    assert diff.count("+    def vjp_fwd(self, nzs_in, x):") == 3
