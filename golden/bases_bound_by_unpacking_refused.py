# flags: --target-jax 0.12
# `Base, _ = VJPHiPrimitive, None` binds the base by unpacking, which the tool does not
# follow: a value the code makes when it runs (as `with ... as Base` and a `for` target
# are). Not "a base from outside the tree": this module binds it. The rule returns
# cotangents, which jax runs as an accumulator rule: an error.
from jax.experimental.hijax import VJPHiPrimitive

Base, _ = VJPHiPrimitive, None


class Op(Base):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# output
# `Base, _ = VJPHiPrimitive, None` binds the base by unpacking, which the tool does not
# follow: a value the code makes when it runs (as `with ... as Base` and a `for` target
# are). Not "a base from outside the tree": this module binds it. The rule returns
# cotangents, which jax runs as an accumulator rule: an error.
from jax.experimental.hijax import HiPrim

Base, _ = HiPrim, None


class Op(Base):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None

    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# findings
# 10 error  Op: its base is reached through `Base` (this file), bound when the code runs, and its `vjp_bwd` returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
