# flags: --strategy accum
from jax.experimental.hijax import VJPHiPrimitive

class Where(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, pred, x):
        return x, pred

    def vjp_bwd(self, res, g):
        if res:
            return None, g
        else:
            # nothing flows back when the predicate is false
            return None, None
# output
from jax.experimental.hijax import VJPHiPrimitive
import jax

class Where(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, pred, x):
        return x, pred

    def vjp_bwd(self, res, g, pred_acc, x_acc):
        if res:
            jax.tree.map(lambda acc, ct: acc.accum(ct), x_acc, g)
            return None
        else:
            # nothing flows back when the predicate is false
            return None
