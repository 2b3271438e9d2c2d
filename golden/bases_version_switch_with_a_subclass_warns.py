# flags: --target-jax 0.12
import jax
from jax.experimental.hijax import HiPrim


class Op(HiPrim):
    if jax.__version_info__ >= (0, 11):
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 2.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 2.0,)


class Sub(Op):
    def vjp_bwd(self, res, g):
        return (g * 3.0,)


class Sub2(Op):
    def vjp_bwd_retval(self, res, g):
        return (g * 3.0,)
# output
import jax
from jax.experimental.hijax import HiPrim


class Op(HiPrim):
    if jax.__version_info__ >= (0, 11):
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g * 2.0)
    else:
        def vjp_bwd(self, res, g):
            return (g * 2.0,)


class Sub(Op):
    def vjp_bwd_retval(self, res, g):
        return (g * 3.0,)


class Sub2(Op):
    def vjp_bwd_retval(self, res, g):
        return (g * 3.0,)
# findings
# 7 error HJX001 Op: `vjp_bwd` is defined inside a block of the class body (if, try, for...), not each arm of an `if` a plain value rule: which one runs is decided when the code runs; port each by hand
