from jax.experimental import hijax


def _resolve(*names):
    return next(getattr(hijax, name) for name in names if hasattr(hijax, name))


class Lin(_resolve("HiPrim", "VJPHiPrimitive")):
    def vjp_fwd(self, nzs_in, x):
        return x, None

    vjp_bwd = lambda self, res, g: (1 * g,)


class Sub(Lin):
    def vjp_bwd(self, res, g):
        return tuple(2 * ct for ct in Lin.vjp_bwd(self, res, g))
# findings
# 12 error HJX016 Lin: `vjp_bwd` is bound by an assignment (`vjp_bwd = lambda self, res, g: (1 * g,)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
