# flags: --target-jax 0.12
class NS:
    import jax.experimental.hijax as hjx
    import jax.experimental.hijax


class Op(NS.hjx.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)


class Op2(NS.jax.experimental.hijax.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# output
class NS:
    import jax.experimental.hijax as hjx
    import jax.experimental.hijax


class Op(NS.hjx.HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)


class Op2(NS.jax.experimental.hijax.HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)
