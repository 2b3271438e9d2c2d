# flags: --target-jax 0.12 --strategy accum
from jax.experimental.hijax import VJPHiPrimitive


class MulBase(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


Mul = type('Mul', (MulBase,), {r'vjp_bwd': _mul_bwd})
# output
from jax.experimental.hijax import HiPrim


class MulBase(HiPrim):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


Mul = type('Mul', (MulBase,), {r'vjp_bwd_retval': _mul_bwd})
# findings
# 14 note HJX001 Mul: `type(...)` places `vjp_bwd = _mul_bwd`: the `vjp_bwd` it places renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): the function is not the class's to change
