"""Programs whose ``dce`` is written in each form jax 0.12's new signature
reaches (issue 26): delegated to the base by name, through ``super(C, self)``,
defined in a plain mixin (in the same file or another), or a module function
bound in the class body. Under ``jit`` the second output is dead, so jax 0.12
calls ``dce(used_outs, live_ins)``: the code as written fails with
``missing 1 required positional argument: 'live_ins'``.

And a primitive whose ``batch_dim_rule`` only raises ``NotImplementedError``:
``vmap`` of it raises on jax 0.10 (through the rule) and on 0.12 (the default
``batch``), and ``vmap(grad)`` works on both (it batches the rules, not the
primitive), so the tool's note is right that nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

X, Y = [0.0, 1.0, 2.0], [1.0, 2.0, 3.0]

SPLIT = """
class Split({bases}):
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = (aval, aval)
        self.params = {{}}
        super().__init__()

    def expand(self, x, y):
        return x * y, x + y

    def vjp_fwd(self, nzs_in, x, y):
        return (x * y, x + y), (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        product_ct, _ = g
        return (product_ct * y, product_ct * x)
{body}"""

FOOTER = f"""

def f(x, y):
    product, _ = Split(jax.typeof(x))(x, y)
    return jnp.sum(product)


ARGS = (jnp.array({X}), jnp.array({Y}))
ARGNUMS = (0, 1)
JIT_VALUE = True
"""

HEAD = """import jax
import jax.numpy as jnp
import jax.experimental.hijax as hjx
from jax.experimental.hijax import HiPrim
"""


@dataclass
class DceCase:
    name: str
    source: str = ""
    files: dict = field(default_factory=dict)  # a tree: its files, run from ``main``
    main: str = "main.py"


def single(name: str, body: str, bases: str = "HiPrim", before: str = "") -> DceCase:
    return DceCase(name, HEAD + before + SPLIT.format(bases=bases, body=body) + FOOTER)


SINGLE = [
    single(
        "by_base",
        """
    def dce(self, used_outs):
        return HiPrim.dce(self, used_outs)
""",
    ),
    single(
        "by_module_alias",
        """
    def dce(self, used_outs):
        if not any(used_outs):
            return False, False, None
        return hjx.HiPrim.dce(self, used_outs)
""",
    ),
    single(
        "by_super_with_args",
        """
    def dce(self, used_outs):
        return super(Split, self).dce(used_outs)
""",
    ),
    single(
        "mixin",
        "",
        "KeepAll, HiPrim",
        """

class KeepAll:
    def dce(self, used_outs):
        if any(used_outs):
            return True, True, self
        return super().dce(used_outs)

""",
    ),
    single(
        "bound_function",
        """
    dce = _keep_all
""",
        before="""

def _keep_all(self, used_outs):
    return HiPrim.dce(self, used_outs)

""",
    ),
]

TREE = DceCase(
    "mixin_in_another_file",
    files={
        "mixins.py": """class KeepAll:
    def dce(self, used_outs):
        return super().dce(used_outs)
""",
        "main.py": HEAD + "from mixins import KeepAll\n" + SPLIT.format(bases="KeepAll, HiPrim", body="") + FOOTER,
    },
)
CASES = [*SINGLE, TREE]

EXPECTED = [Y, X]  # d/dx (x * y) = y, d/dy = x
VALUE = sum(x * y for x, y in zip(X, Y))

# Written for jax 0.10 (VJPHiPrimitive): the tool renames the base at 0.12 and notes the rule.
NO_VMAP = f'''import jax
import jax.numpy as jnp
from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def __init__(self, aval):
        self.in_avals = (aval, aval)
        self.out_aval = aval
        self.params = {{}}
        super().__init__()

    def expand(self, x, y):
        return x * y

    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)

    def batch_dim_rule(self, axis_data, dims):
        """Not batchable."""
        raise NotImplementedError("Mul does not support vmap")


def f(x, y):
    return jnp.sum(Mul(jax.typeof(x))(x, y))


def f_elem(x, y):
    return Mul(jax.typeof(x))(x, y)


ARGS = (jnp.array({X}), jnp.array({Y}))
ARGNUMS = (0, 1)
'''
# The same primitive under vmap itself (``vmap(grad)`` batches the rules, never the primitive).
NO_VMAP_BATCHED = NO_VMAP.replace("return jnp.sum(Mul(jax.typeof(x))(x, y))", "return jnp.sum(jax.vmap(f_elem)(x, y))")


def checks_012(batch) -> dict:
    """Every program migrated to 0.12, for jax_batch's 0.12 process to run before and after:
    {("dce", name): Check}. (Called with the batch's own cache folder set.)"""
    from hijax_migrate.core.versions import parse_version
    from hijax_migrate.engine.engine import migrate_source
    from hijax_migrate.rules.context import Options
    from jax_batch import Check, migrate_tree_case

    at_012 = Options(parse_version("0.12"))

    def single(source: str, name: str) -> Check:
        migrated = migrate_source(source, f"{name}.py", at_012)
        return Check(batch, migrated, before=batch.module(source), after=batch.module(migrated.code))

    checks = {("dce", case.name): single(case.source, case.name) for case in SINGLE}
    checks["dce", TREE.name] = migrate_tree_case(batch, TREE, at_012, sorted, f"dce-{TREE.name}")
    checks["dce", "no_vmap"] = single(NO_VMAP, "no_vmap")
    checks["dce", "no_vmap_batched"] = single(NO_VMAP_BATCHED, "no_vmap_batched")
    return checks
