"""The migration as a libcst codemod:

    python -m libcst.tool codemod -x hijax_migrate.codemod.HijaxMigrateCommand --no-format PATH

Each file is migrated as the command line would migrate it: the target and
the settings come from the flags, then ``[tool.hijax-migrate]`` and the
project's pins (found from the file upwards), and bases are resolved across
the tree, from the folder the codemod runs in and the file's package root.
Excluded files are left alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import libcst as cst
from libcst.codemod import Codemod, CodemodContext

from .core.model import STRATEGIES
from .engine.engine import MigrationError
from .output.report import finding_text, shown, where
from .run.runner import migrate_document, project_for
from .run.state import Job


class HijaxMigrateCommand(Codemod):
    DESCRIPTION = "Upgrade hijax primitives (VJPHiPrimitive/HiPrim subclasses) to a jax release's API."

    def __init__(
        self,
        context: CodemodContext,
        target_jax: str | None = None,
        strategy: str | None = None,
        base: list[str] | None = None,
        config: str | None = None,
    ) -> None:
        super().__init__(context)
        # As the command line's flags would give them (None, or empty: not given)
        self.flags = {
            "target_jax": target_jax or None,
            "strategy": strategy or None,
            "base": list(base) if base else None,
            "config": config or None,
        }
        self._settings: dict = {}  # folder -> (options, exclude spec, project root)
        self._projects: dict = {}
        self._reads = None  # the tree's reads, shared by this command's projects (a run's)

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument("--target-jax", help="default: as hijax-migrate finds it")
        arg_parser.add_argument("--strategy", choices=STRATEGIES)
        arg_parser.add_argument("--base", action="append", metavar="QUALNAME")
        arg_parser.add_argument("--config", metavar="PATH", help="the pyproject.toml to read")

    def _for(self, path: Path):
        """The run's settings for a file, as the command line reads them."""
        from .command import config
        from .command.session import options_of
        from .command.usage import settings_of
        from .run.selection import spec

        key = path.parent.resolve()
        if key not in self._settings:
            settings = config.read(settings_of(paths=[str(path)], **self.flags))
            options, _ = options_of(settings)
            self._settings[key] = (options, spec(settings.excludes), settings.root)
        options, exclude, root = self._settings[key]
        return options, exclude, root, self._project(path, options)

    def _project(self, path: Path, options):
        """One project for the files that share bases and search roots: each
        base module is summarised once, not once a folder."""
        from .tree.reads import TreeReads

        if self._reads is None:
            self._reads = TreeReads()
        project = project_for([Job(path, str(path), None)], options, self._reads)
        return self._projects.setdefault((project.extra_bases, project.roots), project)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        from .core.errors import UsageError
        from .run.selection import excluded

        name = self.context.filename or "<module>"
        job = Job(Path(name), name, None)
        try:
            options, exclude, root, project = self._for(job.path)
        except UsageError as error:
            self.warn(f"{name}: {error}")
            return tree
        if excluded(job, exclude, root):
            return tree
        try:
            result = migrate_document(tree.code, job, options, project)
        except MigrationError as error:
            self.warn(f"{where(name, error.line)}: {error}")
            return tree
        for finding in shown(result.report.findings):
            self.warn(finding_text(finding))
        return cst.parse_module(result.code) if result.code != tree.code else tree
