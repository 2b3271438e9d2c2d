"""Semantic cases for whole class families and names (issue 11).

Each is a module for ``jax_probe.py`` (or a tree of them, for cases that
span files), broken before migration and right after it, with the known
gradients of x * y at x = [0, 1, 2], y = [1, 2, 3].
"""

import textwrap
from dataclasses import dataclass

from semantic_cases import FOOTER, HEADER, SemanticCase, X, Y

# Forward rules whose signature, not their parameter names, says whether
# ``nzs_in`` is missing.
FWD_CASES = [
    SemanticCase(
        "fwd_beside_defaulted_expand",
        """
class Mul(VJPHiPrimitive):
    def __init__(self, aval):
        self.out_aval = aval
        self.in_avals = (aval, aval)
        self.params = {}
        super().__init__()

    def expand(self, x, y, scale=1.0):
        return x * y * scale

    def batch_dim_rule(self, axis_data, dims):
        return dims[0]

    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
    ),
    SemanticCase(
        "fwd_static",
        """
class Mul(Binary):
    @staticmethod
    def vjp_fwd(x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
        [Y, X],
    ),
]

BINARY_BODY = """
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = aval
        self.params = {}
        super().__init__()

    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)
"""

GUARDED_HEADER = """
import jax
import jax.numpy as jnp

try:
    from jax.experimental.hijax import VJPHiPrimitive
    HAS_HIJAX = True
except ImportError:
    HAS_HIJAX = False
"""

FOOTER_NO_VMAP = FOOTER.replace(
    """def f_elem(x, y):
    return {cls}(jax.typeof(x))(x, y)


""",
    "",
)

# Two unrelated classes named Mul: only the hijax one's calls follow its rule.
SCOPE_CASES = [
    SemanticCase(
        "same_named_classes",
        f"""
def _quantized():
    class Mul:
        def vjp_bwd(self, res, g):
            return g, None

        def run(self, g):
            return self.vjp_bwd(None, g)[0]

    return Mul()


class Mul(VJPHiPrimitive):{BINARY_BODY}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)

    def batch_dim_rule(self, axis_data, dims):
        return dims[0]

    def debug(self, res, g):
        return self.vjp_bwd(res, g)


QUANT = _quantized()


def f(x, y):
    return jnp.sum(QUANT.run(Mul(jax.typeof(x))(x, y)))
""",
        [Y, X],
        footer=FOOTER_NO_VMAP.replace("def f(", "def _unused("),
    ),
]

MUL_FWD = """
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)
"""

VALUE_RULE = """
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""

ACCUM_RULE = """
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
"""

BOTH = "jnp.sum(MulBase(jax.typeof(x))(x, y)) + jnp.sum(Mul(jax.typeof(x))(x, y))"
BOTH_FOOTER = f"""

def f(x, y):
    return {BOTH}


ARGS = (jnp.array({X}), jnp.array({Y}))
ARGNUMS = (0, 1)
"""
DOUBLE = [[2 * v for v in Y], [2 * v for v in X]]

# Rules that live outside the class, and families whose members must agree.
FAMILY_CASES = [
    SemanticCase(
        "mixin",
        f"""
class GradMixin:{VALUE_RULE}

class Mul(GradMixin, Binary):{MUL_FWD}
""",
        [Y, X],
    ),
    SemanticCase(
        "shared_function",
        f"""
def _shared_bwd(self, res, g):
    x, y = res
    return (g * y, g * x)


class Mul(Binary):
    vjp_bwd = _shared_bwd
{MUL_FWD}

class Other(Binary):
    vjp_bwd = _shared_bwd
{MUL_FWD}""",
        [Y, X],
    ),
    SemanticCase(
        "base_value_subclass_accumulator",
        f"""
class MulBase(Binary):{MUL_FWD}{VALUE_RULE}

class Mul(MulBase):{ACCUM_RULE}""",
        DOUBLE,
        footer=BOTH_FOOTER,
    ),
    SemanticCase(
        "base_accumulator_subclass_value",
        f"""
class MulBase(Binary):{MUL_FWD}{ACCUM_RULE}

class Mul(MulBase):{VALUE_RULE}""",
        [Y, X],
    ),
]

# A class made by ``type(name, bases, {"vjp_bwd": f})``: its key is renamed, its list results made tuples.
FACTORY_MODULE = f"""
class MulBase(Binary):{MUL_FWD}

def _mul_bwd(self, res, g):
    x, y = res
    return [g * y, g * x]


Mul = type("Mul", (MulBase,), {{"vjp_bwd": _mul_bwd}})
"""
SUPER_RULE = """
    def vjp_bwd(self, res, g):
        return super().vjp_bwd(res, g)
"""
FAMILY_CASES += [
    SemanticCase("type_factory", FACTORY_MODULE, [Y, X]),
    SemanticCase("type_factory_accum_strategy", FACTORY_MODULE, [Y, X], flags={"strategy": "accum"}),
    SemanticCase(
        "type_factory_subclassed", FACTORY_MODULE + f"\n\nclass Scaled(Mul):{SUPER_RULE}", [Y, X], cls="Scaled"
    ),
]

VALUE_MUL = f"""
class Mul(VJPHiPrimitive):{BINARY_BODY}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""
PLAIN_HEADER = "\nimport jax\nimport jax.numpy as jnp\n"

# Fail under jax 0.12 before migration (0.10.2 runs them as they are).
JAX_012_ONLY = [
    SemanticCase(
        "star_import",
        VALUE_MUL,
        [Y, X],
        footer=FOOTER_NO_VMAP,
        header=PLAIN_HEADER + "from jax.experimental.hijax import *\n",
    ),
    SemanticCase(
        "explicit_reexport",
        VALUE_MUL,
        [Y, X],
        footer=FOOTER_NO_VMAP,
        header=PLAIN_HEADER + "from jax.experimental.hijax import VJPHiPrimitive as VJPHiPrimitive\n",
    ),
    SemanticCase(
        "guarded_import",
        "\nif HAS_HIJAX:\n"
        + textwrap.indent(
            f"""
class Mul(VJPHiPrimitive):{BINARY_BODY}
    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
""",
            "    ",
        ),
        [Y, X],
        header=GUARDED_HEADER,
        footer=FOOTER_NO_VMAP,
    ),
]


@dataclass
class TreeCase:
    """A case spread over files: ``main`` is the module the probe imports."""

    name: str
    files: dict[str, str]
    expected: list
    main: str = "main.py"


TREE_FOOTER = FOOTER_NO_VMAP.format(cls="{cls}", x=X, y=Y)

LOGS_BASE = (
    """
from jax.experimental.hijax import VJPHiPrimitive


class LoggingBinary(VJPHiPrimitive):
    vjp_bwd_retval_logs = True
"""
    + BINARY_BODY
)

OUT_OF_STEP = TreeCase(
    "base_and_subclass_out_of_step_across_files",
    {
        "base.py": f"""
from jax.experimental.hijax import VJPHiPrimitive


class MulBase(VJPHiPrimitive):{BINARY_BODY}{VALUE_RULE}""",
        "main.py": f"""
import jax
import jax.numpy as jnp

from base import MulBase


class Mul(MulBase):{ACCUM_RULE}"""
        + BOTH_FOOTER,
    },
    DOUBLE,
)

MIXIN_ELSEWHERE = TreeCase(
    "mixin_in_another_file",
    {
        "mixins.py": f"""
class GradMixin:{VALUE_RULE}""",
        "main.py": HEADER
        + f"""
from mixins import GradMixin


class Mul(GradMixin, Binary):{MUL_FWD}"""
        + TREE_FOOTER.format(cls="Mul"),
    },
    [Y, X],
)

# The subclass's last rule takes the accumulator form (a rename would revive
# the first): its base, in another file, must not be renamed, whichever file
# is migrated first (jax: "should not override both").
DEFINED_TWICE_ELSEWHERE = TreeCase(
    "subclass_defining_its_rule_twice_in_another_file",
    {
        "base.py": OUT_OF_STEP.files["base.py"],
        "main.py": f"""
import jax
import jax.numpy as jnp

from base import MulBase


class Mul(MulBase):
    def vjp_bwd(self, res, g):
        return (g, g)
{VALUE_RULE}"""
        + BOTH_FOOTER,
    },
    DOUBLE,
)

# A subclass in another file of a class made by ``type(...)``: its ``super()`` call follows the key.
FACTORY_ELSEWHERE = TreeCase(
    "subclass_of_a_type_factory_in_another_file",
    {
        "made.py": HEADER + FACTORY_MODULE,
        "main.py": f"""
import jax
import jax.numpy as jnp

from made import Mul


class Scaled(Mul):{SUPER_RULE}"""
        + TREE_FOOTER.format(cls="Scaled"),
    },
    [Y, X],
)

TREES = [OUT_OF_STEP, MIXIN_ELSEWHERE, DEFINED_TWICE_ELSEWHERE, FACTORY_ELSEWHERE]

from resolve_cases import RESOLVE_TREES  # noqa: E402 (its trees build on those above)

TREES += RESOLVE_TREES

JAX_012_TREES = [
    TreeCase(
        "base_reexported_by_a_compat_module",
        {
            "compat.py": "from jax.experimental.hijax import VJPHiPrimitive\n",
            "main.py": PLAIN_HEADER
            + "from compat import VJPHiPrimitive\n\n"
            + VALUE_MUL
            + TREE_FOOTER.format(cls="Mul"),
        },
        [Y, X],
    ),
    TreeCase(
        "flag_in_base_in_another_file",
        {
            "base.py": LOGS_BASE,
            "main.py": """
import jax
import jax.numpy as jnp

from base import LoggingBinary


class Mul(LoggingBinary):
    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x), {"g": g}
"""
            + TREE_FOOTER.format(cls="Mul"),
        },
        [Y, X],
    ),
]
