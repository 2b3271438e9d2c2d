# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

def _bwd(self, res, g):
    return (g * res,)

class Op(VJPHiPrimitive):
    pass

setattr(Op, "vjp_bwd", _bwd)
# findings
# 9 error HJX016 Op: `vjp_bwd` is bound by setattr (`setattr(Op, "vjp_bwd", _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
