# flags: --target-jax 0.10.2
# A class used inside a `raises` block, and by a decorator outside it: the
# decorator runs where the `def` stands, so the class is no deliberate fixture.
import unittest

from jax.experimental.hijax import VJPHiPrimitive


def register(cls):
    return lambda func: func


class T(unittest.TestCase):
    def test_scale(self):
        class Scale(VJPHiPrimitive):
            def vjp_fwd(self, nzs_in, x):
                return 2.0 * x, None

            def vjp_bwd(self, res, g):
                return (2.0 * g,)

        with self.assertRaises(TypeError):
            Scale()

        @register(Scale)
        def check():
            pass
# output
# A class used inside a `raises` block, and by a decorator outside it: the
# decorator runs where the `def` stands, so the class is no deliberate fixture.
import unittest

from jax.experimental.hijax import VJPHiPrimitive


def register(cls):
    return lambda func: func


class T(unittest.TestCase):
    def test_scale(self):
        class Scale(VJPHiPrimitive):
            def vjp_fwd(self, nzs_in, x):
                return 2.0 * x, None

            def vjp_bwd_retval(self, res, g):
                return (2.0 * g,)

        with self.assertRaises(TypeError):
            Scale()

        @register(Scale)
        def check():
            pass
