# flags: --unsafe-fixes --target-jax 0.12
import types

from jax.experimental.hijax import VJPHiPrimitive


def _init(self, aval):
    self.in_avals = (aval,)
    self.out_aval = aval
    self.params = {}
    super(Op, self).__init__()


def _bwd(self, res, g):
    return (2 * g,)


Op = types.new_class("Op", (VJPHiPrimitive,), {}, lambda ns: ns.update({"__init__": _init, "vjp_bwd": _bwd}))
# output
import types

from jax.experimental.hijax import HiPrim


def _init(self, aval):
    self.in_avals = (aval,)
    self.out_aval = aval
    self.params = {}
    super(Op, self).__init__()


def _bwd(self, res, g):
    return (2 * g,)


Op = types.new_class("Op", (HiPrim,), {}, lambda ns: ns.update({"__init__": _init, "vjp_bwd_retval": _bwd}))
# findings
# 17 note HJX016 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at line 17, the file then migrated as usual; the refusal it answers: a class made by a call: a name not written out (it may be a hijax rule) is bound by types.new_class (`Op = types.new_class("Op", (VJPHiPrimitive,), {}, lambda ns: ns.upd...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
