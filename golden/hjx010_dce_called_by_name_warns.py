# flags: --target-jax 0.12
# `getattr(Op, "dce")(op, used)` calls the rule by a name: given `live_ins`, the call
# would miss it. Left as written, with an error naming the call.
from jax.experimental.hijax import HiPrim


class Op(HiPrim):
    def dce(self, used_outs):
        return used_outs, self


def prune(op, used):
    return getattr(Op, "dce")(op, used)
# findings
# 7 error HJX010 Op: `dce` is called at line 12, outside the class's body, which would miss `live_ins`: left as written; add `live_ins` to `dce` and pass the live inputs there
