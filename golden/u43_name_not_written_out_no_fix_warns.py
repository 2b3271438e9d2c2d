# flags: --unsafe-fixes
from jax.experimental.hijax import VJPHiPrimitive

_NAME = "vjp_bwd"


def _bwd(self, res, g):
    return (2 * g,)


class Op(VJPHiPrimitive):
    pass


setattr(Op, _NAME, _bwd)
# findings
# 14 error HJX016 Op: a name not written out (it may be a hijax rule) is bound by setattr (`setattr(Op, _NAME, _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
