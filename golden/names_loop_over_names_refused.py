from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


for _n in ("vjp_fwd", "vjp_bwd"):
    setattr(Sq, "_base_" + _n, getattr(Sq, _n))
# findings
# 13 error HJX016 Sq: a name not written out (it may be a hijax rule) is bound by setattr (`setattr(Sq, "_base_" + _n, getattr(Sq, _n))`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
