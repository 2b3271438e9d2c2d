from jax.experimental.hijax import VJPHiPrimitive


class Traced(VJPHiPrimitive):
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for name, value in list(vars(cls).items()):
            if name.startswith("vjp_"):
                setattr(cls, name, value)


class Sq(Traced):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# findings
# 9 error HJX016 Traced: a name not written out (it may be a hijax rule) is bound by the __init_subclass__ of a base (`setattr(cls, name, value)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
