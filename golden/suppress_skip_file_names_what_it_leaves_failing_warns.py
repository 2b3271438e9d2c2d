# flags: --target-jax 0.12
# hijax-migrate: skip-file
from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# findings
# 6 suppressed HJX001 suppressed: renamed `vjp_bwd` to `vjp_bwd_retval`
# 2 suppressed HJX003 suppressed: import of `VJPHiPrimitive` now `HiPrim`
# 5 suppressed HJX003 suppressed: `VJPHiPrimitive` is now `HiPrim`
# 5 error  `Op` is left as written by `# hijax-migrate: skip-file` (line 1), and fails under the target as a suppression leaves it (jax 0.12.0): HJX001 renamed `vjp_bwd` to `vjp_bwd_retval` (line 6) (and 1 more) is not done; port it by hand, or remove the comment
# 1 error  module-level code is left as written by `# hijax-migrate: skip-file` (line 1), and fails under the target as a suppression leaves it (jax 0.12.0): HJX003 import of `VJPHiPrimitive` now `HiPrim` (line 2) is not done; port it by hand, or remove the comment
