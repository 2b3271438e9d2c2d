from jax.experimental.hijax import VJPHiPrimitive

class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, acc):
        x, y = res
        return (g * y,)
