# flags: --target-jax 0.12
try:
    from jax.experimental.hijax import VJPHiPrimitive
    HAS_HIJAX = True
except ImportError:
    HAS_HIJAX = False

if HAS_HIJAX:
    class Op(VJPHiPrimitive):
        def vjp_bwd_retval(self, res, g):
            return (g,)
# output
try:
    from jax.experimental.hijax import HiPrim
    HAS_HIJAX = True
except ImportError:
    HAS_HIJAX = False

if HAS_HIJAX:
    class Op(HiPrim):
        def vjp_bwd_retval(self, res, g):
            return (g,)
