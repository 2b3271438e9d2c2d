"""What one file's migration knows and what it reports back."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import Codemod, CodemodContext

from .primitives import PrimitiveMap
from .project import Project
from .model import STRATEGIES, Change, FileReport, Finding, Options  # noqa: F401 (re-exported)


class RuleTransformer(Codemod, cst.CSTTransformer):
    """Base of every rule: knows the primitives of the file and reports.

    libcst's ContextAwareTransformer, less its matcher-decorator scan: that
    scan costs 15 ms an instance (every attribute looked up), and no rule
    uses ``@m.visit``/``@m.leave``.
    """

    # Positions are not declared: they cost a whole code generation, and
    # ``prims.line`` resolves them only when a change or warning names a line.
    METADATA_DEPENDENCIES = ()
    rule = None  # set by registry.rule

    def __init__(self, context: CodemodContext, prims: PrimitiveMap,
                 options: Options, report: FileReport, project: Project):
        Codemod.__init__(self, context)
        cst.CSTTransformer.__init__(self)
        self.prims, self.options, self.report, self.project = prims, options, report, project

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        return tree.visit(self)

    def changed(self, line: int, cls: cst.ClassDef | None, action: str) -> None:
        qualname = self.prims.qualnames.get(cls, "") if cls is not None else ""
        self.report.changes.append(
            Change(self.report.file, line, qualname, self.rule.code, self.rule.name, action))

    def skipped(self, line: int, cls: cst.ClassDef | None, reason: str) -> None:
        where = f"{self.prims.qualnames[cls]}: " if cls is not None else ""
        message = f"{where}{reason}"
        self.report.findings.append(Finding(self.report.file, line, message, self.rule.code))
        self.warn(f"{self.report.file}:{line}: {message}")
