"""Deciding, per import of an old base name, how it follows the rename.

An import is renamed together with every use of it, or not at all:
- RENAME: the import names the new class and every use is renamed, when
  each use resolves to this import alone and nothing else binds the new
  name where it is used (a later project ``HiPrim`` would shadow jax's);
- ALIAS: the import names the new class under the old name (``HiPrim as
  VJPHiPrimitive``) and the uses stay, when they cannot all be renamed: a
  fallback binding (``except ImportError: VJPHiPrimitive = object``), a use
  inside a version switch, a shadowing binding, a read of the module's
  namespace by keys it may compute (``globals()["HiPrim"]`` found none before),
  or a re-export, in ``__all__``, explicit (``Old as Old``) or used by another
  module of the tree (``from this import Old``): importers elsewhere keep working;
- LEAVE: the import stands in a version switch, which is right as it is.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from .cst_blocks import small_statements
from .nodes import findall, is_name, sole_target
from .project import HIJAX_MODULES


class Decision(enum.Enum):
    RENAME = "rename"
    ALIAS = "alias"
    LEAVE = "leave"


@dataclass
class ImportPlan:
    aliases: dict[cst.ImportAlias, Decision] = field(default_factory=dict)
    uses: set[cst.Name] = field(default_factory=set)  # Names to rename
    refused: list[tuple[cst.CSTNode, str]] = field(default_factory=list)  # (where, why) left as written


def hijax_from(node: cst.ImportFrom, star: bool = False) -> bool:
    """An import from jax's hijax modules: of names, or (``star``) of ``*``."""
    module = get_full_name_for_node(node.module) if node.module else None
    return not node.relative and module in HIJAX_MODULES and isinstance(node.names, cst.ImportStar) == star


def exported(module: cst.Module) -> set[str]:
    """Strings in a module-level ``__all__``."""
    names: set[str] = set()
    for stmt in module.body:
        for small in getattr(stmt, "body", ()) if isinstance(stmt, cst.SimpleStatementLine) else ():
            if (
                is_name(sole_target(small), "__all__")
                or isinstance(small, cst.AugAssign)
                and is_name(small.target, "__all__")
            ):
                names |= {s.evaluated_value for s in findall(small.value, cst.SimpleString)}
    return names


@dataclass(frozen=True)
class Read:
    """A read of a name, as a plan needs it."""

    node: cst.CSTNode  # a Name, or ``rename_reads.IN_A_STRING`` (a string annotation)
    referents: int  # how many bindings it may be
    shadowed: bool  # something but a hijax import binds the new name where it stands
    why: str | None = None  # what keeps it from being followed, for a finding (none: ``shadowed`` says)


def plan_imports(
    module: cst.Module, reads, old: str, new: str, switched: set[cst.CSTNode], public: set[str] = frozenset()
) -> ImportPlan:
    """``reads``: the reads of ``old`` (``rename_reads.ModelReads``); ``switched``:
    nodes inside version switches; ``public``: names other modules import from this one,
    besides ``__all__``."""
    plan, public, stars = ImportPlan(), exported(module) | public, []
    for node in small_statements(module, cst.ImportFrom):
        if isinstance(node.names, cst.ImportStar):
            stars.append(node)
        if not hijax_from(node):
            continue
        for alias in node.names:
            if get_full_name_for_node(alias.name) != old:
                continue
            decision, uses = _decide(node, alias, reads, switched, public)
            plan.aliases[alias] = decision
            if decision is Decision.RENAME:
                plan.uses |= uses
    if any(hijax_from(star, star=True) for star in stars):
        _star_uses(plan, stars, reads, old, new, switched, public)
    return plan


def _star_uses(plan: ImportPlan, stars: list[cst.ImportFrom], reads, old: str, new: str, switched, public) -> None:
    """Uses of ``old`` that only jax's ``from ... hijax import *`` binds: renamed
    (the star import then binds the new name), or left with the reason."""
    accesses = reads.unbound(old)
    if not accesses:
        return
    others = [star for star in stars if not hijax_from(star, star=True)]
    where = others[0] if others else next(star for star in stars if hijax_from(star, star=True))
    if others:
        why = "may come from this other star import as well as from jax's"
    elif where in switched:
        return  # a version switch: right as it is
    elif old in public:
        why = (
            "is re-exported (in `__all__`, or another module imports it from here), "
            "and jax's star import no longer binds it"
        )
    elif any(a.why for a in accesses):
        why = next(a.why for a in accesses if a.why)
    elif any(a.node in switched or not isinstance(a.node, cst.Name) or a.shadowed for a in accesses):
        why = f"has a use in a version switch, in a string or where another `{new}` is bound"
    else:
        plan.uses |= {a.node for a in accesses}
        return
    plan.refused.append(
        (
            where,
            f"`{old}` comes from a star import and {why}: left as written; import it by "
            f"name, after the star imports: `from jax.experimental.hijax import {new} as {old}`",
        )
    )


def _decide(node, alias, reads, switched, public) -> tuple[Decision, set[cst.Name]]:
    if node in switched:
        return Decision.LEAVE, set()
    name = get_full_name_for_node(alias.name)
    bound = alias.asname.name.value if alias.asname else name
    if alias.asname and bound == name:
        return Decision.ALIAS, set()  # ``Old as Old``, an explicit re-export: importers use the old name
    if bound != name:
        return Decision.RENAME, set()  # ``Old as Name``: the uses say Name, nothing else to rename
    accesses = reads.of_import(node, bound)
    uses = {a.node for a in accesses if isinstance(a.node, cst.Name)}
    safe = (
        bound not in public
        and all(
            a.referents == 1 and a.node not in switched and isinstance(a.node, cst.Name) and not a.shadowed
            for a in accesses
        )
        and not reads.import_shadowed(node)
        and not reads.read_unbound()
        and not reads.namespace_read()
    )
    return (Decision.RENAME, uses) if safe else (Decision.ALIAS, set())
