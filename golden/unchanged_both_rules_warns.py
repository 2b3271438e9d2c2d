from jax.experimental.hijax import VJPHiPrimitive

class Both(VJPHiPrimitive):
    """A test that defines both rules on purpose, to check the error."""

    def vjp_bwd(self, res, g):
        return (g,)

    def vjp_bwd_retval(self, res, g):
        return (g,)
