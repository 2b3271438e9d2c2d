# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


class Mixin:
    def vjp_bwd(self, res, g):
        return (g,)


class Op(Mixin, VJPHiPrimitive):
    def vjp_fwd(self, x):  # noqa: HJX002
        return x, None


class Free(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x, None
# output
from jax.experimental.hijax import HiPrim, HiPrim as VJPHiPrimitive


class Mixin:
    def vjp_bwd(self, res, g):
        return (g,)


class Op(Mixin, VJPHiPrimitive):
    def vjp_fwd(self, x):  # noqa: HJX002
        return x, None


class Free(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x, None
# findings
# 10 suppressed HJX002 suppressed: added the `nzs_in` parameter to `vjp_fwd`
# 5 suppressed HJX001 suppressed: renamed `vjp_bwd` to `vjp_bwd_retval`
# 9 suppressed HJX003 suppressed: `VJPHiPrimitive` is now `HiPrim`
# 4 error  `Mixin` is left as written with `Op`, which `# noqa: HJX002` (line 10) leaves alone, and fails under the target as a suppression leaves it (jax 0.12.0): HJX001 renamed `vjp_bwd` to `vjp_bwd_retval` (line 5) is not done; port it by hand, or remove the comment
# 9 error  `Op` is left as written by `# noqa: HJX002` (line 10), and fails under the target as a suppression leaves it (jax 0.12.0): HJX002 added the `nzs_in` parameter to `vjp_fwd` (line 10) is not done; port it by hand, or remove the comment
