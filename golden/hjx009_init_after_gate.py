# flags: --target-jax 0.12
from jax.experimental.hijax import NewstyleHiPrimitive


class Pow(NewstyleHiPrimitive):
    def __init__(self, x, power):
        super().__init__((x,), x, power=power)

    def expand(self, x):
        return x ** self.power
# output
from jax.experimental.hijax import HiPrim


class Pow(HiPrim):
    def __init__(self, x, power):
        self.in_avals = (x,)
        self.out_aval = x
        self.params = dict(power=power)
        super().__init__()

    def expand(self, x):
        return x ** self.power
