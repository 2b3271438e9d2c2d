# flags: --target-jax 0.11.0
"""The helpers exist in jax 0.11.0: nothing to report there."""
import jax.experimental.hijax as hjx
from jax.experimental.hijax import transpose_jvp, vjp_fwd_from_jvp

__all__ = ["transpose_jvp", "vjp_fwd_from_jvp"]
BWD_FROM_LIN = hjx.transpose_linearized
