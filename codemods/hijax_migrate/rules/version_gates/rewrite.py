"""HJX014: exact comparisons with jax's version (reported)."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import Assignment, GlobalScope, ParentNodeProvider, ScopeProvider

from ...analysis.nodes import findall
from ...analysis.version_tests import VERSION, evaluate, literal_value
from ...core.versions import format_version
from ..context import NOTE, RuleTransformer
from ..gates import is_jax_version
from . import RULE

_EXACT = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
_LITERALS = (cst.SimpleString, cst.Tuple)
WRITE = (
    "compare a range instead, e.g. `jax.__version_info__ >= (0, 11, 2)`, so that the code "
    "keeps working on the releases after it"
)


class VersionGates(RuleTransformer):
    rule = RULE
    TRAIL = True
    # Where ``ast`` cannot read the module (no name model): libcst's scopes and parents.
    METADATA_DEPENDENCIES = (ParentNodeProvider, ScopeProvider)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        exact = [t for t in node.comparisons if isinstance(t.operator, _EXACT)]
        sides = [node.left, *(t.comparator for t in node.comparisons)]
        above = [(node,), *((t, node) for t in node.comparisons)]  # each side's ancestors, not entered yet
        if not (exact and any(self._is_version(s, *a) for s, a in zip(sides, above))):
            return
        literal = next((s for s in sides if isinstance(s, _LITERALS)), None)
        constants = (self._constant(side, *ancestors) for side, ancestors in zip(sides, above))
        constant = None if literal is not None else next(filter(None, constants), None)
        if literal is None and constant is None:
            return
        what = f"`{cst.Module([]).code_for_node(node)}`"
        if constant is not None:  # say what the name holds, and where
            what += f" (`{cst.Module([]).code_for_node(constant)}`, line {self.prims.line(constant)})"
        self._report(node, what)

    def _report(self, node: cst.Comparison, what: str) -> None:
        gate = self._gate(node)
        if gate is not None and self._raises_at_target(*gate):
            said = "fails on every jax release but one" if gate[1] is node else self._makes(*gate)
            self.skipped(self.prims.line(node), None, f"{what} {said}, and the code raises then: {WRITE}")
        else:
            self.skipped(self.prims.line(node), None, f"{what} holds on one jax release only: {WRITE}", NOTE)

    def _makes(self, gate: cst.CSTNode, test: cst.BaseExpression) -> str:
        verb = "fail" if isinstance(gate, cst.Assert) else "hold"
        return f"makes `{_code(test)}` {verb} on jax {format_version(self.options.target)}"

    def _gate(self, node: cst.Comparison) -> tuple[cst.CSTNode, cst.BaseExpression] | None:
        """The ``assert`` or the ``if`` whose body raises that ``node`` is (part of) the
        test of, through ``or``, ``and`` and ``not``; and that test."""
        test, parent = node, self.parent_of(node)
        while isinstance(parent, cst.BooleanOperation) or (
            isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)
        ):
            test, parent = parent, self.parent_of(parent)
        if isinstance(parent, cst.Assert) and parent.test is test:
            return parent, test
        if isinstance(parent, cst.If) and parent.test is test and findall(parent.body, cst.Raise):
            return parent, test
        return None

    def _raises_at_target(self, gate: cst.CSTNode, test: cst.BaseExpression) -> bool:
        """Does the test, as Python evaluates it on the target's release line, raise
        (an ``if`` taken, an ``assert`` failing)? Unknown: no."""
        paths = _paths(test)
        value = evaluate(test, self.options.target, lambda expr: self._leaf(expr, paths.get(expr, ())))
        return value is (False if isinstance(gate, cst.Assert) else True)

    def _leaf(self, expr: cst.BaseExpression, above: tuple):
        if self._is_version(expr, *above):
            return VERSION
        constant = self._constant(expr, *above) if isinstance(expr, cst.Name) else None
        return literal_value(constant.value if constant is not None else expr)

    def _constant(self, expr: cst.BaseExpression, *above: cst.CSTNode) -> cst.CSTNode | None:
        """The assignment a name stands for, where the read resolves to one binding, at
        module level, the one target of an assignment of a string or tuple literal
        (``_SUPPORTED = "0.11.0"``); ``above``: its ancestors the visit has not entered."""
        if not isinstance(expr, cst.Name):
            return None
        if self.name_model is None:
            return self._constant_from_scopes(expr)
        return self._paired(self.constant_assignment(expr, *above)) or None

    def _constant_from_scopes(self, expr: cst.Name) -> cst.CSTNode | None:
        """``_constant`` where ``ast`` cannot read the module (newer syntax): libcst's scopes."""
        scope = self.get_metadata(ScopeProvider, expr, None)
        assignments = list(scope[expr.value]) if scope is not None else []
        if (
            len(assignments) != 1
            or not isinstance(assignments[0], Assignment)
            or not isinstance(assignments[0].scope, GlobalScope)
        ):
            return None
        target = self.get_metadata(ParentNodeProvider, assignments[0].node, None)
        stmt = self.get_metadata(ParentNodeProvider, target, None) if isinstance(target, cst.AssignTarget) else target
        if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, _LITERALS):
            return stmt
        if isinstance(stmt, cst.AnnAssign) and stmt.target is assignments[0].node and isinstance(stmt.value, _LITERALS):
            return stmt
        return None

    def _paired(self, stmt) -> cst.CSTNode | None | bool:
        """libcst's statement for ``ast``'s (an assignment), where its value is a literal
        (``ast`` cannot tell ``"a" "b"`` from ``"ab"``: libcst's node decides); False
        where ``ast`` read another text (the bridge cannot tell)."""
        if stmt is None:
            return None
        found = self.prims.bridge.cst_of(stmt, strict=False) if self.prims.bridge.as_written else None
        if found is None:
            return False
        return found if isinstance(found.value, _LITERALS) else None

    def _is_version(self, expr: cst.BaseExpression, *above: cst.CSTNode) -> bool:
        return is_jax_version(self, expr, *above)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _paths(test: cst.BaseExpression) -> dict[cst.CSTNode, tuple]:
    """Each operand of the test's boolean operators and comparisons -> its
    ancestors up to the test, nearest first (the visit has not entered them)."""
    found, stack = {}, [(test, ())]
    while stack:
        node, above = stack.pop()
        found[node] = above
        if isinstance(node, cst.BooleanOperation):
            stack += [(node.left, (node, *above)), (node.right, (node, *above))]
        elif isinstance(node, cst.UnaryOperation):
            stack.append((node.expression, (node, *above)))
        elif isinstance(node, cst.Comparison):
            stack.append((node.left, (node, *above)))
            stack += [(link.comparator, (link, node, *above)) for link in node.comparisons]
    return found
