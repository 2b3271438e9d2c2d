# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Split(HiPrim):
    def dce(self, used_outs):  # drop the unused half
        first, second = used_outs
        if not second:
            return True, (True, False), First(self.x)
        return super().dce(used_outs)


class Already(HiPrim):
    def dce(self, used_outs, live_ins):
        return super().dce(used_outs, live_ins)


class Delegates(HiPrim):
    def dce(self, used_outs):
        return self.inner.dce(used_outs)


class NotAPrimitive:
    def dce(self, used_outs):
        return used_outs
# output
from jax.experimental.hijax import HiPrim


class Split(HiPrim):
    def dce(self, used_outs, live_ins):  # drop the unused half
        first, second = used_outs
        if not second:
            return True, (True, False), First(self.x)
        return super().dce(used_outs, live_ins)


class Already(HiPrim):
    def dce(self, used_outs, live_ins):
        return super().dce(used_outs, live_ins)


class Delegates(HiPrim):
    def dce(self, used_outs, live_ins):
        return self.inner.dce(used_outs)


class NotAPrimitive:
    def dce(self, used_outs):
        return used_outs
# findings
# 19 error HJX010 Delegates: calls a `dce` without `live_ins`, and the tool cannot tell that the one it reaches takes them; jax 0.12's takes `(used_outs, live_ins)`: pass the live inputs by hand
