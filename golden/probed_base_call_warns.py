# flags: --target-jax 0.12
from jax.experimental import hijax


def _resolve(*names):
    for name in names:
        if hasattr(hijax, name):
            return getattr(hijax, name)


HiPrim = _resolve("HiPrim", "VJPHiPrimitive")


class Op(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd(self, res, g):
        return (g,)
