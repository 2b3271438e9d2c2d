# flags: --target-jax 0.12
# The arm the target runs binds batch_dim_rule inside a block, with no batch:
# jax 0.12 never calls it, and no rule follows a def in a block: an error.
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Other(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    if jax.__version_info__ >= (0, 12):
        def batch_dim_rule(self, axis_data, dims):
            return 0
# findings
# 12 error HJX016 Other: `batch_dim_rule` is bound by a def inside `if` (`def batch_dim_rule(self, axis_data, dims):`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
