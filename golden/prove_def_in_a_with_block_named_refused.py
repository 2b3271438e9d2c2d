# A `vjp_bwd` defined in a `with` block and read again in the body: a rename would
# leave `_keep` unbound (not proven), so it stays refused as before.
import contextlib

from jax.experimental.hijax import VJPHiPrimitive


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    with contextlib.nullcontext():
        def vjp_bwd(self, res, g):
            return (2 * g,)
        _keep = vjp_bwd
# findings
# 13 error HJX001 Lin: `vjp_bwd` is defined inside a block of the class body (if, try, for...), not each arm of an `if` a plain value rule: which one runs is decided when the code runs; port each by hand
