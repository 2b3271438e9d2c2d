# flags: --target-jax 0.12
"""The project's own helpers, named as jax 0.11.0's were: not jax's, no report."""
import jax


def transpose_jvp(f, primals, ct):
    return jax.linear_transpose(lambda t: jax.jvp(f, primals, t)[1], *primals)(ct)


def vjp_fwd_from_jvp(f, *primals):
    return f(*primals), primals


class Rules:
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp


def probe(hijax):
    return getattr(hijax, "transpose_jvp", None)  # looked up by string: safe where it is gone
