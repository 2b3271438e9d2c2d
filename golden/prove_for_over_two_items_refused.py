# A `for` over two items binds the last (or, after a break, another): not proven (refused).
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



def _slow(self, res, g):
    return (2 * g,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    for vjp_bwd in (_bwd, _slow):
        pass
# findings
# 18 error HJX001 Lin: `vjp_bwd` is bound by a for target whose value cannot be proven to be a value rule (a `for` not over a display of one item binds it 0 or many times), so a rename is not proven right: port it by hand
