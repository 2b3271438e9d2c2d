# flags: --target-jax 0.12.0.1
from jax.experimental.hijax import VJPHiPrimitive


class Split(VJPHiPrimitive):
    def dce(
        self,
        used_outs,
    ):
        return super(Split, self).dce(used_outs)
# output
from jax.experimental.hijax import HiPrim


class Split(HiPrim):
    def dce(
        self,
        used_outs,
        live_ins,
    ):
        return super(Split, self).dce(used_outs, live_ins)
