# flags: --target-jax 0.12.0.1
from jax.experimental.hijax import VJPHiPrimitive


class Loop(VJPHiPrimitive):
    batch_dim_rule = lambda self, axis_data, dims: dims[0]

    def vjp_fwd(self, nzs_in, x):
        return x, x
# output
from jax.experimental.hijax import HiPrim


class Loop(HiPrim):
    batch_dim_rule = lambda self, axis_data, dims: dims[0]

    def vjp_fwd(self, nzs_in, x):
        return x, x
# findings
# 4 error HJX011 Loop: defines `batch_dim_rule` but not `batch`; jax 0.12 no longer calls `batch_dim_rule`, so `vmap` of it fails: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
