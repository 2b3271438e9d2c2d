# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive  # noqa: HJX003


class Op(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# output
from jax.experimental.hijax import VJPHiPrimitive  # noqa: HJX003


class Op(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g,)
# findings
# 1 suppressed HJX003 suppressed: import of `VJPHiPrimitive` now `HiPrim`
# 4 suppressed HJX003 suppressed: `VJPHiPrimitive` is now `HiPrim`
# 1 error  module-level code is left as written by `# noqa: HJX003` (line 1), and fails under the target as a suppression leaves it (jax 0.12.0): HJX003 import of `VJPHiPrimitive` now `HiPrim` (line 1) is not done; port it by hand, or remove the comment
