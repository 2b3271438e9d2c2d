import unittest

import pytest
from jax.experimental.hijax import VJPHiPrimitive


class BothRulesTest(unittest.TestCase):
    def test_both_rules_are_refused(self):
        with self.assertRaisesRegex(TypeError, "should return None"):
            class Wrong(VJPHiPrimitive):
                def vjp_fwd(self, x):
                    return x, None

                def vjp_bwd(self, res, g):
                    return (g,)

            Wrong(None)


def test_old_rule_fails():
    with pytest.raises(AssertionError):
        class Old(VJPHiPrimitive):
            def vjp_bwd(self, res, g):
                return (g,)


class Right(VJPHiPrimitive):
    def vjp_bwd(self, res, g):
        return (g,)
# output
import unittest

import pytest
from jax.experimental.hijax import VJPHiPrimitive


class BothRulesTest(unittest.TestCase):
    def test_both_rules_are_refused(self):
        with self.assertRaisesRegex(TypeError, "should return None"):
            class Wrong(VJPHiPrimitive):
                def vjp_fwd(self, x):
                    return x, None

                def vjp_bwd(self, res, g):
                    return (g,)

            Wrong(None)


def test_old_rule_fails():
    with pytest.raises(AssertionError):
        class Old(VJPHiPrimitive):
            def vjp_bwd(self, res, g):
                return (g,)


class Right(VJPHiPrimitive):
    def vjp_bwd_retval(self, res, g):
        return (g,)
