# A rule bound by a walrus statement is in the class's namespace, as `vjp_bwd = f` is:
# a subclass's `Lin.vjp_bwd` (and `super().vjp_bwd`) reaches it, and is renamed with it.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    (vjp_bwd := _bwd)


class Sub(Lin):
    def vjp_bwd(self, res, g):
        return tuple(2 * ct for ct in Lin.vjp_bwd(self, res, g))


class Sup(Lin):
    def vjp_bwd(self, res, g):
        return tuple(3 * ct for ct in super().vjp_bwd(res, g))
# output
# A rule bound by a walrus statement is in the class's namespace, as `vjp_bwd = f` is:
# a subclass's `Lin.vjp_bwd` (and `super().vjp_bwd`) reaches it, and is renamed with it.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)


class Lin(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    (vjp_bwd_retval := _bwd)


class Sub(Lin):
    def vjp_bwd_retval(self, res, g):
        return tuple(2 * ct for ct in Lin.vjp_bwd_retval(self, res, g))


class Sup(Lin):
    def vjp_bwd_retval(self, res, g):
        return tuple(3 * ct for ct in super().vjp_bwd_retval(res, g))
# findings
