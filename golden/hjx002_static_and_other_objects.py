from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def expand(self, x):
        return x * x

    @staticmethod
    def vjp_fwd(x):
        return x * x, x


class Quantized(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        y, res = self.quantizer.vjp_fwd(x)
        return y, res
# output
from jax.experimental.hijax import VJPHiPrimitive

class Square(VJPHiPrimitive):
    def expand(self, x):
        return x * x

    @staticmethod
    def vjp_fwd(nzs_in, x):
        return x * x, x


class Quantized(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, nzs_in, x):
        y, res = self.quantizer.vjp_fwd(x)
        return y, res
