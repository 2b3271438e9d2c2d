# flags: --unsafe-fixes --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


class Op(VJPHiPrimitive):
    pass


setattr(Op, "vjp_" + "bwd", _bwd)


class Scaled(Op):
    def vjp_bwd(self, res, g):
        return tuple(3 * ct for ct in getattr(Op, 'vjp_' 'bwd')(self, res, g))
# output
from jax.experimental.hijax import HiPrim


def _bwd(self, res, g):
    return (2 * g,)


class Op(HiPrim):
    pass


setattr(Op, "vjp_bwd_retval", _bwd)


class Scaled(Op):
    def vjp_bwd_retval(self, res, g):
        return tuple(3 * ct for ct in getattr(Op, 'vjp_bwd_retval')(self, res, g))
# findings
# 12 note HJX016 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at lines 12, 16, 17, the file then migrated as usual; the refusal it answers: Op: a name not written out (it may be a hijax rule) is bound by setattr (`setattr(Op, "vjp_" + "bwd", _bwd)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
