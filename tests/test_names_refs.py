"""References to a rule by name (``getattr(cls, NAME)``, ``vars(cls)["vjp_bwd"]``...) across
the files of a tree: a rule one may reach is left as written, with an error naming the
reference's file, line and form (issue 40, "Account for every reference by name")."""

from __future__ import annotations

import pytest
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from test_project import write

PRIM = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n\n"
    "class Sq(VJPHiPrimitive):\n"
    "    def vjp_fwd(self, nzs_in, x):\n        return x * x, x\n\n"
    "    def vjp_bwd(self, res, g):\n        return (2 * res * g,)\n"
)
HALF = (
    "from prims import Sq\n{imports}\n\n"
    "class Half(Sq):\n"
    "    def vjp_bwd(self, res, g):\n        (d,) = {ref}(self, res, g)\n        return (0.5 * d,)\n"
)


def migrate(root, strategy="rename"):
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    outcomes = run(jobs, Options(target=(0, 10, 0), strategy=strategy), in_place=False, workers=1)
    diffs = {o.file: o.diff for o in outcomes if o.diff}
    errors = [f"{o.file}:{f.line} {f.message}" for o in outcomes for f in o.findings if f.severity == "error"]
    return diffs, errors


@pytest.mark.parametrize("strategy", ["rename", "accum"])
@pytest.mark.parametrize(
    "imports, ref, form",
    [
        ("from names import NAME", "getattr(Sq, NAME)", "getattr(Sq, NAME)"),
        ("from names import NAME as N", "vars(Sq)[N]", "vars(Sq)[N]"),
        ("import operator\nfrom names import NAMES", "operator.attrgetter(NAMES[1])", None),
        ("from names import NAME", "Sq.__dict__.get(NAME)", "Sq.__dict__.get(NAME)"),
    ],
)
def test_a_constant_imported_from_the_tree_is_followed(tmp_path, imports, ref, form, strategy):
    write(
        tmp_path,
        {
            "prims.py": PRIM,
            "names.py": 'NAME = "vjp_" "bwd"\nNAMES = ("vjp_fwd", NAME)\n',
            "half.py": HALF.format(imports=imports, ref=ref),
        },
    )
    diffs, errors = migrate(tmp_path, strategy)
    assert diffs == {}, diffs  # both files byte-identical
    assert any(e.startswith("prims.py:8 ") and "half.py:" in e.split("reached by name at ")[1] for e in errors), errors
    assert any(e.startswith("half.py:") and "reached by name at line" in e for e in errors), errors
    if form is not None:
        assert all(f"(`{form}`" in e for e in errors if "reached by name" in e), errors


@pytest.mark.parametrize("strategy", ["rename", "accum"])
def test_a_base_in_another_file_wrapping_its_subclasses_rules_by_name(tmp_path, strategy):
    write(
        tmp_path,
        {
            "base.py": "from jax.experimental.hijax import VJPHiPrimitive\n\n\n"
            "class Clipped(VJPHiPrimitive):\n"
            "    def __init_subclass__(cls, **kw):\n"
            "        super().__init_subclass__(**kw)\n"
            "        for name in list(vars(cls)):\n"
            "            setattr(cls, name, getattr(cls, name))\n",
            "prims.py": PRIM.replace("VJPHiPrimitive", "Clipped").replace("jax.experimental.hijax", "base"),
        },
    )
    diffs, errors = migrate(tmp_path, strategy)
    assert diffs == {}, diffs
    # the base's __init_subclass__ rebinds names not written out: HJX016 refuses the base's file,
    # and HJX001 the subclass's family, naming the reference there
    by_name = [e.split("reached by name at ")[1] for e in errors if "reached by name at " in e]
    assert by_name and all(w.split(":")[0].endswith("base.py") and "a name not known" in w for w in by_name), errors


def test_a_constant_naming_another_rule_refuses_nothing(tmp_path):
    write(
        tmp_path,
        {
            "prims.py": PRIM,
            "names.py": 'NAME = "vjp_fwd"\n',
            "half.py": "from names import NAME\nfrom prims import Sq\n\n\nFWD = getattr(Sq, NAME)\n",
        },
    )
    diffs, errors = migrate(tmp_path)
    assert errors == [] and "+    def vjp_bwd_retval(self, res, g):" in diffs["prims.py"]
