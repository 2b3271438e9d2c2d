"""HJX007: jax 0.11.0's single derived-rule helpers become 0.11.1's pairs."""

from __future__ import annotations

import libcst as cst

from ...analysis.cst_blocks import after_removal, own_smalls
from ...analysis.project import HIJAX_MODULES
from ...analysis.source_order import by_name
from ..context import RuleTransformer
from . import PAIRS, RULE


def single_helper(small: cst.BaseSmallStatement, qualified, *above) -> tuple[str, str, cst.Assign] | None:
    """(attribute, helper, assignment) for ``attr = <hijax helper>``, one name bound;
    ``qualified(node, *above)``: a node's qualified names, ``above`` its ancestors
    past ``small``, nearest first."""
    if not (
        isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
    ):
        return None
    for q in by_name(qualified(small.value, small, *above)):
        module, _, helper = q.name.rpartition(".")
        if module in HIJAX_MODULES:
            return small.targets[0].target.value, helper, small
    return None


class DerivedPairs(RuleTransformer):
    rule = RULE
    TRAIL = True

    def visit_Module(self, node: cst.Module) -> None:
        # It edits primitives' class bodies only: the visit walks to them, not every node.
        self.focus = {cls for cls, kind in self.prims.kinds.items() if kind.is_primitive}
        self._edits: dict[cst.Assign, cst.Assign | None] = {}  # a first half -> the pair; a second -> None

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kind = self.prims.kinds.get(node)
        if kind is None or not kind.is_primitive:
            return
        found = {}
        for small, holder in own_smalls(node):
            helper = single_helper(small, self.qualified_names, *dict.fromkeys((holder, node.body)))
            if helper:
                found[helper[:2]] = helper[2]
        for first, second, pair in PAIRS:
            if first in found and second in found:
                assign = found[first]
                self._edits[assign] = self._pair(assign, first[0], second[0], pair)
                self._edits[found[second]] = None
                self._imports(assign.value, first[1], pair)
                self._imports(found[second].value, second[1], pair)
                self.changed(self.prims.line(node), node, f"`{first[0]}, {second[0]} = {pair}`")
            elif (first in found) != (second in found):
                lone = first if first in found else second
                self.skipped(
                    self.prims.line(node),
                    node,
                    f"`{lone[0]} = {lone[1]}` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand",
                )

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign):
        if original_node not in self._edits:
            return updated_node
        pair = self._edits[original_node]
        return cst.RemovalSentinel.REMOVE if pair is None else pair.with_changes(semicolon=updated_node.semicolon)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        """A second half removed from the end of a line (``x = 1; b = g``) takes its ``;`` with it."""
        removed = original_node.body[-1] in self._edits and self._edits[original_node.body[-1]] is None
        return after_removal(updated_node, removed)

    leave_SimpleStatementSuite = leave_SimpleStatementLine

    def _pair(self, assign: cst.Assign, first: str, second: str, pair: str) -> cst.Assign:
        value = assign.value
        if isinstance(value, cst.Attribute):
            value = value.with_changes(attr=cst.Name(pair))
        else:
            value = cst.Name(pair)
        targets = cst.Tuple([cst.Element(cst.Name(first)), cst.Element(cst.Name(second))], lpar=[], rpar=[])
        return assign.with_changes(targets=[cst.AssignTarget(targets)], value=value)

    def _imports(self, value: cst.BaseExpression, helper: str, pair: str) -> None:
        if not isinstance(value, cst.Name):
            return
        for q in by_name(self.qualified_names(value)):
            module = q.name.rpartition(".")[0]
            if value.value != pair:  # the pair is named as it is: the import under this name may go
                self.context.remove_import(module, helper, value.value if value.value != helper else None)
            self.context.add_import(module, pair)
