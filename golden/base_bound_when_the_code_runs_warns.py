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
# 8 note  `B2 = __import__("jax.experimental.hijax", fromlist=["VJPHiPrimitive"]).VJPHiPrimitive` picks the hijax base when the code runs, and is left as written; C cannot be decided: migrate by hand, or pass --base MODULE.CLASS
# 10 note  `ns = SimpleNamespace(Base=VJPHiPrimitive)` picks the hijax base when the code runs, and is left as written; E cannot be decided: migrate by hand, or pass --base MODULE.CLASS
# 13 note  A: its base is reached through `hijax` (line 6), bound when the code runs: which class it is cannot be decided, and its rules are left as written; migrate it by hand, or pass --base MODULE.CLASS if the base is a hijax primitive
# 23 note  D: its base is reached through `BASES` (line 9), bound when the code runs: which class it is cannot be decided, and its rules are left as written; migrate it by hand, or pass --base MODULE.CLASS if the base is a hijax primitive
