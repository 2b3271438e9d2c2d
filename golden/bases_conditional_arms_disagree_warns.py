from jax.experimental.hijax import VJPHiPrimitive

FLAG = True


class Base(VJPHiPrimitive):
    pass


class Other:
    pass


class Sub(Base if FLAG else Other):
    def vjp_bwd(self, res, g):
        return (g * 2.0,)
# findings
# 15 error HJX001 Sub: `vjp_bwd` returns cotangents and its base is `Base` (VJPHiPrimitive) or `Other` (not a hijax primitive): which class it is is decided when the code runs: left as written; make its every arm a hijax primitive of one kind, or port the rule by hand (jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on)
