"""HJX014: exact comparisons with jax's version (reported)."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import ParentNodeProvider, QualifiedNameProvider

from ...analysis.nodes import findall
from ..context import NOTE, RuleTransformer
from . import RULE

VERSION_NAMES = {"jax.__version__", "jax.version.__version__", "jax.version._version",
                 "jax.__version_info__", "jax.version.__version_info__"}
_EXACT = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
WRITE = ("compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code "
         "keeps working on the releases after it")


class VersionGates(RuleTransformer):
    rule = RULE
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ParentNodeProvider)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        exact = [t for t in node.comparisons if isinstance(t.operator, _EXACT)]
        sides = [node.left, *(t.comparator for t in node.comparisons)]
        literal = any(isinstance(s, (cst.SimpleString, cst.Tuple)) for s in sides)
        if not (exact and literal and any(self._is_version(s) for s in sides)):
            return
        code = cst.Module([]).code_for_node(node)
        if self._raises(node):
            self.skipped(self.prims.line(node), None, f"`{code}` fails on every jax release but "
                         f"one, and the code raises then: {WRITE}")
        else:
            self.skipped(self.prims.line(node), None, f"`{code}` holds on one jax release only: {WRITE}", NOTE)

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
