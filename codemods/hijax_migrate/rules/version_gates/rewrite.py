"""HJX014: exact comparisons with jax's version (reported)."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import Assignment, GlobalScope, ParentNodeProvider, QualifiedNameProvider, ScopeProvider

from ...analysis.nodes import findall
from ..context import NOTE, RuleTransformer
from . import RULE

VERSION_NAMES = {"jax.__version__", "jax.version.__version__", "jax.version._version",
                 "jax.__version_info__", "jax.version.__version_info__"}
_EXACT = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
_LITERALS = (cst.SimpleString, cst.Tuple)
WRITE = ("compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code "
         "keeps working on the releases after it")


class VersionGates(RuleTransformer):
    rule = RULE
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider, ScopeProvider)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        exact = [t for t in node.comparisons if isinstance(t.operator, _EXACT)]
        sides = [node.left, *(t.comparator for t in node.comparisons)]
        if not (exact and any(self._is_version(s) for s in sides)):
            return
        literal = next((s for s in sides if isinstance(s, _LITERALS)), None)
        constant = None if literal is not None else next(filter(None, map(self._constant, sides)), None)
        if literal is None and constant is None:
            return
        what = f"`{cst.Module([]).code_for_node(node)}`"
        if constant is not None:  # say what the name holds, and where
            what += f" (`{cst.Module([]).code_for_node(constant)}`, line {self.prims.line(constant)})"
        self._report(node, what)

    def _report(self, node: cst.Comparison, what: str) -> None:
        if self._raises(node):
            self.skipped(self.prims.line(node), None, f"{what} fails on every jax release but "
                         f"one, and the code raises then: {WRITE}")
        else:
            self.skipped(self.prims.line(node), None, f"{what} holds on one jax release only: {WRITE}", NOTE)

    def _constant(self, expr: cst.BaseExpression) -> cst.CSTNode | None:
        """The assignment a name stands for, where it is a module-level name bound
        once, to a string or tuple literal (``_SUPPORTED = "0.11.0"``)."""
        if not isinstance(expr, cst.Name):
            return None
        scope = self.get_metadata(ScopeProvider, expr, None)
        assignments = list(scope[expr.value]) if scope is not None else []
        if len(assignments) != 1 or not isinstance(assignments[0], Assignment) \
                or not isinstance(assignments[0].scope, GlobalScope):
            return None
        target = self.get_metadata(ParentNodeProvider, assignments[0].node, None)
        stmt = self.get_metadata(ParentNodeProvider, target, None) if isinstance(target, cst.AssignTarget) else target
        if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, _LITERALS):
            return stmt
        if isinstance(stmt, cst.AnnAssign) and stmt.target is assignments[0].node and isinstance(stmt.value, _LITERALS):
            return stmt
        return None

    def _is_version(self, expr: cst.BaseExpression) -> bool:
        names = self.get_metadata(QualifiedNameProvider, expr, set())
        if any(q.name in VERSION_NAMES for q in names):
            return True
        return _names_jax(expr) and any(
            q.name == "importlib.metadata.version"
            for q in self.get_metadata(QualifiedNameProvider, expr.func, set()))

    def _raises(self, node: cst.Comparison) -> bool:
        """Part of an ``assert``, or the test of an ``if`` whose body raises."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Assert):
            return True
        return isinstance(parent, cst.If) and parent.test is node and bool(findall(parent.body, cst.Raise))


def _names_jax(expr: cst.BaseExpression) -> bool:
    """A call with one argument, the string ``"jax"``: ``version("jax")``."""
    return isinstance(expr, cst.Call) and len(expr.args) == 1 \
        and isinstance(expr.args[0].value, cst.SimpleString) and expr.args[0].value.value in ('"jax"', "'jax'")
