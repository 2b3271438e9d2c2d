# flags: --target-jax 0.12
# `importlib.import_module(...)` gives jax's hijax module when the code runs: its
# `.VJPHiPrimitive` is gone at 0.12. The tool cannot tell what the call gives: an error.
import importlib

hijax = importlib.import_module("jax.experimental.hijax")
Base = importlib.import_module("jax.experimental.hijax").VJPHiPrimitive
Other = hijax.VJPHiPrimitive


class Op(Base):
    pass
# findings
# 6 error HJX003 `.VJPHiPrimitive` of an object the code computes (`importlib.import_module("jax.experimental.hijax")`) may be jax's hijax module, which no longer binds it at the target: left as written; write `.HiPrim` if it is
# 7 error HJX003 `.VJPHiPrimitive` of an object the code computes (`hijax`) may be jax's hijax module, which no longer binds it at the target: left as written; write `.HiPrim` if it is
