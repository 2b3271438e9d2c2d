from jax.experimental.hijax import VJPHiPrimitive


def _clip(rule):
    def clipped(self, res, g):
        return tuple(ct * 0.5 for ct in rule(self, res, g))

    return clipped


class Clipped(VJPHiPrimitive):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.vjp_bwd = _clip(cls._bwd)


class Mul(Clipped):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def _bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
# findings
# 14 error HJX016 Clipped: `vjp_bwd` is bound by the __init_subclass__ of a base (`cls.vjp_bwd = _clip(cls._bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
