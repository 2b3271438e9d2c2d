"""Migrating one module's source: run the selected rules, in order, over it."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import MetadataWrapper

from . import registry
from .context import FileReport, Options
from .primitives import PrimitiveMap
from .project import Project
from .summary import Kind, summarize
from .versions import format_version


class MigrationError(Exception):
    """A file the tool will not rewrite; ``line`` is 0 where there is none."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line


@dataclass
class Result:
    code: str
    report: FileReport

    @property
    def changed(self) -> bool:
        return bool(self.report.changes)


def migrate_source(code: str, path: str = "<string>", options: Options | None = None,
                   project: Project | None = None, module: str = "") -> Result:
    """Migrate ``code``; raises MigrationError for code it cannot handle."""
    options = options or Options()
    project = project or Project(options.extra_bases)
    report = FileReport(path)
    tree = _parse(code)
    _check_target(code, module, project, options)
    for rule in registry.select(options.target, options.only, options.skip):
        tree = _apply(rule, tree, path, module, project, options, report)
    new_code = tree.code
    if new_code != code:
        try:
            compile(new_code, path, "exec", dont_inherit=True)
        except SyntaxError as error:  # never write code that does not parse
            raise MigrationError(f"internal error: the rewrite does not parse ({error.msg}); "
                                 "file left unchanged, please report this", error.lineno or 0) from error
    return Result(new_code, report)


def _parse(code: str) -> cst.Module:
    try:
        return cst.parse_module(code)
    except cst.ParserSyntaxError as error:
        raise MigrationError(f"syntax error: {error.message}", error.raw_line) from error
    except RecursionError as error:
        raise MigrationError("too deeply nested to parse") from error


def _check_target(code: str, module: str, project: Project, options: Options) -> None:
    """Going backwards is not supported: HiPrim code cannot target an older jax."""
    if options.target >= (0, 11, 2):
        return
    summary = summarize(code, module)
    for info in summary.classes:
        if project.class_kind(info) is Kind.HIPRIM:
            raise MigrationError(f"class {info.qualname} already uses HiPrim (jax 0.11.2+), newer than "
                                 f"the target jax {format_version(options.target)}", info.lineno)


def _apply(rule, tree: cst.Module, path: str, module: str, project: Project,
           options: Options, report: FileReport) -> cst.Module:
    summary = summarize(tree.code, module, path.endswith("__init__.py"))
    if module:
        project.add_summary(summary)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    prims = PrimitiveMap.build(wrapper, summary, project)
    context = CodemodContext(filename=path, full_module_name=module or None, wrapper=wrapper)
    new_tree = wrapper.visit(rule.transformer(context, prims, options, report, project))
    for visitor in (AddImportsVisitor, RemoveImportsVisitor):
        if context.scratch.get(visitor.CONTEXT_KEY):
            new_tree = visitor(context).transform_module(new_tree)
    return new_tree
