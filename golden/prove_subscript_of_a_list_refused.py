# `vjp_bwd = _RULES[0]`, `_RULES` a list (any code may change it before the class runs) or a
# tuple rebound later: the item is not known, still refused.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


_RULES = [_bwd]
_PAIR = (_bwd,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd = _RULES[0]


class Rebound(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd = _PAIR[0]


_PAIR = ()
# findings
# 18 error HJX001 Lin: `vjp_bwd` is bound to `_RULES[0]`, whose form is not visible: check it by hand
# 25 error HJX001 Rebound: `vjp_bwd` is bound to `_PAIR[0]`, whose form is not visible: check it by hand
