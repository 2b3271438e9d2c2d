"""What one file's migration knows and what it reports back."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import CodemodContext, ContextAwareTransformer
from libcst.metadata import PositionProvider

from .primitives import PrimitiveMap
from .project import Project
from .model import STRATEGIES, Change, FileReport, Finding, Options  # noqa: F401 (re-exported)


class RuleTransformer(ContextAwareTransformer):
    """Base of every rule: knows the primitives of the file and reports."""

    METADATA_DEPENDENCIES = (PositionProvider,)
    rule = None  # set by registry.rule

    def __init__(self, context: CodemodContext, prims: PrimitiveMap,
                 options: Options, report: FileReport, project: Project):
        super().__init__(context)
        self.prims, self.options, self.report, self.project = prims, options, report, project

    def changed(self, line: int, cls: cst.ClassDef | None, action: str) -> None:
        qualname = self.prims.qualnames.get(cls, "") if cls is not None else ""
        self.report.changes.append(
            Change(self.report.file, line, qualname, self.rule.code, self.rule.name, action))

    def skipped(self, line: int, cls: cst.ClassDef | None, reason: str) -> None:
        where = f"{self.prims.qualnames[cls]}: " if cls is not None else ""
        message = f"{where}{reason}"
        self.report.findings.append(Finding(self.report.file, line, message, self.rule.code))
        self.warn(f"{self.report.file}:{line}: {message}")
