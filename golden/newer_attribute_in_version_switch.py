# flags: --target-jax 0.10
import jax.experimental.hijax as hjx

if hasattr(hjx, "jvp_from_lin"):  # jax 0.11 and newer
    JVP = hjx.jvp_from_lin
else:
    JVP = None

PAIR = hjx.vjp_from_jvp if hasattr(hjx, "vjp_from_jvp") else None


class Mul(hjx.VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x
# output
import jax.experimental.hijax as hjx

if hasattr(hjx, "jvp_from_lin"):  # jax 0.11 and newer
    JVP = hjx.jvp_from_lin
else:
    JVP = None

PAIR = hjx.vjp_from_jvp if hasattr(hjx, "vjp_from_jvp") else None


class Mul(hjx.VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return g * y, g * x
