# flags: --target-jax 0.12
# A lambda's body is what it returns: this one takes accumulators by `*a`, yet returns a
# tuple, which jax 0.12 refuses from `vjp_bwd`. Its form is not shown: an error.
from jax.experimental.hijax import HiPrim


class Op(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    vjp_bwd = lambda *a: (a[2] * 2.0,)
# findings
# 10 error HJX001 Op: `vjp_bwd` is bound to `lambda *a: (a[2] * 2.0,)`, whose form is not visible: check it by hand
