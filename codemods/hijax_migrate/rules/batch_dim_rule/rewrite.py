"""HJX011: jax 0.12 removed ``batch_dim_rule`` and ``VmapOf`` (reported)."""

from __future__ import annotations

import libcst as cst

from ...analysis.project import HIJAX_MODULES
from ...analysis.shape import class_shape
from ..context import NOTE, RuleTransformer
from ..removed_names.rewrite import hijax_imports
from . import RULE

WRITE_BATCH = (
    "write `batch(self, axis_data, args, dims)` returning `(outputs, out_dims)`: "
    "build the primitive again at the batched avals and apply it to `args`, as jax's "
    "own primitives do"
)


class BatchDimRule(RuleTransformer):
    rule = RULE
    TRAIL = True

    def visit_Module(self, node: cst.Module) -> None:
        self._lines: set[int] = set()
        code = self.prims.code if self.prims.code is not None else node.code
        if "VmapOf" not in code:  # only the primitives' classes can hold what is reported
            self.focus = {cls for cls, kind in self.prims.kinds.items() if kind.is_primitive}

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kind = self.prims.kinds.get(node)
        if kind is None or not kind.is_primitive:
            return
        shape = class_shape(node, self.prims.bridge)
        defined = "batch_dim_rule" in shape.methods or "batch_dim_rule" in shape.attributes
        if not defined or "batch" in shape.methods or "batch" in shape.attributes:
            return
        if only_raises_not_implemented(shape.methods.get("batch_dim_rule")):
            self.skipped(
                self.prims.line(node),
                node,
                "`batch_dim_rule` only raises `NotImplementedError`: `vmap` of it fails on jax "
                "0.12 as it did before (the default `batch` raises `NotImplementedError`); "
                f"nothing to do, unless it should batch: {WRITE_BATCH}",
                NOTE,
            )
            return
        self.skipped(
            self.prims.line(node),
            node,
            "defines `batch_dim_rule` but not `batch`; jax 0.12 no longer calls "
            f"`batch_dim_rule`, so `vmap` of it fails: {WRITE_BATCH}",
        )

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if hijax_imports(node, ("VmapOf",)):
            self._report(node)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "VmapOf" and self._names_vmapof(node):
            self._report(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "VmapOf" and self._names_vmapof(node):
            self._report(node)

    def _names_vmapof(self, node: cst.CSTNode) -> bool:
        names = self.qualified_names(node)
        return any(q.name in {f"{m}.VmapOf" for m in HIJAX_MODULES} for q in names)

    def _report(self, node: cst.CSTNode) -> None:
        line = self.prims.line(node)
        if line not in self._lines:  # an import's name and its module are one use
            self._lines.add(line)
            self.skipped(line, None, f"`VmapOf` is gone in jax 0.12: {WRITE_BATCH}")


def only_raises_not_implemented(func: cst.FunctionDef | None) -> bool:
    """A body that is ``raise NotImplementedError`` (a call of it, a message, a
    ``from`` clause), after a docstring or not: vmap raises, on every release."""
    if func is None or not isinstance(func.body, (cst.IndentedBlock, cst.SimpleStatementSuite)):
        return False
    lines = [small for stmt in func.body.body for small in _smalls(stmt)]
    if lines and _is_docstring(lines[0]) and len(lines) > 1:
        lines = lines[1:]
    if len(lines) != 1 or not isinstance(lines[0], cst.Raise):
        return False
    exc = lines[0].exc
    exc = exc.func if isinstance(exc, cst.Call) else exc
    return isinstance(exc, cst.Name) and exc.value == "NotImplementedError"


def _smalls(stmt: cst.CSTNode) -> list[cst.CSTNode]:
    """A statement line's statements; a compound statement as itself."""
    return list(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else [stmt]


def _is_docstring(small: cst.CSTNode) -> bool:
    return isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString))
