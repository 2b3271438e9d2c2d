"""Primitives written against old hijax APIs, with their known gradients.

Each case is a module for ``jax_probe.py``. At x = [0, 1, 2], y = [1, 2, 3]
the product's gradients are d/dx = y and d/dy = x.
"""

import dataclasses
from dataclasses import dataclass, field

X, Y = [0.0, 1.0, 2.0], [1.0, 2.0, 3.0]

HEADER = """
import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Binary(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, x, y):
        return x * y

    def batch_dim_rule(self, axis_data, dims):
        return dims[0]
"""

# The same primitive batched by a ``batch`` of its own (jax 0.10 to 0.12), not through
# ``batch_dim_rule``, whose ``VmapOf`` calls ``vjp_bwd_retval`` up to jax 0.11.2.
BATCH_HEADER = HEADER.replace(
    """    def batch_dim_rule(self, axis_data, dims):
        return dims[0]
""",
    """    def batch(self, axis_data, args, dims):
        args = [jnp.moveaxis(a, d, 0) if d is not None else jnp.broadcast_to(a, (axis_data.size, *a.shape))
                for a, d in zip(args, dims)]
        return type(self)(jax.typeof(args[0]))(*args), 0
""",
)
assert BATCH_HEADER != HEADER
DIM_RULE_HEADER = HEADER.replace("\nimport jax\n", "\nimport jax  # batched through batch_dim_rule\n", 1)

FOOTER = """

def f(x, y):
    return jnp.sum({cls}(jax.typeof(x))(x, y))


def f_elem(x, y):
    return {cls}(jax.typeof(x))(x, y)


ARGS = (jnp.array({x}), jnp.array({y}))
ARGNUMS = (0, 1)
"""


@dataclass
class SemanticCase:
    name: str
    body: str  # class definitions after HEADER
    expected: list  # gradients for ARGNUMS
    flags: dict = field(default_factory=dict)  # Options fields
    cls: str = "Mul"
    header: str = HEADER
    footer: str = FOOTER
    refused: tuple = ()  # strategies under which the file must stay as it was, with a warning

    def source(self) -> str:
        header, checks = self.header, ""
        if header is HEADER and self.flags.get("strategy") == "accum":
            header = BATCH_HEADER  # VmapOf (batch_dim_rule) needs the value rule: accum would rename
        if header in (BATCH_HEADER, DIM_RULE_HEADER):  # grad of vmap runs through the batching rule
            checks = "\nGRAD_OF_VMAP = True\n"
        return header + self.body + self.footer.format(cls=self.cls, x=X, y=Y) + checks


FWD = """
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)
"""

CORE_CASES = [
    SemanticCase(
        "rename_tuple",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
    ),
    SemanticCase(
        "accum_tuple",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x
""",
        [Y, X],
        {"strategy": "accum"},
    ),
    SemanticCase(
        "accum_none_entry",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, None)
""",
        [Y, [0.0, 0.0, 0.0]],
        {"strategy": "accum"},
    ),
    SemanticCase(
        "accum_branches",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        if g is None:
            return None, None
        else:
            return (g * y, g * x)
""",
        [Y, X],
        {"strategy": "accum"},
    ),
    SemanticCase(
        "accum_opaque_tree_write",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        return self.cotangents(res, g)

    def cotangents(self, res, g):
        x, y = res
        return g * y, g * x
""",
        [Y, X],
        {"strategy": "accum"},
    ),
    SemanticCase(
        "half_ported_writes",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
    ),
    SemanticCase(
        "half_ported_no_double_count",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return (g * y, g * x)
""",
        [Y, X],
    ),
    SemanticCase(
        "half_ported_varargs",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, *arg_accums):
        x, y = res
        return g * y, g * x
""",
        [Y, X],
    ),
    SemanticCase(
        "rename_moves_super_call",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def expand(self, x, y):
        return 2 * x * y

    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return 2 * gx, 2 * gy
""",
        [[2 * v for v in Y], [2 * v for v in X]],
        cls="Twice",
    ),
    SemanticCase(
        "fwd_gains_nzs_in",
        """
class Mul(Binary):
    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
    ),
]

DICT_HEADER = """
import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive
"""

DICT_FOOTER = """

def f(xs):
    return jnp.sum({cls}(jax.typeof(xs["a"]))(xs))


ARGS = ({{"a": jnp.array({x}), "b": jnp.array({y})}},)
"""

CORE_CASES.append(
    SemanticCase(
        "accum_pytree_input",
        """
class DictMul(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = ({"a": aval, "b": aval},)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, xs):
        return xs["a"] * xs["b"]

    def vjp_fwd(self, nzs_in, xs):
        return xs["a"] * xs["b"], xs

    def vjp_bwd(self, res, g):
        return ({"a": g * res["b"], "b": g * res["a"]},)
""",
        {"a": Y, "b": X},
        {"strategy": "accum"},
        cls="DictMul",
        header=DICT_HEADER,
        footer=DICT_FOOTER,
    )
)


# Code written for older jax releases, to be run under jax 0.12 after
# ``--target-jax 0.12``. No vmap: batching rules changed API in 0.12 too.
FOOTER_012 = FOOTER.replace(
    """def f_elem(x, y):
    return {cls}(jax.typeof(x))(x, y)


""",
    "",
)

ERA_081_HEADER = HEADER  # VJPHiPrimitive, imported by name

JAX_012_CASES = [
    SemanticCase(
        "era_081_classic_rule_and_fwd",
        """
class Mul(Binary):
    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
        footer=FOOTER_012,
    ),
    SemanticCase(
        "era_080_newstyle",
        """
class Mul(NewstyleHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x
""",
        [Y, X],
        header=DICT_HEADER.replace("VJPHiPrimitive", "NewstyleHiPrimitive"),
        footer=FOOTER_012,
    ),
    SemanticCase(
        "era_0111_structured_residuals",
        """
class Mul(Binary):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y), True, 3.0

    def vjp_bwd_retval(self, res, sres, g):
        x, y = res
        return (sres * g * y, sres * g * x)
""",
        [[3 * v for v in Y], [3 * v for v in X]],
        footer=FOOTER_012,
    ),
    SemanticCase(
        "era_0111_logs_flag",
        """
class Mul(Binary):
    vjp_bwd_retval_logs = True

    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x), {"g": g}
""",
        [Y, X],
        footer=FOOTER_012,
    ),
    SemanticCase(
        "era_0111_logs_flag_over_an_inherited_rule",  # the flag again in Mul, over Base's rule Grand's flag reaches
        """
class Grand(Binary):
    vjp_bwd_retval_logs = True


class Base(Grand):
    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x), {"g": g}


class Mul(Base):
    vjp_bwd_retval_logs = True

    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)
""",
        [Y, X],
        footer=FOOTER_012,
    ),
    SemanticCase(
        "era_0110_derived_helpers",
        """
from jax.experimental.hijax import transpose_jvp, vjp_fwd_from_jvp


class Mul(Binary):
    vjp_fwd = vjp_fwd_from_jvp
    vjp_bwd_retval = transpose_jvp

    def jvp(self, primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        return x * y, tx * y + x * ty
""",
        [Y, X],
        footer=FOOTER_012,
    ),
]


# Patterns that once gave wrong gradients (issue 10). Each runs in both the
# default strategy and ``--strategy accum``: the migrated code gives the right
# gradients, or (for the strategies in ``refused``) the file stays as it was,
# with a warning.
NULL_HEADER = HEADER + "from jax._src.interpreters.ad import NullAccum\n"

PROVEN_CASES = [
    SemanticCase(
        "half_ported_nullaccum_early_return",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        if isinstance(x_acc, NullAccum) and isinstance(y_acc, NullAccum):
            return None
        return (g * y, g * x)
""",
        [Y, X],
        header=NULL_HEADER,
    ),
    SemanticCase(
        "half_ported_varargs_len_checked",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, *arg_accums):
        assert len(arg_accums) == 2
        x, y = res
        return g * y, g * x
""",
        [Y, X],
    ),
    SemanticCase(
        "defaulted_extra_is_no_accumulator",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, verbose=False):
        x, y = res
        if verbose:
            print(g)
        return (g * y, g * x)
""",
        [Y, X],
    ),
    SemanticCase(
        "half_ported_partial_writes",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        dx, dy = g * y, g * x
        x_acc.accum(dx)
        return dx, dy
""",
        [Y, X],
    ),
    SemanticCase(
        "half_ported_partial_writes_none_entry",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        return None, g * x
""",
        [Y, X],
    ),
    SemanticCase(
        "returns_in_try_except",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        try:
            return (g * y, self._grad_y(g, x))
        except NotImplementedError:
            return (g * y, g * x)

    def _grad_y(self, g, x):
        raise NotImplementedError
""",
        [Y, X],
    ),
    SemanticCase(
        "called_as_value_super",
        f"""
class Base2(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Mul(Base2):
    def expand(self, x, y):
        return 2 * x * y

    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return 2 * gx, 2 * gy
""",
        [[2 * v for v in Y], [2 * v for v in X]],
    ),
    SemanticCase(
        "called_as_value_class_and_self",
        f"""
class Base2(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)


class Mul(Base2):
    def vjp_bwd(self, res, g):
        return self.helper(res, g)

    def helper(self, res, g):
        return Base2.vjp_bwd(self, res, g)
""",
        [Y, X],
    ),
    SemanticCase(
        "pytree_input_not_literal",
        """
class DictMul(VJPHiPrimitive):
    def __init__(self, aval):
        avals = {"a": aval, "b": aval}
        self.in_avals = (avals,)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, xs):
        return xs["a"] * xs["b"]

    def vjp_fwd(self, nzs_in, xs):
        return xs["a"] * xs["b"], xs

    def vjp_bwd(self, res, g):
        cts = {"a": g * res["b"], "b": g * res["a"]}
        return (cts,)
""",
        {"a": Y, "b": X},
        cls="DictMul",
        header=DICT_HEADER,
        footer=DICT_FOOTER,
    ),
    SemanticCase(
        "variadic_generator_return",
        """
class Mul(Binary):
    def vjp_fwd(self, nzs_in, *xs):
        return xs[0] * xs[1], xs

    def vjp_bwd(self, res, g):
        return tuple(g * w for w in reversed(res))
""",
        [Y, X],
    ),
    SemanticCase(
        "variadic_starred_return",
        """
class Mul(Binary):
    def vjp_fwd(self, nzs_in, *xs):
        return xs[0] * xs[1], xs

    def vjp_bwd(self, res, g):
        cts = [g * res[1], g * res[0]]
        return (*cts,)
""",
        [Y, X],
    ),
    SemanticCase(
        "g_defaults_to_none",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g=None):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
        refused=("accum",),
        header=BATCH_HEADER,
    ),  # batch_dim_rule: accum would rename
]

# Written for jax 0.8.0 from start to end: the constructor takes the avals
# and params, the old base, the old vjp_fwd, a value-returning vjp_bwd.
ERA_080_HEADER = DICT_HEADER.replace(
    "from jax.experimental.hijax import VJPHiPrimitive", "from jax._src.hijax import NewstyleHiPrimitive"
)
ERA_080_CONSTRUCTOR = SemanticCase(
    "era_080_constructor",
    """
class Mul(NewstyleHiPrimitive):
    def __init__(self, aval, scale=2.0):
        super().__init__((aval, aval), aval, scale=scale)

    def expand(self, x, y):
        return self.scale * x * y

    def vjp_fwd(self, x, y):
        return self.scale * x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (self.scale * g * y, self.scale * g * x)
""",
    [[2 * v for v in Y], [2 * v for v in X]],
    header=ERA_080_HEADER,
    footer=FOOTER_012,
)
JAX_012_CASES.append(ERA_080_CONSTRUCTOR)
CORE_CASES.append(ERA_080_CONSTRUCTOR)  # jax 0.10.2: the same rules, up to their gates

JAX_012_CASES.append(
    SemanticCase(
        "era_0110_lin_pair",
        """
from jax.experimental.hijax import transpose_linearized, vjp_fwd_from_lin


class Mul(Binary):
    vjp_fwd = vjp_fwd_from_lin
    vjp_bwd_retval = transpose_linearized

    def lin(self, nzs_in, x, y):
        return x * y, (x, y)

    def linearized(self, residuals, tx, ty):
        x, y = residuals
        return tx * y + x * ty
""",
        [Y, X],
        footer=FOOTER_012,
    )
)

# A dce override that jax calls: under jit, the second output is dead.
DCE_FOOTER = """

def f(x, y):
    product, _ = {cls}(jax.typeof(x))(x, y)
    return jnp.sum(product)


ARGS = (jnp.array({x}), jnp.array({y}))
ARGNUMS = (0, 1)
JIT_VALUE = True
"""
JAX_012_CASES.append(
    SemanticCase(
        "era_0112_dce",
        """
class Split(HiPrim):
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = (aval, aval)
        self.params = {}
        super().__init__()

    def expand(self, x, y):
        return x * y, x + y

    def vjp_fwd(self, nzs_in, x, y):
        return (x * y, x + y), (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        product_ct, _ = g  # the sum is never differentiated here
        return (product_ct * y, product_ct * x)

    def dce(self, used_outs):
        if any(used_outs):  # keep every input and output
            return True, True, self
        return super().dce(used_outs)
""",
        [Y, X],
        cls="Split",
        header=DICT_HEADER.replace("VJPHiPrimitive", "HiPrim"),
        footer=DCE_FOOTER,
    )
)

# Only the 0.8.0 constructor is old: it alone makes the code fail.
CORE_CASES.append(
    SemanticCase(
        "init_constructor_only",
        """
class Mul(VJPHiPrimitive):
    def __init__(self, aval, scale=2.0):
        super().__init__([aval, aval], aval, scale=scale)

    def expand(self, x, y):
        return self.scale * x * y

    def vjp_fwd(self, nzs_in, x, y):
        return self.scale * x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (self.scale * g * y, self.scale * g * x)
""",
        [[2 * v for v in Y], [2 * v for v in X]],
        header=DICT_HEADER,
        footer=FOOTER_012,
    )
)

# Results as lists: jax checks a rule's result against a tuple, so a rename
# makes them tuples and accumulator writes go element by element.
for _strategy in ("auto", "accum"):
    CORE_CASES += [
        SemanticCase(
            f"list_display_{_strategy}",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return [g * y,  # x's
                g * x]
""",
            [Y, X],
            {"strategy": _strategy},
        ),
        SemanticCase(
            f"list_comprehension_{_strategy}",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return [g * other for other in (y, x)]
""",
            [Y, X],
            {"strategy": _strategy},
        ),
        SemanticCase(
            f"list_filled_by_index_{_strategy}",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        cts = [None] * 2
        cts[1] = g * x
        return cts
""",
            [[0.0, 0.0, 0.0], X],
            {"strategy": _strategy},
        ),
        # the decorator halves the cotangents: writes inside the rule would skip it
        SemanticCase(
            f"decorated_rule_{_strategy}",
            f"""
def halved(rule):
    def wrapper(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapper


class Mul(Binary):{FWD}
    @halved
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
            [[0.5 * v for v in Y], [0.5 * v for v in X]],
            {"strategy": _strategy},
        ),
        # half-migrated by an earlier run: the base renamed, the subclass and its call not yet
        SemanticCase(
            f"half_migrated_family_{_strategy}",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)


class Twice(Mul):
    def vjp_bwd(self, res, g):
        gx, gy = super().vjp_bwd(res, g)
        return 2 * gx, 2 * gy
""",
            [[2 * v for v in Y], [2 * v for v in X]],
            {"strategy": _strategy},
            cls="Twice",
        ),
        # a rule defined in each arm of an ``if`` in the class body: each renamed alike
        SemanticCase(
            f"rule_in_each_arm_of_an_if_{_strategy}",
            f"""
class Mul(Binary):{FWD}
    if jax.__version_info__ >= (0, 9):
        def vjp_bwd(self, res, g):
            x, y = res
            return [g * y, g * x]
    else:
        def vjp_bwd(self, res, g):
            x, y = res
            return (g * y, g * x)
""",
            [Y, X],
            {"strategy": _strategy},
        ),
        # an ``else`` holding only an ``if`` goes on with the chain: one arm runs, and each
        # arm binds one rule, the renamed ones and a ``vjp_bwd_retval`` alike
        SemanticCase(
            f"rule_in_the_arms_of_an_else_holding_an_if_{_strategy}",
            f"""
OLD_JAX, SLOW = False, True


class Mul(Binary):{FWD}
    if OLD_JAX:
        def vjp_bwd(self, res, g):
            x, y = res
            return (y * g, x * g)
    else:
        if SLOW:
            def vjp_bwd(self, res, g):
                x, y = res
                return (g * y, g * x)
        else:
            def vjp_bwd_retval(self, res, g):
                x, y = res
                return [g * y, g * x]
""",
            [Y, X],
            {"strategy": _strategy},
        ),
    ]

# rules bound in the class body, a partialmethod among them: the binding is renamed
CORE_CASES += [
    SemanticCase(
        f"bound_partialmethod_{_strategy}",
        f"""
import functools


def _scaled_bwd(self, res, g, scale=1.0):
    x, y = res
    return (scale * g * y, scale * g * x)


class Mul(Binary):{FWD}
    vjp_bwd = functools.partialmethod(_scaled_bwd, scale=2.0)
""",
        [[2 * v for v in Y], [2 * v for v in X]],
        {"strategy": _strategy},
    )
    for _strategy in ("auto", "accum")
]

# a module function bound as the rule, returning a list: its results become tuples
CORE_CASES += [
    SemanticCase(
        f"bound_function_returning_a_list_{_strategy}",
        f"""
def _mul_bwd(self, res, g):
    x, y = res
    return [g * other for other in (y, x)]


class Mul(Binary):{FWD}
    vjp_bwd = _mul_bwd
""",
        [Y, X],
        {"strategy": _strategy},
    )
    for _strategy in ("auto", "accum")
]

# a rule bound on a line with another statement, and in a one-line class body: the
# same binding, renamed (the tool passed both over: "nothing left to fix")
CORE_CASES += [
    SemanticCase(
        f"bound_{_layout}_{_strategy}",
        f"""
def _mul_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


class MulBase(Binary):{FWD}

{_body}
""",
        [Y, X],
        {"strategy": _strategy},
    )
    for _strategy in ("auto", "accum")
    for _layout, _body in (
        ("beside_another_statement", 'class Mul(MulBase):\n    label = "mul"; vjp_bwd = _mul_bwd\n'),
        ("in_a_one_line_body", "class Mul(MulBase): vjp_bwd = _mul_bwd\n"),
    )
]

# Half-ports whose every path is known (issue 26, path facts): writes on both
# arms, helpers whose bodies are read, NullAccum exits, assertions, partial
# ports, match arms. Each migrates under both strategies, at 0.10 (with the
# other proven cases) and at 0.12 (tests/test_path_semantics.py).
HELPERS_HEADER = (
    NULL_HEADER
    + """

def _write_all(accs, cts):
    for acc, ct in zip(accs, cts):
        acc.accum(ct)


class Writes(Binary):
    def _write(self, acc, ct):
        acc.accum(ct)

    def _live(self, acc):
        return not isinstance(acc, NullAccum)
"""
)

PATH_CASES = [
    SemanticCase(
        "half_ported_writes_on_both_arms",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        if g is not None:
            x_acc.accum(g * y)
        else:
            x_acc.accum(None)
        return g * y, g * x
""",
        [Y, X],
        header=NULL_HEADER,
    ),
    SemanticCase(
        "half_ported_helper_method_of_a_base",
        f"""
class Mul(Writes):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        if isinstance(x_acc, NullAccum) and isinstance(y_acc, NullAccum):
            return None
        self._write(x_acc, g * y)
        return g * y, g * x
""",
        [Y, X],
        header=HELPERS_HEADER,
    ),
    SemanticCase(
        "half_ported_zip_helper",
        f"""
class Mul(Writes):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        _write_all((x_acc, y_acc), (g * y, g * x))
        return g * y, g * x
""",
        [Y, X],
        header=HELPERS_HEADER,
    ),
    SemanticCase(
        "half_ported_inspecting_helper",
        f"""
class Mul(Writes):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        if not self._live(x_acc) and not self._live(y_acc):
            return None
        return g * y, g * x
""",
        [Y, X],
        header=HELPERS_HEADER,
    ),
    SemanticCase(
        "half_ported_match_arms_and_assert",
        f"""
class Mul(Writes):{FWD}
    def vjp_bwd(self, res, g, *arg_accums):
        assert len(arg_accums) == 2
        x_acc, y_acc = arg_accums
        x, y = res
        match self.params:
            case {{"fast": True}}:
                self._write(x_acc, g * y)
            case _:
                x_acc.accum(g * y)
        return g * y, g * x
""",
        [Y, X],
        header=HELPERS_HEADER,
    ),
    SemanticCase(
        "half_ported_written_in_a_loop_refused",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        for _ in range(len(self.params)):
            x_acc.accum(g * y)
        return g * y, g * x
""",
        [Y, X],
        refused=("auto", "accum"),
    ),
    SemanticCase(
        "half_ported_helper_writes_twice_refused",
        f"""
class Mul(Writes):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        self._twice(x_acc, g * y)
        return g * y, g * x

    def _twice(self, acc, ct):
        acc.accum(ct)
        acc.accum(ct)
""",
        [Y, X],
        header=HELPERS_HEADER,
        refused=("auto", "accum"),
    ),
    # A rule whose call runs none of its body (analysis/function_kinds.py): jax gets a generator or a
    # coroutine, and fails before and after any rename; refused, never passed as migrated.
    SemanticCase(
        "generator_value_rule_refused",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        if not self.params:
            yield
        return g * y, g * x
""",
        [Y, X],
        refused=("auto", "accum"),
    ),
    SemanticCase(
        "coroutine_accumulator_rule_refused",
        f"""
class Mul(Binary):{FWD}
    async def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
""",
        [Y, X],
        refused=("auto", "accum"),
    ),
    SemanticCase(
        "bound_generator_function_refused",
        f"""
def _bwd(self, res, g, x_acc, y_acc):
    x, y = res
    x_acc.accum(g * y)
    y_acc.accum(g * x)
    yield from ()


class Mul(Binary):{FWD}
    vjp_bwd = _bwd
""",
        [Y, X],
        refused=("auto", "accum"),
    ),
]
PROVEN_CASES += PATH_CASES

# --strategy accum on a primitive batched through batch_dim_rule, before jax 0.12: renamed
CORE_CASES.append(
    SemanticCase(
        "accum_batch_dim_rule_renamed",
        f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        return g * y, g * x
""",
        [Y, X],
        {"strategy": "accum"},
        header=DIM_RULE_HEADER,
    )
)


# tests/test_path_semantics.py's cases, run at 0.12 in jax_batch's 0.12 process
# jax's own RematTraced.vjp_bwd, in small: the accumulators go to a call, its logs come back
LOGS_CASE = SemanticCase(
    "accum_rule_returns_logs_from_a_call",
    f"""
def _backward(x, y, g):
    def with_refs(x_acc, y_acc):
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return None, {{"g": g}}
    return with_refs


class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, *arg_accums):
        _, logs = _backward(*res, g)(*arg_accums)
        return logs
""",
    [Y, X],
    header=HEADER.replace("VJPHiPrimitive", "HiPrim"),
    footer=FOOTER_012,
)
# vmap at 0.12 needs a `batch` rule, which no migration writes: grad and jit only
PATH_CASES_012 = [dataclasses.replace(case, footer=FOOTER_012) for case in PATH_CASES]
