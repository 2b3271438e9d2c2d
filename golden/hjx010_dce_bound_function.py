# flags: --target-jax 0.12
import jax.experimental.hijax as hjx
from jax.experimental.hijax import HiPrim


def _keep_all(self, used_outs):
    if any(used_outs):
        return True, True, self
    return HiPrim.dce(self, used_outs)


def _called_too(self, used_outs):
    return HiPrim.dce(self, used_outs)


def _new_already(self, used_outs, live_ins):
    return HiPrim.dce(self, used_outs, live_ins)


class First(HiPrim):
    dce = _keep_all


class Second(HiPrim):
    dce = _keep_all


class Third(HiPrim):
    dce = _called_too


class Fourth(HiPrim):
    dce = _new_already


class Fifth(HiPrim):
    dce = hjx.HiPrim.dce


def prune(prim, used):
    return _called_too(prim, used)
# output
import jax.experimental.hijax as hjx
from jax.experimental.hijax import HiPrim


def _keep_all(self, used_outs, live_ins):
    if any(used_outs):
        return True, True, self
    return HiPrim.dce(self, used_outs, live_ins)


def _called_too(self, used_outs):
    return HiPrim.dce(self, used_outs)


def _new_already(self, used_outs, live_ins):
    return HiPrim.dce(self, used_outs, live_ins)


class First(HiPrim):
    dce = _keep_all


class Second(HiPrim):
    dce = _keep_all


class Third(HiPrim):
    dce = _called_too


class Fourth(HiPrim):
    dce = _new_already


class Fifth(HiPrim):
    dce = hjx.HiPrim.dce


def prune(prim, used):
    return _called_too(prim, used)
# findings
# 28 error HJX010 Third: `dce` is bound to `_called_too`, which takes `(self, used_outs)`, but `_called_too` is used otherwise in this file: write a `def dce(self, used_outs, live_ins)` that calls it, or change it by hand
