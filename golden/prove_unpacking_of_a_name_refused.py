# An unpacking of a name (not a display): which item is bound is known only when it runs
# (the tuple may be another by then): not proven (refused).
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



_RULES = (_bwd,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    [vjp_bwd] = _RULES
# findings
# 18 error HJX001 Lin: `vjp_bwd` is bound by an unpacking assignment whose value cannot be proven to be a value rule (its value is no display, or its `vjp_bwd` is nested or starred), so a rename is not proven right: port it by hand
