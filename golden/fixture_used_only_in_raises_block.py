# A class defined in a test before the raises block that uses it is a
# deliberate fixture too; one used outside such a block is migrated.
import unittest

import jax
from jax.experimental.hijax import VJPHiPrimitive


class RaisesTest(unittest.TestCase):
    def test_wrong_on_purpose(self):
        class Bad(VJPHiPrimitive):
            def vjp_bwd(self, res, g):
                return (g,)

        with self.assertRaisesRegex(TypeError, "should return None"):
            jax.grad(lambda x: Bad(jax.typeof(x))(x))(3.0)

    def test_used_outside_too(self):
        class Good(VJPHiPrimitive):
            def vjp_bwd(self, res, g):
                return (g,)

        with self.assertRaises(ValueError):
            Good(None)
        self.assertTrue(issubclass(Good, VJPHiPrimitive))

    def test_used_by_a_helper(self):
        class Helped(VJPHiPrimitive):
            def vjp_bwd(self, res, g):
                return (g,)

        def make():
            return Helped(None)

        with self.assertRaises(ValueError):
            Helped(None)
        make()
# output
# A class defined in a test before the raises block that uses it is a
# deliberate fixture too; one used outside such a block is migrated.
import unittest

import jax
from jax.experimental.hijax import VJPHiPrimitive


class RaisesTest(unittest.TestCase):
    def test_wrong_on_purpose(self):
        class Bad(VJPHiPrimitive):
            def vjp_bwd(self, res, g):
                return (g,)

        with self.assertRaisesRegex(TypeError, "should return None"):
            jax.grad(lambda x: Bad(jax.typeof(x))(x))(3.0)

    def test_used_outside_too(self):
        class Good(VJPHiPrimitive):
            def vjp_bwd_retval(self, res, g):
                return (g,)

        with self.assertRaises(ValueError):
            Good(None)
        self.assertTrue(issubclass(Good, VJPHiPrimitive))

    def test_used_by_a_helper(self):
        class Helped(VJPHiPrimitive):
            def vjp_bwd_retval(self, res, g):
                return (g,)

        def make():
            return Helped(None)

        with self.assertRaises(ValueError):
            Helped(None)
        make()
# findings
# 11 note  RaisesTest.test_wrong_on_purpose.<locals>.Bad: used only inside `with self.assertRaisesRegex(...)`, a deliberate test fixture: its rules are left as written
