# flags: --target-jax 0.12
# `Op.dce(op, used)` calls the rule through the class's name: given `live_ins`, the
# call would miss it (a TypeError), and no rewrite of the class changes the call.
from jax.experimental.hijax import HiPrim


class Op(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)

    def dce(self, used_outs):
        return used_outs, self


def prune(op, used):
    return Op.dce(op, used)
# findings
# 13 error HJX010 Op: `dce` is called at line 18, outside the class's body, which would miss `live_ins`: left as written; add `live_ins` to `dce` and pass the live inputs there
