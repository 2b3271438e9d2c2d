# flags: --unsafe-fixes --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive

def _bwd(self, res, g):
    return (g * res,)

class Op(VJPHiPrimitive):
    pass

setattr(Op, "vjp_bwd", _bwd)
# output
from jax.experimental.hijax import HiPrim

def _bwd(self, res, g):
    return (g * res,)

class Op(HiPrim):
    pass

setattr(Op, "vjp_bwd_retval", _bwd)
# findings
# 9 note HJX016 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at line 9, the file then migrated as usual; the refusal it answers: Op: `vjp_bwd` is bound by setattr (`setattr(Op, "vjp_bwd", _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
