# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Bare(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        raise NotImplementedError


class WithMessage(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        """Not batchable: the operands share a buffer."""
        raise NotImplementedError("WithMessage does not support vmap") from None


class OneLine(HiPrim):
    def batch_dim_rule(self, axis_data, dims): raise NotImplementedError()


class RaisesOtherwise(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        raise ValueError("no vmap")


class RaisesAfterWork(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        if dims[0] is None:
            return None
        raise NotImplementedError


class OnlyADocstring(HiPrim):
    def batch_dim_rule(self, axis_data, dims):
        """NotImplementedError"""
# findings
# 4 note HJX011 Bare: `batch_dim_rule` only raises `NotImplementedError`: `vmap` of it fails on jax 0.12 as it did before (the default `batch` raises `NotImplementedError`); nothing to do, unless it should batch: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 9 note HJX011 WithMessage: `batch_dim_rule` only raises `NotImplementedError`: `vmap` of it fails on jax 0.12 as it did before (the default `batch` raises `NotImplementedError`); nothing to do, unless it should batch: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 15 note HJX011 OneLine: `batch_dim_rule` only raises `NotImplementedError`: `vmap` of it fails on jax 0.12 as it did before (the default `batch` raises `NotImplementedError`); nothing to do, unless it should batch: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 19 error HJX011 RaisesOtherwise: defines `batch_dim_rule` but not `batch`; jax 0.12 no longer calls `batch_dim_rule`, so `vmap` of it fails: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 24 error HJX011 RaisesAfterWork: defines `batch_dim_rule` but not `batch`; jax 0.12 no longer calls `batch_dim_rule`, so `vmap` of it fails: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
# 31 error HJX011 OnlyADocstring: defines `batch_dim_rule` but not `batch`; jax 0.12 no longer calls `batch_dim_rule`, so `vmap` of it fails: write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: build the primitive again at the batched avals and apply it to `args`, as jax's own primitives do
