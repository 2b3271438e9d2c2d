# flags: --target-jax 0.11.0
from jax.experimental import hijax
from jax.experimental.hijax import VJPHiPrimitive, jvp_from_lin, transpose_linearized, vjp_fwd_from_lin


class Mul(VJPHiPrimitive):
    vjp_fwd = vjp_fwd_from_lin
    vjp_bwd_retval = transpose_linearized
    jvp = jvp_from_lin

    def lin(self, nzs_in, x, y):
        return x * y, (x, y)

    def linearized(self, residuals, tx, ty):
        x, y = residuals
        return tx * y + x * ty


class Aliased(VJPHiPrimitive):
    vjp_fwd = hijax.vjp_fwd_from_lin
    vjp_bwd_retval = hijax.transpose_linearized
