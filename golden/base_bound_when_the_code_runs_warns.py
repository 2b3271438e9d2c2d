import importlib
from types import SimpleNamespace

from jax.experimental.hijax import VJPHiPrimitive

hijax = importlib.import_module("jax.experimental.hijax")
B1 = hijax.VJPHiPrimitive
B2 = __import__("jax.experimental.hijax", fromlist=["VJPHiPrimitive"]).VJPHiPrimitive
BASES = (VJPHiPrimitive,)
ns = SimpleNamespace(Base=VJPHiPrimitive)


class A(B1):
    def vjp_bwd(self, res, g):
        return (g,)


class C(B2):
    def vjp_bwd(self, res, g):
        return (g,)


class D(BASES[0]):
    def vjp_bwd(self, res, g):
        return (g,)


class E(ns.Base):
    def vjp_bwd(self, res, g):
        return (g,)
# findings
# 8 error  `B2 = __import__("jax.experimental.hijax", fromlist=["VJPHiPrimitive"]).VJPHiPrimitive` picks the hijax base when the code runs: the `vjp_bwd` of C (line 18) returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
# 10 error  `ns = SimpleNamespace(Base=VJPHiPrimitive)` picks the hijax base when the code runs: the `vjp_bwd` of E (line 28) returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
# 13 error  A: its base is reached through `hijax` (line 6), bound when the code runs, and its `vjp_bwd` returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
# 23 error  D: its base is reached through `BASES` (line 9), bound when the code runs, and its `vjp_bwd` returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
