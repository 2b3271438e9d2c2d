# flags: --target-jax 0.10
# `getattr(Op, "vjp_fwd")(op, x)` calls the rule by a name: given `nzs_in`, the call
# would bind `x` to it and miss `x`. Left as written, with an error naming the call.
from jax.experimental.hijax import VJPHiPrimitive


class Op(VJPHiPrimitive):
    def vjp_fwd(self, x):
        return x * 2.0, None

    def vjp_bwd_retval(self, res, g):
        return (g * 2.0,)


def forward(op, x):
    return getattr(Op, "vjp_fwd")(op, x)
# findings
# 7 error HJX002 Op: `vjp_fwd` is used at line 15, outside this class's `vjp_fwd`, but `vjp_fwd` (line 7) lacks `nzs_in`: left as written; add `nzs_in` to `vjp_fwd` and pass one there (a tuple of booleans, one per input)
