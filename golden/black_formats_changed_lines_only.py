# flags: --black --strategy accum
from jax.experimental.hijax import VJPHiPrimitive
untouched   =   [1,2,  3]   # black would reformat this line, but it is not ours


class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, weights):
        return x*weights, (x, weights)

    def vjp_bwd(self, res, g):
        x, weights = res
        return (g*weights*some_function_with_a_long_name(x, weights, "an argument that makes it long"), g*x)
# output
from jax.experimental.hijax import VJPHiPrimitive
untouched   =   [1,2,  3]   # black would reformat this line, but it is not ours


class Scale(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, weights):
        return x*weights, (x, weights)

    def vjp_bwd(self, res, g, x_acc, weights_acc):
        x, weights = res
        x_acc.accum(
            g
            * weights
            * some_function_with_a_long_name(
                x, weights, "an argument that makes it long"
            )
        )
        weights_acc.accum(g * x)
        return None
