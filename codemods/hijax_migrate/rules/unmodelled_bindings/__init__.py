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

import ast

from ...analysis.namespace import DEF, body_bindings
from ...analysis.namespace_after import outside_bindings
from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..base import Rule

# The names some rule decides the bindings of (``Rule.binds``; a test holds them to the
# registry's): only these can break at a target.
NAMES = frozenset({"vjp_bwd", "vjp_fwd", "vjp_bwd_retval_logs", "dce", "remat", "batch_dim_rule"})
# Words a file must name for such a binding to be looked for: the names, and a hijax base's
# (``dce`` and ``remat`` are no words of their own: too common; their primitives name a base).
WORDS = ("vjp_bwd", "vjp_fwd", "batch_dim_rule", "HiPrim")


def unusual(node: ast.ClassDef, kind: Kind) -> bool:
    """Triage's test: the body binds such a name (or one not written out) other than by a plain
    ``def`` (a superset: every rule that reads a name decides its ``def``)."""
    return any(b.key != DEF and (b.name is None or b.name in NAMES) for b in body_bindings(node))


def bound_outside(code: str, tree: ast.Module, classes: list, scope, project) -> bool:
    """Triage's test: an API name bound after a class statement, or by the way a class is made."""
    found = outside_bindings(tree, [node for node, _, _ in classes])
    return any(b.name is None or b.name in NAMES for _, b in found)


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
    class_test=unusual,
    family_test=bound_outside,
)
