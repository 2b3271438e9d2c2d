from jax.experimental.hijax import VJPHiPrimitive


class GradMixin:
    def vjp_bwd(self, res, g):
        return (2 * res * g,)


class Sq(GradMixin, VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x


RULE = vars(GradMixin)["vjp_bwd"]
# findings
# 5 error HJX001 GradMixin: `vjp_bwd` is reached by name at line 14 (`vars(GradMixin)["vjp_bwd"]`): neither a rename nor accumulators would follow it there; port both by hand
