# flags: --target-jax 0.12
class VJPHiPrimitive:
    """A project's own class that happens to share the name."""


class Op(VJPHiPrimitive):
    pass
