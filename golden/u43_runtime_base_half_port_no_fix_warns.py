# flags: --unsafe-fixes
from jax.experimental.hijax import VJPHiPrimitive

_BASES = (VJPHiPrimitive,)


class Op(_BASES[0]):
    def vjp_bwd(self, res, g, x_acc):
        return (3 * g,)
# findings
# 6 error  Op: its base is reached through `_BASES` (line 3), bound when the code runs, and its `vjp_bwd` returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
