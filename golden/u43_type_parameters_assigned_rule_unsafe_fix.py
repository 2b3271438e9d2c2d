# flags: --unsafe-fixes --target-jax 0.12
import functools

from jax.experimental.hijax import VJPHiPrimitive


def _bwd(self, res, g):
    return (3 * g,)


def _passthrough(rule):
    @functools.wraps(rule)
    def wrapper(*args, **kwargs):
        return rule(*args, **kwargs)
    return wrapper


class Lin[T](VJPHiPrimitive):
    vjp_bwd = _passthrough(_bwd)
# output
import functools

from jax.experimental.hijax import HiPrim


def _bwd(self, res, g):
    return (3 * g,)


def _passthrough(rule):
    @functools.wraps(rule)
    def wrapper(*args, **kwargs):
        return rule(*args, **kwargs)
    return wrapper


class Lin[T](HiPrim):
    vjp_bwd_retval = _passthrough(_bwd)
# findings
# 17 note HJX001 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at line 18, the file then migrated as usual; the refusal it answers: Lin: `vjp_bwd` is bound by a statement whose value cannot be proven to be a value rule (a binding of `vjp_bwd` whose value is not read), so a rename is not proven right: port it by hand
