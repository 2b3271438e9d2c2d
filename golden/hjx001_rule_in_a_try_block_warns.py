from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    try:
        from fast_rules import mul_bwd as vjp_bwd
    except ImportError:
        def vjp_bwd(self, res, g):
            x, y = res
            return (g * y, g * x)
# findings
# 11 error HJX001 Mul: `vjp_bwd` is defined inside a block of the class body (if, try, for...), not each arm of an `if` a plain value rule: which one runs is decided when the code runs; port each by hand
