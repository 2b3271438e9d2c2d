from jax.experimental.hijax import VJPHiPrimitive


class GradMixin:
    def vjp_bwd(self, res, g):
        return (g * res,)


class Tanh(GradMixin, VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x, 1.0 - x * x


class Quantizer(GradMixin):
    def run(self, res, g):
        return self.vjp_bwd(res, g)
