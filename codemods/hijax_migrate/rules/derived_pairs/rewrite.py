"""HJX007: jax 0.11.0's single derived-rule helpers become 0.11.1's pairs."""

from __future__ import annotations

import libcst as cst

from ...analysis.project import HIJAX_MODULES
from ...analysis.source_order import by_name
from ..context import RuleTransformer
from . import PAIRS, RULE


def single_helper(stmt: cst.BaseStatement, qualified) -> tuple[str, str, cst.Assign] | None:
    """(attribute, helper, assignment) for ``attr = <hijax helper>`` alone on
    its line; ``qualified(node, *above)``: a node's qualified names, ``above``
    its ancestors up to ``stmt``, nearest first."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return None
    assign = stmt.body[0]
    if not (
        isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
    ):
        return None
    for q in by_name(qualified(assign.value, assign, stmt)):
        module, _, helper = q.name.rpartition(".")
        if module in HIJAX_MODULES:
            return assign.targets[0].target.value, helper, assign
    return None


class DerivedPairs(RuleTransformer):
    rule = RULE
    TRAIL = True

    def visit_Module(self, node: cst.Module) -> None:
        # It edits primitives' class bodies only: the visit walks to them, not every node.
        self.focus = {cls for cls, kind in self.prims.kinds.items() if kind.is_primitive}

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef):
        if not self.prims.kinds.get(original_node, None) or not self.prims.kinds[original_node].is_primitive:
            return updated_node
        body = list(updated_node.body.body)
        found = {}
        for index, stmt in enumerate(original_node.body.body):
            helper = single_helper(stmt, self.qualified_names)
            if helper:
                found[helper[:2]] = (index, helper[2])
        drop = set()
        for first, second, pair in PAIRS:
            if first in found and second in found:
                index, assign = found[first]
                body[index] = self._pair(body[index], assign, first[0], second[0], first[1], pair)
                drop.add(found[second][0])
                self._imports(assign.value, first[1], pair)
                self._imports(found[second][1].value, second[1], pair)
                self.changed(self.prims.line(original_node), original_node, f"`{first[0]}, {second[0]} = {pair}`")
            elif (first in found) != (second in found):
                lone = first if first in found else second
                self.skipped(
                    self.prims.line(original_node),
                    original_node,
                    f"`{lone[0]} = {lone[1]}` has no partner; jax 0.11.1 derives rules in pairs: pair it by hand",
                )
        body = [stmt for index, stmt in enumerate(body) if index not in drop]
        return updated_node.with_changes(body=updated_node.body.with_changes(body=body))

    def _pair(self, stmt, assign: cst.Assign, first: str, second: str, old: str, pair: str):
        value = assign.value
        if isinstance(value, cst.Attribute):
            value = value.with_changes(attr=cst.Name(pair))
        else:
            value = cst.Name(pair)
        targets = cst.Tuple([cst.Element(cst.Name(first)), cst.Element(cst.Name(second))], lpar=[], rpar=[])
        new = assign.with_changes(targets=[cst.AssignTarget(targets)], value=value)
        return stmt.with_changes(body=[new])

    def _imports(self, value: cst.BaseExpression, helper: str, pair: str) -> None:
        if not isinstance(value, cst.Name):
            return
        for q in by_name(self.qualified_names(value)):
            module = q.name.rpartition(".")[0]
            if value.value != pair:  # the pair is named as it is: the import under this name may go
                self.context.remove_import(module, helper, value.value if value.value != helper else None)
            self.context.add_import(module, pair)
