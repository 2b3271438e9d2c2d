# flags: --strategy accum --target-jax 0.10
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x

    # up to jax 0.11.2 the default batch wraps the primitive in VmapOf, whose
    # backward rule calls vjp_bwd_retval: accumulators would break grad of vmap
    def batch_dim_rule(self, axis_data, dims):
        return dims[0]
# output
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return g * y, g * x

    # up to jax 0.11.2 the default batch wraps the primitive in VmapOf, whose
    # backward rule calls vjp_bwd_retval: accumulators would break grad of vmap
    def batch_dim_rule(self, axis_data, dims):
        return dims[0]
# findings
# 8 note HJX001 Mul: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): it is batched through `batch_dim_rule`, whose `VmapOf` calls the value rule `vjp_bwd_retval` (jax up to 0.11.2)
