"""The project's memo of class kinds never goes stale when summaries are replaced."""

import gc

import libcst as cst

from hijax_migrate.analysis.project import Project
from hijax_migrate.analysis.summary import Kind, summarize

PRIM = "from jax.experimental.hijax import VJPHiPrimitive\nclass Mul(VJPHiPrimitive):\n    pass\n"
PLAIN = "class Quant:\n    pass\n"


def test_kinds_of_freed_classes_are_not_given_to_new_ones():
    project = Project()
    # What the session made before is set aside (gc.freeze): each full
    # collection below still frees all this test made, without walking the
    # whole session's heap 300 times (minutes, late in a long run).
    gc.freeze()
    try:
        for _ in range(300):  # freed objects' ids are reused by the allocator
            prim = summarize(cst.parse_module(PRIM), "m")
            assert project.class_kind(prim.classes[0]) is Kind.VJP
            del prim
            gc.collect()
            plain = summarize(cst.parse_module(PLAIN), "m")
            assert project.class_kind(plain.classes[0]) is Kind.NONE
    finally:
        gc.unfreeze()
