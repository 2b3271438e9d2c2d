from jax.experimental.hijax import VJPHiPrimitive


def make_hijax():
    class Op(VJPHiPrimitive):
        def vjp_bwd(self, res, g):
            return (g,)

        def debug(self, res, g):
            return self.vjp_bwd(res, g)

    return Op


def make_quantized():
    class Op:
        def vjp_bwd(self, res, g):
            return g, None

        def run(self, res, g):
            return self.vjp_bwd(res, g)

    return Op


class Layer(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)

    def check(self, res, g):
        self.quantizer.vjp_bwd(res, g)
        return Layer.vjp_bwd(self, res, g)


class Child(Layer):
    def twice(self, res, g):
        return self.vjp_bwd(res, g), super().vjp_bwd(res, g)
# output
from jax.experimental.hijax import VJPHiPrimitive


def make_hijax():
    class Op(VJPHiPrimitive):
        def vjp_bwd_retval(self, res, g):
            return (g,)

        def debug(self, res, g):
            return self.vjp_bwd_retval(res, g)

    return Op


def make_quantized():
    class Op:
        def vjp_bwd(self, res, g):
            return g, None

        def run(self, res, g):
            return self.vjp_bwd(res, g)

    return Op


class Layer(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g,)

    def check(self, res, g):
        self.quantizer.vjp_bwd(res, g)
        return Layer.vjp_bwd_retval(self, res, g)


class Child(Layer):
    def twice(self, res, g):
        return self.vjp_bwd_retval(res, g), super().vjp_bwd_retval(res, g)
