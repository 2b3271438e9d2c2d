from jax.experimental.hijax import VJPHiPrimitive

# jax checks a rule's result against a tuple: a list fails, whatever the rule's name


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        if g is None:
            return [None, None]
        if res is None:
            return [g * other for other in (y, x)]
        return [g * y,  # x's
                g * x]


class Indexed(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        cts = [None] * 2
        cts[1] = g * res[0]
        return cts


class Rebound(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        cts = [g, g]
        cts = self.adjust(cts)  # may be anything now: left as it is
        return cts
# output
from jax.experimental.hijax import VJPHiPrimitive

# jax checks a rule's result against a tuple: a list fails, whatever the rule's name


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        if g is None:
            return (None, None)
        if res is None:
            return tuple(g * other for other in (y, x))
        return (g * y,  # x's
                g * x)


class Indexed(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        cts = [None] * 2
        cts[1] = g * res[0]
        return tuple(cts)


class Rebound(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        cts = [g, g]
        cts = self.adjust(cts)  # may be anything now: left as it is
        return cts
# findings
