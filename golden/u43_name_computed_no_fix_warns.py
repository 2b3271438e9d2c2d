# flags: --unsafe-fixes
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


class Op(VJPHiPrimitive):
    pass


setattr(Op, "_".join(("vjp", "bwd")), _bwd)
# findings
# 12 error HJX016 Op: a name not written out (it may be a hijax rule) is bound by setattr (`setattr(Op, "_".join(("vjp", "bwd")), _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
