# flags: --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


class OneLine(VJPHiPrimitive): vjp_bwd_retval_logs = True


class Beside(VJPHiPrimitive):
    label = "beside"; vjp_bwd_retval_logs = True


class Middle(VJPHiPrimitive):
    first = 1; vjp_bwd_retval_logs = True; last = 2

    def vjp_bwd_retval(self, res, g):
        return (g,), {"first": self.first}


class Op(OneLine):
    def vjp_bwd_retval(self, res, g):
        return (g,), {"g": g}


class Op2(Beside):
    def vjp_bwd_retval(self, res, g):
        return (g,), {}
# output
from jax.experimental.hijax import HiPrim


class OneLine(HiPrim): pass


class Beside(HiPrim):
    label = "beside"


class Middle(HiPrim):
    first = 1; last = 2

    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"first": self.first}


class Op(OneLine):
    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {"g": g}


class Op2(Beside):
    def vjp_bwd_retval_logs(self, res, g):
        return (g,), {}
