# The function bound is rebound in the module (`_bwd = _wrap(_bwd)`): which value the class
# body reads is not the def's; not proven (refused).
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



def _wrap(rule):
    return rule


_bwd = _wrap(_bwd)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd = _alias = _bwd
# findings
# 22 error HJX001 Lin: `vjp_bwd` is bound by a chained assignment whose value cannot be proven to be a value rule (its value is no function bound once in the module), so a rename is not proven right: port it by hand
