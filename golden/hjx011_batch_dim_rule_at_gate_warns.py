# flags: --target-jax 0.12
from jax._src.hijax import VmapOf
from jax.experimental.hijax import HiPrim


class OnlyDimRule(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        return dims[0]


class Both(HiPrim):
    def batch(self, axis_data, args, dims):
        return type(self)(self.in_avals[0])(*args), dims[0]

    def batch_dim_rule(self, axis_data, dims):
        return dims[0]


class NotAPrimitive:
    def batch_dim_rule(self, axis_data, dims):
        return dims[0]


def wrap(prim, axis_data, dims):
    return VmapOf(prim, axis_data, dims, 0)
# findings
# 1 error HJX011 `VmapOf` is gone in jax 0.12: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 5 error HJX011 OnlyDimRule: defines `batch_dim_rule` but not `batch`; jax 0.12 no longer calls `batch_dim_rule`, so `vmap` of it fails: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 24 error HJX011 `VmapOf` is gone in jax 0.12: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
