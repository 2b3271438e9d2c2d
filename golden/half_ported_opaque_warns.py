from jax.experimental.hijax import VJPHiPrimitive

class Helper(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    def vjp_bwd(self, res, g, x_acc):
        return write_all(g, x_acc)
