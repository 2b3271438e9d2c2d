# flags: --target-jax 0.12
# `m = hijax`, bound once at module level to jax's module (through a module of the
# tree too: `c = compat.hijax`): `m.VJPHiPrimitive` is jax's name, renamed.
from jax.experimental import hijax

m = hijax
Base = m.VJPHiPrimitive


class Op(m.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# output
# `m = hijax`, bound once at module level to jax's module (through a module of the
# tree too: `c = compat.hijax`): `m.VJPHiPrimitive` is jax's name, renamed.
from jax.experimental import hijax

m = hijax
Base = m.HiPrim


class Op(m.HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (g,)
# findings
