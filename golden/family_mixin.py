from jax.experimental.hijax import VJPHiPrimitive


class GradMixin:
    def vjp_bwd(self, res, g):
        return (g * res,)

    def debug(self, res, g):
        return self.vjp_bwd(res, g)


class Tanh(GradMixin, VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, 1.0 - x * x


class Sigmoid(GradMixin, VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x * (1.0 - x)
# output
from jax.experimental.hijax import VJPHiPrimitive


class GradMixin:
    def vjp_bwd_retval(self, res, g):
        return (g * res,)

    def debug(self, res, g):
        return self.vjp_bwd_retval(res, g)


class Tanh(GradMixin, VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, 1.0 - x * x


class Sigmoid(GradMixin, VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, x * (1.0 - x)
