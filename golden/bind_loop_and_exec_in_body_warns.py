from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (g,)


class Loop(VJPHiPrimitive):
    for vjp_bwd in (_bwd, _bwd):
        pass


class Executed(VJPHiPrimitive):
    exec("def vjp_bwd(self, res, g):\n    return (g,)")
# findings
# 14 error HJX016 Executed: `vjp_bwd` is bound by exec (`exec("def vjp_bwd(self, res, g):\n    return (g,)")`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
