"""HJX016: a binding of a name jax's hijax API reads, in a form no rule follows.

Every way Python binds a name on a class (``analysis.namespace``: the class
body's statements; ``analysis.namespace_after``: after the class statement,
and the ways a class is made) is listed for each class that is or may be a
hijax primitive. A binding is decided by a rule (each rule says which forms
of which names in ``Rule.binds``), or provably right (``accounts``), or it
is an error naming the form, the class and the line, and the file is left
as it is (``halts``): another rule's edit would rest on a binding it does not see.
"""

from __future__ import annotations

from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..base import Rule, Triaged
from .decide import Classes, unaccounted_bindings

# Words a file must name for a binding no rule accounts for to be looked for: each name the rules
# decide the bindings of (``Rule.binds``), whole, as the pre-filter reads it (a primitive's base
# may come from another module: ``P.remat = f`` need name no hijax base), and a hijax base's;
# ``dce`` and ``remat``, common as plain uses in jax, where they may be bound (``bound_names``).
# A test holds them to the registry's.
WORDS = ("vjp_bwd", "vjp_fwd", "batch_dim_rule", "vjp_bwd_retval_logs", "bound dce", "bound remat", "HiPrim")


def any_unaccounted(file: Triaged) -> bool:
    """Triage's test: the rewrite's own decision, without the version gates' dead arms
    (evaluated by libcst's names), so a superset of what it reports."""
    nodes, kinds, infos = zip(*file.classes) if file.classes else ((), (), ())
    classes = Classes(list(nodes), list(kinds), list(infos), file.scope, file.project)
    return next(unaccounted_bindings(file.tree, classes, file.binds, file.code), None) is not None


RULE = Rule(
    "HJX016",
    "unmodelled-bindings",
    (0, 8, 1),
    "Reported, as an error: a hijax rule bound on a primitive in a form no rule of the tool "
    "follows. The names are those jax reads and a rule of the target decides (`vjp_bwd`, "
    "`vjp_fwd`, `dce`, `remat`, `batch_dim_rule`, `vjp_bwd_retval_logs`); the forms, every way "
    'Python binds a name on a class (`setattr(Op, "vjp_bwd", f)`, `vjp_bwd: T = f`, a `for` '
    "target, `exec`, `types.new_class`...: docs/decisions.md). Whether such a binding works at "
    "the target cannot be decided: the file is left as it is.",
    before="""
from jax.experimental.hijax import VJPHiPrimitive

def _bwd(self, res, g):
    return (g * res,)

class Op(VJPHiPrimitive):
    pass

setattr(Op, "vjp_bwd", _bwd)
""",
    after="""
from jax.experimental.hijax import VJPHiPrimitive

def _bwd(self, res, g):
    return (g * res,)

class Op(VJPHiPrimitive):
    pass

setattr(Op, "vjp_bwd", _bwd)
""",
    needs=WORDS,
    kinds=PRIMITIVE_KINDS | {Kind.EXTERNAL, Kind.NONE},
    halts=True,
    rewrite=f"{__name__}.rewrite:UnmodelledBindings",
    file_test=any_unaccounted,
)
