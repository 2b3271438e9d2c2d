import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


def clip_cotangents(cls):
    rule = vars(cls)["vjp_bwd"]

    def clipped(self, res, g):
        return tuple(jnp.clip(c, -1.0, 1.0) for c in rule(self, res, g))

    cls.vjp_bwd = clipped
    return cls


@clip_cotangents
class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# findings
# 11 error HJX016 Sq: `vjp_bwd` is bound by a class decorator (`cls.vjp_bwd = clipped`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
