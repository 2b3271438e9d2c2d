# `vjp_bwd = _Rules.bwd`: `_Rules` a plain class statement bound once, whose body binds `bwd`
# by its def alone, only ever read as `_Rules.x`: the lookup finds that function: renamed.
from jax.experimental.hijax import VJPHiPrimitive


class _Rules:
    def bwd(self, res, g):
        return (2 * g,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd = _Rules.bwd
# output
# `vjp_bwd = _Rules.bwd`: `_Rules` a plain class statement bound once, whose body binds `bwd`
# by its def alone, only ever read as `_Rules.x`: the lookup finds that function: renamed.
from jax.experimental.hijax import VJPHiPrimitive


class _Rules:
    def bwd(self, res, g):
        return (2 * g,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd_retval = _Rules.bwd
# findings
