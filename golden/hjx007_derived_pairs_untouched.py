# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim, jvp_from_lin, vjp_from_jvp


class Op(HiPrim):
    vjp_fwd, vjp_bwd_retval = vjp_from_jvp
    jvp = jvp_from_lin
