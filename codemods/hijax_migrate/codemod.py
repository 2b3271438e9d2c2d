"""The migration as a libcst codemod, for ``python -m libcst.tool codemod``."""

from __future__ import annotations

import argparse

import libcst as cst
from libcst.codemod import Codemod, CodemodContext

from .context import STRATEGIES, Options
from .engine import MigrationError, migrate_source
from .report import where
from .versions import LATEST, format_version, parse_version


class HijaxMigrateCommand(Codemod):
    DESCRIPTION = "Upgrade hijax primitives (VJPHiPrimitive/HiPrim subclasses) to a jax release's API."

    def __init__(self, context: CodemodContext, target_jax: str = format_version(LATEST),
                 strategy: str = "auto") -> None:
        super().__init__(context)
        self.options = Options(parse_version(target_jax), strategy)

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument("--target-jax", default=format_version(LATEST))
        arg_parser.add_argument("--strategy", choices=STRATEGIES, default="auto")

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        name = self.context.filename or "<module>"
        try:
            result = migrate_source(tree.code, name, self.options, module=self.context.full_module_name or "")
        except MigrationError as error:
            self.warn(f"{where(name, error.line)}: {error}")
            return tree
        for finding in result.report.findings:
            self.warn(f"{where(finding.file, finding.line)}: {finding.message}")
        return cst.parse_module(result.code) if result.changed else tree
