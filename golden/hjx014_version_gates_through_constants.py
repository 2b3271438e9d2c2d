# flags: --target-jax 0.12
import os

import jax
from jax.experimental.hijax import HiPrim

_SUPPORTED = "0.11.0"
_INFO: tuple = (0, 11, 0)
_REBOUND = "0.11.0"
_REBOUND = os.environ.get("JAX_PIN", _REBOUND)
_COMPUTED = ".".join(["0", "11", "0"])

if jax.__version__ != _SUPPORTED:
    raise ImportError(f"these primitives need jax {_SUPPORTED}")


def check():
    assert jax.__version_info__ == _INFO


def uses_a_local():
    _SUPPORTED = "0.12.0"
    return _SUPPORTED == jax.__version__


ON_PIN = jax.__version__ == _REBOUND  # rebound: not a constant
ON_COMPUTED = jax.__version__ == _COMPUTED  # not a literal


class Op(HiPrim):
    def newest(self):
        return jax.__version__ == _SUPPORTED
# findings
# 12 error HJX014 `jax.__version__ != _SUPPORTED` (`_SUPPORTED = "0.11.0"`, line 6) fails on every jax release but one, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 17 error HJX014 `jax.__version_info__ == _INFO` (`_INFO: tuple = (0, 11, 0)`, line 7) fails on every jax release but one, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 31 note HJX014 `jax.__version__ == _SUPPORTED` (`_SUPPORTED = "0.11.0"`, line 6) holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
