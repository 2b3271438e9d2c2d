# flags: --target-jax 0.8.1
from jax.experimental.hijax import VJPHiPrimitive


class Star(VJPHiPrimitive):
    def __init__(self, *args):
        super().__init__(*args)


class Crowded(VJPHiPrimitive):
    def __init__(self, x):
        self.n = 1; super().__init__((x,), x)


class Mixed(Mixin, VJPHiPrimitive):
    def __init__(self, x):
        super().__init__((x,), x)


class NotAPrimitive:
    def __init__(self, x):
        super().__init__((x,), x)
# findings
# 6 error HJX009 Star: `__init__` call does not read as `(in_avals, out_aval, **params)`: set `self.in_avals`, `self.out_aval` and `self.params` (a dict), then call `super().__init__()` with no arguments
# 11 error HJX009 Crowded: `__init__` call shares its line with other statements: set `self.in_avals`, `self.out_aval` and `self.params` (a dict), then call `super().__init__()` with no arguments
# 16 note HJX009 Mixed: passes arguments to a base `__init__` through several or indirect bases; if it reaches jax's (0.8.1 on): set `self.in_avals`, `self.out_aval` and `self.params` (a dict), then call `super().__init__()` with no arguments
