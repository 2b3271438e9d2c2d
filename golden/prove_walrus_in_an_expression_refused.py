# A walrus inside another statement's expression: not read, so not proven (refused).
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    _spare = (vjp_bwd := _bwd)
# findings
# 10 error HJX001 Lin: `vjp_bwd` is bound by a statement whose value cannot be proven to be a value rule (a binding of `vjp_bwd` whose value is not read), so a rename is not proven right: port it by hand
