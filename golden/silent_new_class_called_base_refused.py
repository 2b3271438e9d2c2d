import types
from jax.experimental import hijax

def _resolve(*names):
    return next(getattr(hijax, n) for n in names if hasattr(hijax, n))

def _bwd(self, res, g):
    return (2.0 * g,)

def _fwd(self, nzs_in, x):
    return x, None

Op = types.new_class("Op", (_resolve("HiPrim", "VJPHiPrimitive"),), {}, lambda ns: ns.update({"vjp_fwd": _fwd, "vjp_bwd": _bwd}))
# findings
# 13 error HJX016 a class made by a call: a name not written out (it may be a hijax rule) is bound by types.new_class (`Op = types.new_class("Op", (_resolve("HiPrim", "VJPHiPrimitive"),),...`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
