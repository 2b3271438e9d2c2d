# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive

class Base(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        return x, None


class Child(Base):
    def vjp_fwd(self, x):
        out, res = super().vjp_fwd(x)
        return 2 * out, res
# output
from jax.experimental.hijax import VJPHiPrimitive

class Base(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, nzs_in, x):
        return x, None


class Child(Base):
    def vjp_fwd(self, nzs_in, x):
        out, res = super().vjp_fwd(nzs_in, x)
        return 2 * out, res
