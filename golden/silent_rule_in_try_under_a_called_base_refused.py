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
# 26 error HJX001 Lin: `vjp_bwd` returns cotangents and its base is `_Clipping`, a class of the tree whose base is an expression that is no name (a call, a subscript...): which class it is is decided when the code runs: left as written; make its every arm a hijax primitive of one kind, or port the rule by hand (jax runs `vjp_bwd` as an accumulator rule from 0.8.1 on)
