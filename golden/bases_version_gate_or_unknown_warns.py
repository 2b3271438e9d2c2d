# flags: --target-jax 0.11.0
import jax
import jaxlib
from jax.experimental.hijax import VJPHiPrimitive

_SUPPORTED_VERSION = "0.11.0"

if (jax.__version__ != _SUPPORTED_VERSION or jaxlib.__version__ != _SUPPORTED_VERSION):
    raise ImportError("needs jax 0.11.0")


class Op(VJPHiPrimitive):
    pass
# findings
# 7 note HJX014 `jax.__version__ != _SUPPORTED_VERSION` (`_SUPPORTED_VERSION = "0.11.0"`, line 5) holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
