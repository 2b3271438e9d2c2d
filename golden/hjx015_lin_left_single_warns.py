# flags: --target-jax 0.11.1
import jax.experimental.hijax as hjx
from jax.experimental.hijax import VJPHiPrimitive, linearize_from_jvp


class DerivedLin:  # a mixin, no primitive: HJX007 does not pair it
    lin = linearize_from_jvp

    def linearized(self, res, *tangents):
        return tangents


class Op(DerivedLin, VJPHiPrimitive):
    pass


class Paired(VJPHiPrimitive):
    lin, linearized = linearize_from_jvp  # already 0.11.1's pair


Other = type("Other", (VJPHiPrimitive,), {})
Other.lin = hjx.linearize_from_jvp
lin_rules = linearize_from_jvp  # the pair under another name: fine
# findings
# 6 error HJX015 `lin = linearize_from_jvp`: since jax 0.11.1 `linearize_from_jvp` is a pair of rules, and `lin` would hold both (a TypeError when jax calls it): write `lin, linearized = linearize_from_jvp`
# 21 error HJX015 `lin = linearize_from_jvp`: since jax 0.11.1 `linearize_from_jvp` is a pair of rules, and `lin` would hold both (a TypeError when jax calls it): write `lin, linearized = linearize_from_jvp`
