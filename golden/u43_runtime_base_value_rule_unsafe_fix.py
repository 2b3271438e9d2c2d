# flags: --unsafe-fixes
from jax.experimental.hijax import VJPHiPrimitive

_BASES = (VJPHiPrimitive,)


class Op(_BASES[0]):
    def vjp_bwd(self, res, g):
        return (3 * g,)
# output
from jax.experimental.hijax import VJPHiPrimitive

_BASES = (VJPHiPrimitive,)


class Op(_BASES[0]):
    def vjp_bwd_retval(self, res, g):
        return (3 * g,)
# findings
# 6 note  unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at line 7, the file then migrated as usual; the refusal it answers: Op: its base is reached through `_BASES` (line 3), bound when the code runs, and its `vjp_bwd` returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
# 6 note  Op: its base is reached through `_BASES` (line 3), bound when the code runs: which class it is cannot be decided, and its rules are left as written; migrate it by hand, or pass --base MODULE.CLASS if the base is a hijax primitive
