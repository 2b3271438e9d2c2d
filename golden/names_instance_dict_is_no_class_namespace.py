# An instance's own __dict__ holds no class attribute: reading it, or updating
# it from the constructor's parameters (as jax's own base does), reaches no rule.
from jax.experimental.hijax import VJPHiPrimitive


class Base(VJPHiPrimitive):
    def __init__(self, aval, **params):
        self.in_avals, self.out_aval, self.params = (aval,), aval, params
        self.__dict__.update(params)
        super().__init__()

    def option(self, key):
        return vars(self).get(key)


class Scale(Base):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# output
# An instance's own __dict__ holds no class attribute: reading it, or updating
# it from the constructor's parameters (as jax's own base does), reaches no rule.
from jax.experimental.hijax import VJPHiPrimitive


class Base(VJPHiPrimitive):
    def __init__(self, aval, **params):
        self.in_avals, self.out_aval, self.params = (aval,), aval, params
        self.__dict__.update(params)
        super().__init__()

    def option(self, key):
        return vars(self).get(key)


class Scale(Base):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)
