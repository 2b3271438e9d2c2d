# flags: --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive


class MulBase(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)


def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


def _listed(self, res, g):
    return [g, g]


Mul = type("Mul", (MulBase,), {"vjp_bwd": _mul_bwd})  # a subclass accumulates: no rename
Both = type("Both", (MulBase,), {"vjp_bwd": _mul_bwd, "vjp_bwd_retval": _mul_bwd})
Listed = type("Listed", (MulBase,), {"vjp_bwd": _listed})  # its function is called elsewhere
Spread = type("Spread", (MulBase,), {**{"vjp_bwd": _mul_bwd}})  # members not written out


class Accumulating(Mul):
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x_acc.accum(g)
        y_acc.accum(g)


def make():
    return type("Inner", (MulBase,), {"vjp_bwd": _mul_bwd})  # not bound at module level


ALSO = _listed(None, None, 1.0)
# findings
# 21 note  `type(...)` places `members`: they are not all written out (`**`): if one is a `vjp_bwd` returning cotangents, make its key `"vjp_bwd_retval"` by hand (jax 0.8.1 on)
# 31 error  `type(...)` places `vjp_bwd = _mul_bwd`: it returns cotangents, and jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on; left as written: make its key `"vjp_bwd_retval"` (a value rule), or port it to accumulators, by hand
# 18 error HJX001 Mul: `type(...)` places `vjp_bwd = _mul_bwd`: renaming its key would define both rules (its subclass Accumulating has an accumulator `vjp_bwd`): port by hand
# 19 error HJX001 Both: `type(...)` places `vjp_bwd = _mul_bwd`: the dict places both `vjp_bwd` and `vjp_bwd_retval`; left as written
# 20 error HJX001 Listed: `_listed` returns a list, which jax refuses as a rule's result, and is used outside rule bindings too: make it return a tuple by hand
