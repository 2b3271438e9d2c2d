# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive


class Base(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Base):  # hijax-migrate: skip
    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return (2 * gx, 2 * gy)


class Other(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax


class Base(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Base):  # hijax-migrate: skip
    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return (2 * gx, 2 * gy)


class Other(VJPHiPrimitive):
    def vjp_bwd(self, res, g, *arg_accums):
        jax.tree.map(lambda acc, ct: acc.accum(ct), arg_accums, (g,))
        return None
# findings
# 8 suppressed HJX001 suppressed: renamed `vjp_bwd` to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 15 may call this rule, and is renamed with it
# 14 suppressed HJX001 suppressed: renamed `vjp_bwd` to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 15 may call the value rule of Base, and is renamed with it
# 8 suppressed HJX001 Base: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 15 may call this rule, and is renamed with it
# 14 suppressed HJX001 Twice: renamed to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 15 may call the value rule of Base, and is renamed with it
# 4 error  `Base` is left as written with `Twice`, which `# hijax-migrate: skip` (line 13) leaves alone, and fails under the target as a suppression leaves it (jax 0.10.0): HJX001 renamed `vjp_bwd` to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 15 may call this rule, and is renamed with it (line 8) is not done; port it by hand, or remove the comment
# 13 error  `Twice` is left as written by `# hijax-migrate: skip` (line 13), and fails under the target as a suppression leaves it (jax 0.10.0): HJX001 renamed `vjp_bwd` to `vjp_bwd_retval`, not given accumulators (--strategy accum): `.vjp_bwd` at line 15 may call the value rule of Base, and is renamed with it (line 14) is not done; port it by hand, or remove the comment
