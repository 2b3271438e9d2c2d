# flags: --target-jax 0.12
# jax 0.12's hijax module has no `VJPHiPrimitive`: the getattr would fail there, and a
# rename of the rest cannot fix it. The file's rename waits for it: an error.
import jax.experimental.hijax as hijax
from jax.experimental.hijax import VJPHiPrimitive

Base = getattr(hijax, "VJPHiPrimitive")


class Op(VJPHiPrimitive):
    pass
# findings
# 6 error HJX003 `'VJPHiPrimitive'` reads the name by getattr, and jax's hijax module no longer binds it at the target: the rename is left undone in this file; write `'HiPrim'` there (or a name that exists on both sides of a version switch), then run again
