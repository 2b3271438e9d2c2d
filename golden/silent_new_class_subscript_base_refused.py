import types

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2.0 * g,)


_BASES = (VJPHiPrimitive,)


def _fwd(self, nzs_in, x):
    return 2.0 * x, None


Op = types.new_class("Op", (_BASES[0],), {}, lambda ns: ns.update({"vjp_fwd": _fwd, "vjp_bwd": _bwd}))
# findings
# 17 error HJX016 a class made by a call: a name not written out (it may be a hijax rule) is bound by types.new_class (`Op = types.new_class("Op", (_BASES[0],), {}, lambda ns: ns.update({...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
