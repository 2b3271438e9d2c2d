# flags: --target-jax 0.12
# A compat module re-exporting the base explicitly (``Old as Old``): importers
# elsewhere keep the old name, so the import is aliased and the uses stay.
from jax.experimental.hijax import VJPHiPrimitive as VJPHiPrimitive  # noqa

Base = VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass
# output
# A compat module re-exporting the base explicitly (``Old as Old``): importers
# elsewhere keep the old name, so the import is aliased and the uses stay.
from jax.experimental.hijax import HiPrim as VJPHiPrimitive  # noqa

Base = VJPHiPrimitive


class Op(VJPHiPrimitive):
    pass
