# flags: --target-jax 0.12
from jax.experimental import hijax

class Op(hijax.VJPHiPrimitive if True else hijax.VJPHiPrimitive):
    pass

class Op2(hijax.VJPHiPrimitive if True else hijax.HiPrim):
    pass
# output
from jax.experimental import hijax

class Op(hijax.HiPrim if True else hijax.HiPrim):
    pass

class Op2(hijax.VJPHiPrimitive if True else hijax.HiPrim):
    pass
