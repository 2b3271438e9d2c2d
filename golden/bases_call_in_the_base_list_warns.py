from jax.experimental import hijax


def _resolve(*names):
    return next(getattr(hijax, name) for name in names if hasattr(hijax, name))


class Op(_resolve("HiPrim", "VJPHiPrimitive")):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# findings
# 9 error HJX001 Op: `vjp_bwd` returns cotangents and its base is an expression that is no name (a call, a subscript...): which class it is is decided when the code runs: left as written; make its every arm a hijax primitive of one kind, or port the rule by hand (jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on)
