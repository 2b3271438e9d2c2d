# flags: --target-jax 0.11.2
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
