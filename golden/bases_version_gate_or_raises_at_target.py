# flags: --target-jax 0.12
import jax
import jaxlib
from jax.experimental.hijax import HiPrim

_SUPPORTED_VERSION = "0.11.0"

if (jax.__version__ != _SUPPORTED_VERSION or jaxlib.__version__ != _SUPPORTED_VERSION):
    raise ImportError("needs jax 0.11.0")


class Op(HiPrim):
    pass
# findings
# 7 error HJX014 `jax.__version__ != _SUPPORTED_VERSION` (`_SUPPORTED_VERSION = "0.11.0"`, line 5) makes `(jax.__version__ != _SUPPORTED_VERSION or jaxlib.__version__ != _SUPPORTED_VERSION)` hold on jax 0.12.0, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
