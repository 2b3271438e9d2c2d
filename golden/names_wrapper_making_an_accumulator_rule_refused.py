from jax.experimental.hijax import VJPHiPrimitive


def as_accumulator_rule(cls):
    rule = vars(cls)["vjp_bwd"]

    def accumulating(self, res, g, *accs):
        for acc, ct in zip(accs, rule(self, res, g)):
            acc.accum(ct)

    setattr(cls, "vjp_bwd", accumulating)  # a shim: the class already runs on the accumulator API
    return cls


@as_accumulator_rule
class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# findings
# 20 error HJX001 Sq: `vjp_bwd` is reached by name at line 5 (`vars(cls)["vjp_bwd"]`): neither a rename nor accumulators would follow it there; port both by hand
