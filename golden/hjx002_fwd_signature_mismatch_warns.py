from jax.experimental.hijax import VJPHiPrimitive

class Odd(VJPHiPrimitive):
    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, a, b, c, d):
        return a, None
