from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd(self, res, g):
        return (g * res,)

    def debug(self, res, g):
        return self.vjp_bwd(res, g)


class Holder:
    def __init__(self):
        self.prim = Op()

    def run(self, res, g):
        return self.prim.vjp_bwd(res, g), self.vjp_bwd(res, g)

    def vjp_bwd(self, res, g):
        return g


def check(res, g):
    op = Op()
    overridden = type(op).vjp_bwd is not VJPHiPrimitive.vjp_bwd
    return op.vjp_bwd(res, g), Op.vjp_bwd(op, res, g), overridden
# output
from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x

    def vjp_bwd_retval(self, res, g):
        return (g * res,)

    def debug(self, res, g):
        return self.vjp_bwd_retval(res, g)


class Holder:
    def __init__(self):
        self.prim = Op()

    def run(self, res, g):
        return self.prim.vjp_bwd(res, g), self.vjp_bwd(res, g)

    def vjp_bwd(self, res, g):
        return g


def check(res, g):
    op = Op()
    overridden = type(op).vjp_bwd is not VJPHiPrimitive.vjp_bwd
    return op.vjp_bwd(res, g), Op.vjp_bwd_retval(op, res, g), overridden
# findings
# 20 note HJX001 `self.prim.vjp_bwd` is left as written: on an instance of `Op` it now reaches jax's accumulator `vjp_bwd`, not the value rule (renamed `vjp_bwd_retval`): write `.vjp_bwd_retval` there if so
# 28 note HJX001 `type(op).vjp_bwd` is left as written: on an instance of `Op` it now reaches jax's accumulator `vjp_bwd`, not the value rule (renamed `vjp_bwd_retval`): write `.vjp_bwd_retval` there if so
# 29 note HJX001 `op.vjp_bwd` is left as written: on an instance of `Op` it now reaches jax's accumulator `vjp_bwd`, not the value rule (renamed `vjp_bwd_retval`): write `.vjp_bwd_retval` there if so
