# flags: --unsafe-fixes
from jax.experimental.hijax import VJPHiPrimitive

_NAME = "vjp_bwd"


def _bwd(self, res, g):
    return (2 * g,)


class Op(VJPHiPrimitive):
    pass


setattr(Op, _NAME, _bwd)
# output
from jax.experimental.hijax import VJPHiPrimitive

_NAME = "vjp_bwd_retval"


def _bwd(self, res, g):
    return (2 * g,)


class Op(VJPHiPrimitive):
    pass


setattr(Op, _NAME, _bwd)
# findings
# 14 note HJX016 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at line 3, the file then migrated as usual; the refusal it answers: Op: a name not written out (it may be a hijax rule) is bound by setattr (`setattr(Op, _NAME, _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
