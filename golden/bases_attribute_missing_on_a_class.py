from jax.experimental.hijax import VJPHiPrimitive


class NS:
    pass


class Op(NS.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
