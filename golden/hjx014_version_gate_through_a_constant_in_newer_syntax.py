# flags: --target-jax 0.12
"""A module this Python's ast cannot read (a 3.12 generic class): the constant is
found all the same, by libcst's scopes, and the gate reported as where ast reads it."""
import jax
from jax.experimental.hijax import HiPrim

_SUPPORTED = "0.11.0"
if jax.__version__ != _SUPPORTED:
    raise ImportError("needs jax 0.11.0")


class Op[T](HiPrim):
    def newest(self):
        return jax.__version__ == _SUPPORTED
# findings
# 7 error HJX014 `jax.__version__ != _SUPPORTED` (`_SUPPORTED = "0.11.0"`, line 6) fails on every jax release but one, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 13 note HJX014 `jax.__version__ == _SUPPORTED` (`_SUPPORTED = "0.11.0"`, line 6) holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
