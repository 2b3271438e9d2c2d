# flags: --target-jax 0.12
# A module function bound as `dce` and called through the class's name: given
# `live_ins`, the call would miss it. Left as written, with an error at the function.
from jax.experimental.hijax import HiPrim


def _dce(self, used_outs):
    return used_outs, self


class Op(HiPrim):
    dce = _dce


def prune(op, used):
    return Op.dce(op, used)
# findings
# 6 error HJX010 Op: `dce` is called at line 15, outside the class's body, which would miss `live_ins`: left as written; add `live_ins` to `dce` and pass the live inputs there
