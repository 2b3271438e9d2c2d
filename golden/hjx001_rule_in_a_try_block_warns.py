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
# 9 error HJX016 Mul: `vjp_bwd` is bound by an import inside `try` (`from fast_rules import mul_bwd as vjp_bwd`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
