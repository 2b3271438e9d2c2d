# flags: --target-jax 0.12
class NS:
    from jax.experimental.hijax import VJPHiPrimitive

    class Op(VJPHiPrimitive):
        def vjp_bwd(self, res, g):
            return (g * 2.0,)


class Other(NS.VJPHiPrimitive):
    pass
# output
class NS:
    from jax.experimental.hijax import HiPrim as VJPHiPrimitive

    class Op(VJPHiPrimitive):
        def vjp_bwd_retval(self, res, g):
            return (g * 2.0,)


class Other(NS.VJPHiPrimitive):
    pass
