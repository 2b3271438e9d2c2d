# Target lists over a display without `*`: `vjp_bwd` gets the item at its position (from the
# end after a starred target); the one target renamed, each binds the same value rule.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class ListTarget(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    [vjp_bwd] = [_bwd]


class TupleTarget(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    _spare, vjp_bwd = _bwd, _bwd


class Starred(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd, *_rest = (_bwd,)


class StarredFirst(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    *_rest, vjp_bwd = (1, 2, _bwd)
# output
# Target lists over a display without `*`: `vjp_bwd` gets the item at its position (from the
# end after a starred target); the one target renamed, each binds the same value rule.
from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (2 * g,)



class ListTarget(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    [vjp_bwd_retval] = [_bwd]


class TupleTarget(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    _spare, vjp_bwd_retval = _bwd, _bwd


class Starred(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    vjp_bwd_retval, *_rest = (_bwd,)


class StarredFirst(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return 2 * x, None

    *_rest, vjp_bwd_retval = (1, 2, _bwd)
# findings
