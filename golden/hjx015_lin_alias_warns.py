# flags: --target-jax 0.11.1
from jax.experimental.hijax import VJPHiPrimitive
from jax.experimental.hijax import linearize_from_jvp as derive_lin


class Op(VJPHiPrimitive):
    def jvp(self, primals, tangents):
        return primals, tangents


Op.lin = derive_lin  # under another name: still the pair
# findings
# 10 error HJX015 `lin = linearize_from_jvp`: since jax 0.11.1 `linearize_from_jvp` is a pair of rules, and `lin` would hold both (a TypeError when jax calls it): write `lin, linearized = linearize_from_jvp`
