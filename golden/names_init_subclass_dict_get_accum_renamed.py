# flags: --strategy accum
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Clipped(VJPHiPrimitive):
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        rule = cls.__dict__.get("vjp_bwd")
        if rule is not None:

            def clipped(self, res, g, _rule=rule):
                return tuple(jnp.clip(c, -1.0, 1.0) for c in _rule(self, res, g))

            setattr(cls, "vjp_bwd", clipped)


class Sq(Clipped):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# output
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Clipped(VJPHiPrimitive):
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        rule = cls.__dict__.get("vjp_bwd_retval")
        if rule is not None:

            def clipped(self, res, g, _rule=rule):
                return tuple(jnp.clip(c, -1.0, 1.0) for c in _rule(self, res, g))

            setattr(cls, "vjp_bwd_retval", clipped)


class Sq(Clipped):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd_retval(self, res, g):
        return (2 * res * g,)
# findings
# 21 note HJX001 Sq: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): it is reached by name at line 8 (`cls.__dict__.get("vjp_bwd")`), which is renamed with it
