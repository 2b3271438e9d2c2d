# flags: --target-jax 0.12
import jax
from jax.experimental.hijax import HiPrim

_PINNED = (0, 11, 0)
_NEWEST = "0.11.2"

# raises on 0.12: `not` of a false exact test
if not (jax.__version_info__ == _PINNED or jax.__version_info__ < (0, 9)):
    raise ImportError("pinned")

# passes on 0.12: the `and` is false there (0.12 > 0.11.2)
if jax.__version__ != "0.11.0" and jax.__version_info__ <= (0, 11, 2):
    raise ImportError("old")

# unknown: 0.12.x against 0.12.0 exactly
assert jax.__version__ == "0.12.0" or jax.__version__ == _NEWEST


class Op(HiPrim):
    pass
# findings
# 8 error HJX014 `jax.__version_info__ == _PINNED` (`_PINNED = (0, 11, 0)`, line 4) makes `not (jax.__version_info__ == _PINNED or jax.__version_info__ < (0, 9))` hold on jax 0.12.0, and the code raises then: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 12 note HJX014 `jax.__version__ != "0.11.0"` holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 16 note HJX014 `jax.__version__ == "0.12.0"` holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
# 16 note HJX014 `jax.__version__ == _NEWEST` (`_NEWEST = "0.11.2"`, line 5) holds on one jax release only: compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code keeps working on the releases after it
