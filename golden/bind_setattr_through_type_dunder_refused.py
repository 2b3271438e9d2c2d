# flags: --target-jax 0.12
# `type.__setattr__(Op, ...)` is `setattr(Op, ...)` through the data model's own method:
# it binds a rule the tool does not follow, whose key is not written out: an error.
from jax.experimental.hijax import HiPrim


def _bwd(self, res, g):
    return (g * 2.0,)


class Op(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x * 2.0, None


type.__setattr__(Op, "vjp_" + "bwd", _bwd)
# findings
# 15 error HJX016 Op: a name not written out (it may be a hijax rule) is bound by setattr (`type.__setattr__(Op, "vjp_" + "bwd", _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
