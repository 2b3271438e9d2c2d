# `vjp_bwd = _RULES[0]`, `_RULES` a tuple display the module binds once: a tuple cannot
# change, so Python reads the item, a function bound by its def alone: renamed.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


_RULES = (_bwd,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd = _RULES[0]
# output
# `vjp_bwd = _RULES[0]`, `_RULES` a tuple display the module binds once: a tuple cannot
# change, so Python reads the item, a function bound by its def alone: renamed.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


_RULES = (_bwd,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd_retval = _RULES[0]
# findings
