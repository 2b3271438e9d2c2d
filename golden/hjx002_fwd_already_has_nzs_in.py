# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim

class Square(HiPrim):
    def expand(self, x):
        return x * x

    def vjp_fwd(self, nzs_in, x):
        return x * x, x
