"""What HJX001's planners work with: the transformer owns them and hands this in.

``FamilyPlanner`` (``families.py``) and ``FactoryPlanner`` (``factories.py``)
share no ``self`` with the transformer: what they read of the file and the
run is a ``RuleInputs``, and what they ask of the transformer (a change or a
refusal reported, a plan made, the accumulator form) is named by ``Steps``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from ...analysis.primitives import PrimitiveMap
from ...analysis.project import Project
from ...core.model import ERROR, FileReport, Options
from ..plans import Plan

if TYPE_CHECKING:
    from ...analysis.nodes import LazyParents
    from ..decisions import Decider


@dataclass(frozen=True)
class RuleInputs:
    """One file's migration as the planners read it; ``report`` takes the classes
    whose rule is renamed (``FamilyPlanner.renames``), what other files decide on."""

    prims: PrimitiveMap
    project: Project
    options: Options
    report: FileReport
    decider: Decider  # the run's cross-file questions (``rules/decisions.py``)


class Steps(Protocol):
    """The transformer's steps a planner takes (``AccumulatorWrites``, ``RewritePlans``, ``RuleTransformer``)."""

    def skip(self, func: cst.CSTNode, cls: cst.CSTNode | str | None, reason: str, severity: str = ERROR) -> None: ...

    def skipped(self, line: int, cls: cst.ClassDef | str | None, reason: str, severity: str = ERROR) -> None: ...

    def changed(self, line: int, cls: cst.ClassDef | str | None, action: str) -> None: ...

    def done(self, plan: Plan, action: str) -> Plan: ...

    def rename(self, cls: cst.ClassDef, func: cst.FunctionDef, new_name: str) -> Plan: ...

    def to_accumulators(self, cls: cst.ClassDef, shape, func: cst.FunctionDef, why: str) -> Plan | None: ...

    def parents(self) -> LazyParents: ...

    def by_name(self, cls: cst.ClassDef | None, attr: str = ..., info=None) -> str | None: ...
