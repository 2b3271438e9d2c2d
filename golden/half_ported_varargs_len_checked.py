from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, *arg_accums):
        assert len(arg_accums) == 2
        x_acc, y_acc = arg_accums
        x, y = res
        return g * y, g * x
# output
from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, *arg_accums):
        assert len(arg_accums) == 2
        x_acc, y_acc = arg_accums
        x, y = res
        arg_accums[0].accum(g * y)
        arg_accums[1].accum(g * x)
        return None
