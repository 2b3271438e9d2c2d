# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive


class Affine(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, w, b):
        return x * w + b, (x, w)

    def vjp_bwd(self, res, g):
        x, w = res
        return (  # one cotangent per input
            g * w,  # d/dx
            # the weight's, summed over the batch
            (g * x).sum(0),
            None,  # b has a zero cotangent
            # nothing after this
        )
# output
from jax.experimental.hijax import VJPHiPrimitive


class Affine(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, w, b):
        return x * w + b, (x, w)

    def vjp_bwd(self, res, g, x_acc, w_acc, b_acc):
        x, w = res
        # one cotangent per input
        x_acc.accum(g * w)  # d/dx
        # the weight's, summed over the batch
        w_acc.accum((g * x).sum(0))
        # b has a zero cotangent
        # nothing after this
        return None
