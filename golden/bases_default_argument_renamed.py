# flags: --target-jax 0.12
# A default is read where its `def` stands (the module's import), not in the function,
# whose own binding of the name is a local: the default is renamed with the import.
from jax.experimental.hijax import VJPHiPrimitive


def make(base=VJPHiPrimitive, pick=lambda b=VJPHiPrimitive: b):
    VJPHiPrimitive = None  # the function's own name, not the import
    return base, pick(), VJPHiPrimitive
# output
# A default is read where its `def` stands (the module's import), not in the function,
# whose own binding of the name is a local: the default is renamed with the import.
from jax.experimental.hijax import HiPrim


def make(base=HiPrim, pick=lambda b=HiPrim: b):
    VJPHiPrimitive = None  # the function's own name, not the import
    return base, pick(), VJPHiPrimitive
# findings
