# flags: --unsafe-fixes --target-jax 0.12
from jax.experimental.hijax import VJPHiPrimitive


def _halving(rule):
    def wrapped(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapped


def _clipped(cls):
    rule = cls.__dict__.get("vjp_bwd")
    if rule is not None:
        setattr(cls, "vjp_bwd", _halving(rule))
    return cls


@_clipped
class Op(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (3 * g,)


class QuantOp:
    """Not a hijax primitive: a quantization library's own protocol."""

    def vjp_bwd(self, res, g):
        return g, None
# output
from jax.experimental.hijax import HiPrim


def _halving(rule):
    def wrapped(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapped


def _clipped(cls):
    rule = cls.__dict__.get("vjp_bwd_retval")
    if rule is not None:
        setattr(cls, "vjp_bwd_retval", _halving(rule))
    return cls


@_clipped
class Op(HiPrim):
    def vjp_bwd_retval(self, res, g):
        return (3 * g,)


class QuantOp:
    """Not a hijax primitive: a quantization library's own protocol."""

    def vjp_bwd(self, res, g):
        return g, None
# findings
# 19 note HJX001 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at lines 11, 13, 19, the file then migrated as usual; the refusal it answers: Op: `vjp_bwd` is reached by name at line 11 (`cls.__dict__.get("vjp_bwd")`): neither a rename nor accumulators would follow it there; port both by hand
