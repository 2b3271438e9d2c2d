# flags: --target-jax 0.12
# The handler catches no failed import: no version switch, the import is renamed.
try:
    from jax.experimental.hijax import HiPrim, VJPHiPrimitive
except NameError:
    raise


class Op(VJPHiPrimitive):
    pass
# output
# The handler catches no failed import: no version switch, the import is renamed.
try:
    from jax.experimental.hijax import HiPrim
except NameError:
    raise


class Op(HiPrim):
    pass
# findings
