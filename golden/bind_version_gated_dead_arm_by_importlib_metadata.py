# flags: --target-jax 0.12
# `importlib.metadata.version("jax")` is jax's version, in a class body's gate as in
# HJX014's: the arm jax 0.12 never runs binds nothing there.
import jax
from importlib.metadata import version
from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g):
        return (g * 2.0,)

    if version("jax") < "0.12":  # VmapOf batches through batch_dim_rule
        def batch_dim_rule(self, axis_data, dims):
            return 0
    else:
        def batch(self, axis_data, args, dims):
            return self(*args), dims[0]
# output
# `importlib.metadata.version("jax")` is jax's version, in a class body's gate as in
# HJX014's: the arm jax 0.12 never runs binds nothing there.
import jax
from importlib.metadata import version
from jax.experimental.hijax import HiPrim


class Lin(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)

    if version("jax") < "0.12":  # VmapOf batches through batch_dim_rule
        def batch_dim_rule(self, axis_data, dims):
            return 0
    else:
        def batch(self, axis_data, args, dims):
            return self(*args), dims[0]
# findings
