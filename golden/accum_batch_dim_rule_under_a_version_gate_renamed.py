# flags: --strategy accum --target-jax 0.10
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x

    if jax.__version_info__ < (0, 12):  # VmapOf, which calls vjp_bwd_retval, batches it there
        def batch_dim_rule(self, axis_data, dims):
            return dims[0]
    else:
        def batch(self, axis_data, args, dims):
            raise NotImplementedError
# output
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return g * y, g * x

    if jax.__version_info__ < (0, 12):  # VmapOf, which calls vjp_bwd_retval, batches it there
        def batch_dim_rule(self, axis_data, dims):
            return dims[0]
    else:
        def batch(self, axis_data, args, dims):
            raise NotImplementedError
# findings
# 9 note HJX001 Mul: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): it is batched through `batch_dim_rule`, whose `VmapOf` calls the value rule `vjp_bwd_retval` (jax up to 0.11.2)
