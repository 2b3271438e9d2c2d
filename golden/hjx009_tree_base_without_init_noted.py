# flags: --target-jax 0.8.1
from jax.experimental.hijax import NewstyleHiPrimitive


class Base(NewstyleHiPrimitive):
    def expand(self, x):
        return x


class WithInit(NewstyleHiPrimitive):
    def __init__(self, aval, **params):
        super().__init__((aval,), aval, **params)


class Sub(Base):
    def __init__(self, aval):
        super().__init__((aval,), aval, power=3)


class Sub2(WithInit):
    def __init__(self, aval):
        super().__init__(aval, power=3)
# output
from jax.experimental.hijax import VJPHiPrimitive


class Base(VJPHiPrimitive):
    def expand(self, x):
        return x


class WithInit(VJPHiPrimitive):
    def __init__(self, aval, **params):
        self.in_avals = (aval,)
        self.out_aval = aval
        self.params = dict(**params)
        super().__init__()


class Sub(Base):
    def __init__(self, aval):
        super().__init__((aval,), aval, power=3)


class Sub2(WithInit):
    def __init__(self, aval):
        super().__init__(aval, power=3)
# findings
# 16 note HJX009 Sub: passes arguments to a base `__init__` through several or indirect bases; if it reaches jax's (0.8.1 on): set `self.in_avals`, `self.out_aval` and `self.params` (a dict), then call `super().__init__()` with no arguments
