# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive


class MulBase(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)


def _mul_bwd(self, res, g):
    x, y = res
    return [g * y, g * x]


Mul = type("Mul", (MulBase,), {"vjp_bwd": _mul_bwd, "name": 'mul'})


class Scaled(Mul):
    def vjp_bwd(self, res, g):
        return super().vjp_bwd(res, g)


def debug(op, res, g):
    return Mul.vjp_bwd(op, res, g)
# output
from jax.experimental.hijax import VJPHiPrimitive


class MulBase(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


Mul = type("Mul", (MulBase,), {"vjp_bwd_retval": _mul_bwd, "name": 'mul'})


class Scaled(Mul):
    def vjp_bwd_retval(self, res, g):
        return super().vjp_bwd_retval(res, g)


def debug(op, res, g):
    return Mul.vjp_bwd_retval(op, res, g)
