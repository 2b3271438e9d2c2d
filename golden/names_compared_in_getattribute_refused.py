from jax.experimental.hijax import VJPHiPrimitive


class Traced(VJPHiPrimitive):
    def __getattribute__(self, name):
        found = super().__getattribute__(name)
        if name == "vjp_bwd":
            print("backward rule looked up")
        return found


class Sq(Traced):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
# findings
# 5 error HJX016 Traced: a name not written out (it may be a hijax rule) is bound by the __getattribute__ of the class (`def __getattribute__(self, name):`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
