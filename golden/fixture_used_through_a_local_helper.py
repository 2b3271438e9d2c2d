# flags: --target-jax 0.10
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Test:
    def test_both_rules_error(self):
        # jax's own tests/hijax_test.py: the class is wrong on purpose (it defines
        # both rules), built by a local helper, and used only inside the raises block
        class Pow(VJPHiPrimitive):
            def __init__(self, aval):
                self.in_avals = (aval,)
                self.out_aval = aval
                self.params = {}
                super().__init__()

            def vjp_fwd(self, x):
                return pow3(x), x

            def vjp_bwd(self, res, t, x_acc):
                x_acc.accum(3 * t * res ** 2)

            def vjp_bwd_retval(self, res, t):
                return (3 * t * res ** 2,)

        def pow3(x):
            return Pow(jax.typeof(x))(x)

        def f(x):
            return pow3(x)

        with self.assertRaises(AttributeError):
            f(2.0)

    def test_used_outside_too(self):
        class Pow(VJPHiPrimitive):
            def vjp_fwd(self, x):
                return x, x

        def pow3(x):
            return Pow(jax.typeof(x))(x)

        with self.assertRaises(AttributeError):
            pow3(2.0)
        return pow3  # escapes: no fixture
# output
import jax
from jax.experimental.hijax import VJPHiPrimitive


class Test:
    def test_both_rules_error(self):
        # jax's own tests/hijax_test.py: the class is wrong on purpose (it defines
        # both rules), built by a local helper, and used only inside the raises block
        class Pow(VJPHiPrimitive):
            def __init__(self, aval):
                self.in_avals = (aval,)
                self.out_aval = aval
                self.params = {}
                super().__init__()

            def vjp_fwd(self, x):
                return pow3(x), x

            def vjp_bwd(self, res, t, x_acc):
                x_acc.accum(3 * t * res ** 2)

            def vjp_bwd_retval(self, res, t):
                return (3 * t * res ** 2,)

        def pow3(x):
            return Pow(jax.typeof(x))(x)

        def f(x):
            return pow3(x)

        with self.assertRaises(AttributeError):
            f(2.0)

    def test_used_outside_too(self):
        class Pow(VJPHiPrimitive):
            def vjp_fwd(self, nzs_in, x):
                return x, x

        def pow3(x):
            return Pow(jax.typeof(x))(x)

        with self.assertRaises(AttributeError):
            pow3(2.0)
        return pow3  # escapes: no fixture
# findings
# 9 note  Test.test_both_rules_error.<locals>.Pow: used only inside `with self.assertRaises(...)`, a deliberate test fixture: its rules are left as written
