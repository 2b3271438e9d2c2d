from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)


FWD = getattr(Sq, "vjp_fwd")
OTHER = vars(Sq).get("vjp_" + "fwd")


def lookup(obj, name):
    return getattr(obj, name)  # an unknown name on an object of unknown class
# output
from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd_retval(self, res, g):
        return (2 * res * g,)


FWD = getattr(Sq, "vjp_fwd")
OTHER = vars(Sq).get("vjp_" + "fwd")


def lookup(obj, name):
    return getattr(obj, name)  # an unknown name on an object of unknown class
# findings
