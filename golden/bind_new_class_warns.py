import types

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g,)


Neg = types.new_class("Neg", (VJPHiPrimitive,), {}, lambda ns: ns.update(vjp_bwd=_bwd))
Plain = types.new_class("Plain", (object,), {})
# findings
# 10 error HJX016 a class made by a call: a name not written out (it may be a hijax rule) is bound by types.new_class (`Neg = types.new_class("Neg", (VJPHiPrimitive,), {}, lambda ns: ns.u...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
