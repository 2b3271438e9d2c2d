# flags: --unsafe-fixes
from jax.experimental.hijax import VJPHiPrimitive


def _halving(rule):
    def wrapped(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapped


class _Clipped(type):
    def __new__(mcs, name, bases, ns):
        rule = ns.get("vjp_bwd")
        if rule is not None:
            ns["vjp_bwd"] = _halving(rule)
        return super().__new__(mcs, name, bases, ns)


class Op(VJPHiPrimitive, metaclass=_Clipped):
    def vjp_bwd(self, res, g):
        return (3 * g,)
# output
from jax.experimental.hijax import VJPHiPrimitive


def _halving(rule):
    def wrapped(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapped


class _Clipped(type):
    def __new__(mcs, name, bases, ns):
        rule = ns.get("vjp_bwd_retval")
        if rule is not None:
            ns["vjp_bwd_retval"] = _halving(rule)
        return super().__new__(mcs, name, bases, ns)


class Op(VJPHiPrimitive, metaclass=_Clipped):
    def vjp_bwd_retval(self, res, g):
        return (3 * g,)
# findings
# 12 note HJX016 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at lines 12, 14, 19, the file then migrated as usual; the refusal it answers: Op: `vjp_bwd` is bound by a metaclass (`rule = ns.get("vjp_bwd")`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
# 14 note HJX016 unsafe fix applied (not proven: check the gradient): `vjp_bwd` renamed `vjp_bwd_retval` at lines 12, 14, 19, the file then migrated as usual; the refusal it answers: Op: `vjp_bwd` is bound by a metaclass (`ns["vjp_bwd"] = _halving(rule)`): no rule of the tool follows that form, so whether it works at the target cannot be decided; the file is left as it is: port it by hand
