import jax.experimental.hijax as hijax


def _resolve(*names):
    for name in names:
        if hasattr(hijax, name):
            return getattr(hijax, name)
    raise ImportError(names)


HiPrim = _resolve("HiPrim", "VJPHiPrimitive")


class Op(HiPrim):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)


class Plain(HiPrim):
    def expand(self, x):
        return x
# findings
# 11 error  `HiPrim = _resolve("HiPrim", "VJPHiPrimitive")` picks the hijax base when the code runs: the `vjp_bwd` of Op (line 14) returns cotangents, which every hijax base from jax 0.8.1 on runs as an accumulator rule: left as written; rename the rule `vjp_bwd_retval` by hand (right under either base), or pass --base MODULE.CLASS
# 11 note  `HiPrim = _resolve("HiPrim", "VJPHiPrimitive")` picks the hijax base when the code runs, and is left as written; Plain cannot be decided: migrate by hand, or pass --base MODULE.CLASS
