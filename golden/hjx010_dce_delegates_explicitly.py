# flags: --target-jax 0.12
import jax.experimental.hijax as hjx
from jax.experimental.hijax import HiPrim


class ByBase(HiPrim):
    def dce(self, used_outs):
        if any(used_outs):
            return True, True, self
        return HiPrim.dce(self, used_outs)


class ByModule(hjx.HiPrim):
    def dce(self, used_outs):
        return hjx.HiPrim.dce(self, used_outs)


class BySuperWithArgs(HiPrim):
    def dce(self, used_outs):
        return super(BySuperWithArgs, self).dce(used_outs)


class ByParent(ByBase):
    def dce(self, used_outs):
        return ByBase.dce(self, used_outs)


class Unknown(HiPrim):
    def dce(self, used_outs):
        return self.helper.dce(self, used_outs)


class NotAPrimitive:
    def dce(self, used_outs):
        return NotAPrimitive.dce(self, used_outs)
# output
import jax.experimental.hijax as hjx
from jax.experimental.hijax import HiPrim


class ByBase(HiPrim):
    def dce(self, used_outs, live_ins):
        if any(used_outs):
            return True, True, self
        return HiPrim.dce(self, used_outs, live_ins)


class ByModule(hjx.HiPrim):
    def dce(self, used_outs, live_ins):
        return hjx.HiPrim.dce(self, used_outs, live_ins)


class BySuperWithArgs(HiPrim):
    def dce(self, used_outs, live_ins):
        return super(BySuperWithArgs, self).dce(used_outs, live_ins)


class ByParent(ByBase):
    def dce(self, used_outs, live_ins):
        return ByBase.dce(self, used_outs, live_ins)


class Unknown(HiPrim):
    def dce(self, used_outs, live_ins):
        return self.helper.dce(self, used_outs)


class NotAPrimitive:
    def dce(self, used_outs):
        return NotAPrimitive.dce(self, used_outs)
# findings
# 29 error HJX010 Unknown: calls a `dce` without `live_ins`, and the tool cannot tell that the one it reaches takes them; jax 0.12's takes `(used_outs, live_ins)`: pass the live inputs by hand
