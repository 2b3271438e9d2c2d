# flags: --target-jax 0.12
# The arm a version gate never runs at the target binds nothing there: jax 0.12
# never sees this batch_dim_rule, and the class's batch is the taken arm's.
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g):
        return (g * 2.0,)

    if jax.__version_info__ < (0, 12):  # VmapOf batches through batch_dim_rule
        def batch_dim_rule(self, axis_data, dims):
            return 0
    else:
        def batch(self, axis_data, args, dims):
            return self(*args), dims[0]
# output
# The arm a version gate never runs at the target binds nothing there: jax 0.12
# never sees this batch_dim_rule, and the class's batch is the taken arm's.
import jax
from jax.experimental.hijax import HiPrim


class Lin(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)

    if jax.__version_info__ < (0, 12):  # VmapOf batches through batch_dim_rule
        def batch_dim_rule(self, axis_data, dims):
            return 0
    else:
        def batch(self, axis_data, args, dims):
            return self(*args), dims[0]
