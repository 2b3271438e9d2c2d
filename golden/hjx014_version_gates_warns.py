# flags: --target-jax 0.12
from importlib.metadata import version

import jax
from jax.experimental.hijax import HiPrim

if jax.__version__ != "0.11.0":
    raise ImportError("these primitives need jax 0.11.0")

assert jax.__version_info__ == (0, 11, 0)

USE_NEW = version("jax") == "0.11.2"

if jax.__version_info__ >= (0, 11, 2):  # a range: fine
    pass


class Op(HiPrim):
    pass
# findings
# 6 error HJX014 `jax.__version__ != "0.11.0"` fails on every jax release but one, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 9 error HJX014 `jax.__version_info__ == (0, 11, 0)` fails on every jax release but one, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 11 note HJX014 `version("jax") == "0.11.2"` holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
