from jax.experimental import hijax


def _halving(rule):
    def wrapped(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapped


def _resolve(*names):
    return next(getattr(hijax, name) for name in names if hasattr(hijax, name))


class _Clipping(_resolve("HiPrim", "VJPHiPrimitive")):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "vjp_bwd" in vars(cls):
            cls.vjp_bwd = _halving(vars(cls)["vjp_bwd"])


class Lin(_Clipping):
    def vjp_fwd(self, nzs_in, x0, x1):
        return x0 + x1, None

    try:
        def vjp_bwd(self, res, g):
            return tuple([1 * g, 1 * g])
    except Exception:
        raise
# findings
# 18 error HJX016 _Clipping: `vjp_bwd` is bound by the __init_subclass__ of a base (`cls.vjp_bwd = _halving(vars(cls)["vjp_bwd"])`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
