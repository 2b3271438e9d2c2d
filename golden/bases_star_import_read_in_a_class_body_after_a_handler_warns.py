# flags: --target-jax 0.12
# `except ... as` binds VJPHiPrimitive in the class body and unbinds it when the handler
# ends: the read after it finds the star import's (at 0.11; at 0.12 none, a NameError).
# Renamed, it would break the handler's path; left as it is, the other: an error.
from jax.experimental.hijax import *


class Op:
    try:
        import missing_module
    except ImportError as VJPHiPrimitive:
        pass
    Base = VJPHiPrimitive


class Prim(Op.Base):
    pass
# findings
# 4 error HJX003 `VJPHiPrimitive` comes from a star import and is bound in a class body where it may not run (in an `if`, a loop, a `try`, a handler), and a read there finds jax's star import's otherwise: left as written; import it by name, after the star imports: `from jax.experimental.hijax import HiPrim as VJPHiPrimitive`
