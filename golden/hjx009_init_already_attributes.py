# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Pow(HiPrim):
    def __init__(self, x, power):
        self.in_avals = (x,)
        self.out_aval = x
        self.params = dict(power=power)
        super().__init__()


class Sub(Pow):
    def __init__(self, x):
        super().__init__(x, 2)  # the project's own base: not jax's constructor
# findings
