from jax.experimental.hijax import VJPHiPrimitive

FLAG = True


class Base(VJPHiPrimitive):
    pass


class Other:
    pass


class Sub(Base if FLAG else Other):
    def helper(self, x):
        return (x,)
