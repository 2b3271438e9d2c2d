from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        return None, g * x  # half-ported: y's cotangent is still returned


backward = Mul.vjp_bwd  # a value use: the rule's calls may stand anywhere
# findings
# 8 error HJX001 Mul: `vjp_bwd` takes accumulators and returns cotangents, and `.vjp_bwd` at line 14 reaches this rule, where what it returns may be used; port both by hand
