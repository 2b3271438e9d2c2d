"""HJX016: bindings of API names in forms no rule follows, reported (nothing is rewritten)."""

from __future__ import annotations

import functools

import libcst as cst

from ...analysis.function_kinds import RUNS_NONE
from ...analysis.namespace import ASYNC_DEF, COMPUTED, GENERATOR_DEF, GIVEN, Binding
from ...core.line_breaks import lines_of
from ..context import RuleTransformer
from ..gates import dead_arms, version_leaf
from . import RULE
from .decide import Again, Classes, unaccounted_bindings

_LEFT = "whether it works at the target cannot be decided; the file is left as it is: port it by hand"
_WHY = f"no rule of the tool follows that form, so {_LEFT}"
# a rule whose call runs none of its body (``analysis.function_kinds``): known to fail, not undecided
_NOT_RUN = (
    f"{RUNS_NONE} and returns {{}}, never what jax reads of the rule: it fails "
    "wherever jax calls it; the file is left as it is: write the rule as a plain `def`"
)
_WHY_OF = {GENERATOR_DEF: _NOT_RUN.format("a generator"), ASYNC_DEF: _NOT_RUN.format("a coroutine")}


class UnmodelledBindings(RuleTransformer):
    rule = RULE

    def visit_Module(self, node: cst.Module) -> bool:
        bridge = self.prims.bridge
        tree, text = bridge.parsed, bridge.text
        self._lines = lines_of(text)
        pairs = bridge.statements(cst.ClassDef)
        nodes, statements = [cls for cls, _ in pairs], [stmt for _, stmt in pairs]
        kinds, infos = [self.prims.kinds[cls] for cls in nodes], [self.prims.infos.get(cls) for cls in nodes]
        classes = Classes(statements, kinds, infos, self.prims.module_scope, self.project)

        def dead(index: int) -> list[tuple[int, int]]:
            """The arms of the body's version gates no release of the target's line runs."""
            leaf = functools.partial(version_leaf, self)
            return dead_arms(nodes[index], bridge, self.options.target, leaf)

        for found in unaccounted_bindings(tree, classes, self.context.binds, text, dead):
            cls = nodes[found.index] if found.index is not None else None
            if isinstance(found, Again):
                self._again(cls, found.name, found.bindings)
            else:
                self._report(cls, found.binding)
        return False

    def _report(self, cls: cst.ClassDef | None, binding: Binding) -> None:
        shown = self._lines[binding.line - 1].strip() if binding.line <= len(self._lines) else ""
        shown = shown if len(shown) <= 70 else shown[:67] + "..."
        what = f"`{binding.name}`" if binding.name else "a name not written out (it may be a hijax rule)"
        if binding.on == GIVEN:
            where = "a class a function is given: "
        elif binding.on == COMPUTED:
            where = "an object the code computes (any class): "
        elif binding.on:
            where = f"`{binding.on}` (a class of the tree): "
        else:
            where = "" if cls is not None else "a class made by a call: "
        self.skipped(
            self.prims.file_line(binding.line),
            cls,
            f"{where}{what} is bound by {binding.described()} (`{shown}`): {_WHY_OF.get(binding.form, _WHY)}",
        )

    def _again(self, cls: cst.ClassDef, name: str, bindings: list[Binding]) -> None:
        lines = ", ".join(str(self.prims.file_line(b.line)) for b in bindings)
        forms = ", ".join(dict.fromkeys(b.described() for b in bindings))
        self.skipped(
            self.prims.file_line(bindings[-1].line),
            cls,
            f"`{name}` is bound {len(bindings)} times in the class body, by {forms} (lines {lines}): "
            f"which binding is the rule depends on their order, and a rule follows one at a time, so {_LEFT}",
        )
