from jax.experimental.hijax import VJPHiPrimitive
from jax._src.interpreters.ad import NullAccum


def _write_all(accs, cts):
    for acc, ct in zip(accs, cts):
        acc.accum(ct)


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        _write_all((x_acc, y_acc), self.cts(res, g))
        return g * y, g * x
# findings
# 14 error HJX001 Mul: `x_acc` is handed to a call at line 16: `_write_all` uses `accs` other than in one `for ... in zip(accs, ...)` whose other arguments are as long (literals here, or `strict=True`) (line 5); whether it is written before the return at line 17 cannot be decided; write the accumulators by hand
