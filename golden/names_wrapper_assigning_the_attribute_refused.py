import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Clipped(VJPHiPrimitive):
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        rule = cls.__dict__.get("vjp_bwd")
        if rule is not None:

            def clipped(self, res, g, _rule=rule):
                return tuple(jnp.clip(c, -1.0, 1.0) for c in _rule(self, res, g))

            cls.vjp_bwd = clipped  # an attribute: a rename of the string alone would not follow it


class Sq(Clipped):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# findings
# 14 error HJX016 Clipped: `vjp_bwd` is bound by the __init_subclass__ of a base (`cls.vjp_bwd = clipped  # an attribute: a rename of the string alone...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
