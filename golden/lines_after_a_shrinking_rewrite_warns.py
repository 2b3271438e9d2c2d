# flags: --target-jax 0.12
"""Findings name the lines of the file as it is, though HJX007's pairs above
shrank the text the later rules read (FINDINGS N11)."""
from jax.experimental.hijax import (HiPrimitive, VJPHiPrimitive, linearize_from_jvp,
                                    apply_derived_linearization, vjp_fwd_from_jvp,
                                    transpose_jvp)


class Sin(VJPHiPrimitive):
    lin = linearize_from_jvp
    linearized = apply_derived_linearization
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return self(x, y), (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        a = x_acc  # the line the message names
        a.accum(g * y)
        return g * y, g * x


class Old(HiPrimitive):
    def abstract_eval(self, x):
        return x, set()
# output
"""Findings name the lines of the file as it is, though HJX007's pairs above
shrank the text the later rules read (FINDINGS N11)."""
from jax.experimental.hijax import (vjp_from_jvp, HiPrimitive, HiPrim, linearize_from_jvp)


class Sin(HiPrim):
    lin, linearized = linearize_from_jvp
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp


class Mul(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return self(x, y), (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        a = x_acc  # the line the message names
        a.accum(g * y)
        return g * y, g * x


class Old(HiPrimitive):
    def abstract_eval(self, x):
        return x, set()
# findings
# 19 error HJX001 Mul: `x_acc` is stored or handed on (line 21): whether it is written cannot be decided; write the accumulators by hand
# 26 error HJX008 Old: subclasses `HiPrimitive`, a `core.Primitive` subclass removed in jax 0.11.2; no mechanical rewrite exists: port it to `HiPrim` by hand (`abstract_eval` becomes `self.out_aval` set in `__init__`, `to_lojax` becomes `expand`, autodiff rules become `vjp_fwd`/`vjp_bwd`)
