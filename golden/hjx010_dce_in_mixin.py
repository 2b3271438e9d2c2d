# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class KeepAll:
    def dce(self, used_outs):
        if any(used_outs):
            return True, True, self
        return super().dce(used_outs)


class Op(KeepAll, HiPrim):
    pass


class Other(KeepAll, HiPrim):
    def expand(self, x):
        return x


class SharedDce:
    def dce(self, used_outs):
        return super().dce(used_outs)


class Prim(SharedDce, HiPrim):
    pass


class Plain(SharedDce):
    pass


class NobodysMixin:  # no primitive inherits it: another protocol
    def dce(self, used_outs):
        return used_outs
# output
from jax.experimental.hijax import HiPrim


class KeepAll:
    def dce(self, used_outs, live_ins):
        if any(used_outs):
            return True, True, self
        return super().dce(used_outs, live_ins)


class Op(KeepAll, HiPrim):
    pass


class Other(KeepAll, HiPrim):
    def expand(self, x):
        return x


class SharedDce:
    def dce(self, used_outs):
        return super().dce(used_outs)


class Prim(SharedDce, HiPrim):
    pass


class Plain(SharedDce):
    pass


class NobodysMixin:  # no primitive inherits it: another protocol
    def dce(self, used_outs):
        return used_outs
# findings
# 21 error HJX010 SharedDce: `dce(self, used_outs)` is inherited by the primitive Prim and by Plain, which is no primitive: left alone; give the primitive its own `dce(self, used_outs, live_ins)`
