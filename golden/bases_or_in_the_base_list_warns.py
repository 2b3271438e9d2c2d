from jax.experimental import hijax


class Op(getattr(hijax, "HiPrim", None) or hijax.VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# findings
# 5 error HJX001 Op: `vjp_bwd` returns cotangents and its base is an expression (undecidable: a base from outside the tree) or `hijax.VJPHiPrimitive` (VJPHiPrimitive): which class it is is decided when the code runs: left as written; make its every arm a hijax primitive of one kind, or port the rule by hand (jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on)
