from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def _write(self, acc, ct):
        acc.accum(ct)

    def vjp_bwd(self, res, g, *arg_accums):
        assert len(arg_accums) == 2
        x_acc, y_acc = arg_accums
        x, y = res
        match self.params:
            case {"fast": True}:
                self._write(x_acc, g * y)
            case _:
                x_acc.accum(g * y)
        return g * y, g * x
# output
from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def _write(self, acc, ct):
        acc.accum(ct)

    def vjp_bwd(self, res, g, *arg_accums):
        assert len(arg_accums) == 2
        x_acc, y_acc = arg_accums
        x, y = res
        match self.params:
            case {"fast": True}:
                self._write(x_acc, g * y)
            case _:
                x_acc.accum(g * y)
        arg_accums[1].accum(g * x)
        return None
# findings
