from jax.experimental import hijax

def _resolve(*names):
    return next(getattr(hijax, n) for n in names if hasattr(hijax, n))

HiPrim = _resolve("HiPrim", "VJPHiPrimitive")

def _bwd(self, res, g):
    return (2.0 * g,)

class Lin(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x, None
    vjp_bwd = lambda self, res, g: (g,)

class Lin2(HiPrim):
    def vjp_fwd(self, nzs_in, x):
        return x, None
    vjp_bwd = _bwd
# findings
# 6 note  `HiPrim = _resolve("HiPrim", "VJPHiPrimitive")` picks the hijax base when the code runs, and is left as written; Lin, Lin2 cannot be decided: migrate by hand, or pass --base MODULE.CLASS
# 14 error HJX016 Lin: `vjp_bwd` is bound by an assignment (`vjp_bwd = lambda self, res, g: (g,)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
# 19 error HJX016 Lin2: `vjp_bwd` is bound by an assignment (`vjp_bwd = _bwd`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
