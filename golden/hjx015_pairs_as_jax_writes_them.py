# flags: --target-jax 0.12
"""Derived rules as jax 0.12's own modules write them: pairs, private helpers
named like the removed ones, and locals called ``lin`` that hold no helper."""
from jax._src.hijax import HiPrim, linearize_from_jvp


def _transpose_jvp(self, res, out_ct):
    return out_ct


class Sin(HiPrim):
    lin, linearized = linearize_from_jvp

    def jvp(self, primals, tangents):
        return primals, tangents


def pick_rule(table, prim, fallback):
    lin = table.get(prim, fallback)
    return lin
# findings
