# A value `vjp_bwd` defined in a `with` block: the block runs once (or the class
# statement fails), so the def binds the rule on every path that makes the class;
# renamed `vjp_bwd_retval`, it binds the same function under the target's name.
import contextlib

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    with contextlib.nullcontext():
        def vjp_bwd(self, res, g):
            return (2 * g,)
# output
# A value `vjp_bwd` defined in a `with` block: the block runs once (or the class
# statement fails), so the def binds the rule on every path that makes the class;
# renamed `vjp_bwd_retval`, it binds the same function under the target's name.
import contextlib

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    with contextlib.nullcontext():
        def vjp_bwd_retval(self, res, g):
            return (2 * g,)
# findings
