# flags: --target-jax 0.8.0
from jax.experimental.hijax import NewstyleHiPrimitive


class Mul(NewstyleHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g, g)
