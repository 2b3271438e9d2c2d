"""What a call does to an accumulator handed to it, read from the helper's body.

``self._write(x_acc, ct)`` with ``def _write(self, acc, ct): acc.accum(ct)``
is a write: on every path the helper writes the accumulator it receives
exactly once. A helper that never writes it (only inspects it) is an
inspection. ``_write_all((a, b), cts)`` with ``for acc, ct in zip(accs, cts):
acc.accum(ct)`` writes each element once, where ``zip`` cannot stop short.
Anything else is unknown (``ANY``), with the reason and the node to name.

Which function a call reaches is the caller's to say (``resolve``, given the
call and the function it stands in): the rule layer knows the class, its bases
and subclasses. Scopes are asked a function at a time (``scopes_of``): a
function's own nodes are all its analysis reads.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

import libcst as cst

from .accum_uses import Accumulator, Handed, Unknown, Uses
from .bridge import Bridge
from .cst_paths import facts_on, loop_writes_once, statement_of, surely_run
from .function_names import FunctionNames
from .paths import ANY, Event, Facts

DEPTH = 4  # helpers calling helpers: deeper than this is not read
Resolved = tuple  # (the helper's FunctionDef, how many leading parameters the call binds itself)


class Helpers:
    def __init__(
        self,
        bridge: Bridge,  # the tree's statements with ``ast``'s, whose paths are walked
        scopes_of: Callable[[cst.FunctionDef], Mapping],
        parents,
        resolve: Callable[[cst.Call, cst.FunctionDef], Resolved | str],
        builtin: Callable[[str], bool] | None = None,  # is a name Python's own (``range``): loop counts
    ):
        self.bridge, self.scopes_of, self.parents = bridge, scopes_of, parents
        self.resolve, self.builtin = resolve, builtin

    def facts(self, func: cst.FunctionDef, accs: list[Accumulator], seen: tuple = ()) -> Facts:
        """The path facts of ``func`` for ``accs``, each call they are handed to read."""
        events: dict = {}
        for i, acc in enumerate(accs):
            for write in acc.writes:
                events.setdefault(write, []).append(Event(i, 1, write))
            for handed in acc.handed:
                effect, why, where = self.effect(handed, func, seen)
                if effect == 1 and not surely_run(handed.call, self.parents):
                    effect, why, where = ANY, "it is called only under a condition within its statement", None
                events.setdefault(statement_of(handed.call, self.parents), []).append(
                    Event(i, effect, handed.call, why, where)
                )
        return facts_on(self.bridge, func, events, len(accs), self.builtin)

    def effect(self, handed: Handed, caller: cst.FunctionDef, seen: tuple) -> tuple:
        """(1, 0 or ANY; why not known; the node in the helper to name) for the accumulator ``handed`` passes."""
        name = cst.Module([]).code_for_node(handed.call.func)
        if handed.whole or handed.arg.star:
            return ANY, f"all of them are handed to `{name}` at once", None
        found = self.resolve(handed.call, caller)
        if isinstance(found, str):
            return ANY, found, None
        helper, bound = found
        if helper in seen or len(seen) >= DEPTH:
            return ANY, f"`{name}` calls itself, or helpers too deep ({DEPTH}), to be read", helper
        param = bound_param(helper, bound, handed)
        if param is None:
            return ANY, f"which parameter of `{name}` receives it cannot be told", helper
        try:
            effect, why, where = (
                self._plain(helper, param, seen)
                if handed.element is None
                else self._zipped(helper, param, (handed, bound))
            )
        except Unknown as unknown:
            return ANY, f"in `{name}`, {unknown}", unknown.node
        return effect, (f"`{name}` {why}" if why else ""), where or helper

    def _plain(self, helper: cst.FunctionDef, param: str, seen: tuple) -> tuple:
        acc = Uses(helper, self.scopes_of(helper), self.parents).named(param)
        facts = self.facts(helper, [acc], (*seen, helper))
        effect = once_or_never(facts.counts(0))
        if effect is not None:
            return effect, "", None
        inner = facts.unknown.get(0)
        if inner is not None:
            return ANY, f"hands `{param}` on: {inner.why}", inner.where or inner.node
        return ANY, f"does not write `{param}` exactly once on every path", None

    def _zipped(self, helper: cst.FunctionDef, param: str, site: tuple) -> tuple:
        """``for acc, ct in zip(param, ...)``: the loop, as one write of each element
        (``site``: the ``Handed`` call, and how many parameters it binds itself)."""
        uses = Uses(helper, self.scopes_of(helper), self.parents)
        loop = zip_loop(uses, param, site, self.parents)
        if loop is None:
            return (
                ANY,
                (
                    f"uses `{param}` other than in one `for ... in zip({param}, ...)` whose other "
                    "arguments are as long (literals here, or `strict=True`)"
                ),
                None,
            )
        var = uses.named(loop.target.elements[_zip_position(loop, param)].value.value)
        inside = all(_within(node, loop.body, self.parents) for node in var.writes)
        if var.handed or not inside or not once_per_iteration(self.bridge, loop, var):
            return ANY, f"does not write each element of `{param}` exactly once in its loop", loop
        effect = once_or_never(facts_on(self.bridge, helper, {loop: [Event(0, 1, loop)]}, 1).counts(0))
        return (
            (effect, "", None)
            if effect is not None
            else (ANY, "does not run its loop exactly once on every path", loop)
        )


def once_or_never(counts: frozenset) -> int | None:
    return 1 if counts == {1} else 0 if counts == {0} else None


def self_name(func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The name of ``func``'s first parameter, where its block never binds it again
    (``function_names``: Python's reading of the block)."""
    params = [*func.args.posonlyargs, *func.args.args]
    if not params:
        return None
    name = params[0].arg
    return name if FunctionNames.of(func).bound_once(name) else None


def bound_param(helper: cst.FunctionDef, bound: int, handed: Handed) -> str | None:
    """The parameter of ``helper`` that ``handed.arg`` binds."""
    call, arg = handed.call, handed.arg
    if any(a.star for a in call.args):
        return None
    names = [p.name.value for p in [*helper.params.posonly_params, *helper.params.params]]
    if arg.keyword is not None:
        plain = [p.name.value for p in helper.params.params]
        return arg.keyword.value if arg.keyword.value in plain else None
    index = bound + [a for a in call.args if a.keyword is None].index(arg)
    return names[index] if index < len(names) else None


def _zip_position(loop: cst.For, param: str) -> int:
    return next(i for i, a in enumerate(loop.iter.args) if isinstance(a.value, cst.Name) and a.value.value == param)


def _within(node: cst.CSTNode, block: cst.CSTNode, parents) -> bool:
    while node is not block and node in parents:
        node = parents[node]
    return node is block


def zip_loop(uses: Uses, param: str, site: tuple, parents) -> cst.For | None:
    """The one ``for a, b in zip(param, other)`` that uses ``param``, every other use an
    inspection, where ``zip`` cannot stop before the last accumulator."""
    loops = []
    for ref in uses.references(param):
        arg = parents[ref]
        call = parents[arg] if isinstance(arg, cst.Arg) else None
        loop = parents[call] if isinstance(call, cst.Call) else None
        if isinstance(loop, cst.For) and loop.iter is call and _is_zip(call, arg):
            loops.append(loop)
        elif not uses.inspected(ref):
            return None
    if len(loops) != 1 or not _unpacks(loops[0]) or not _full_length(loops[0], param, site, uses.func):
        return None
    return loops[0]


def _is_zip(call: cst.Call, arg: cst.Arg) -> bool:
    return isinstance(call.func, cst.Name) and call.func.value == "zip" and not arg.keyword and not arg.star


def _unpacks(loop: cst.For) -> bool:
    target = loop.target
    positional = [a for a in loop.iter.args if a.keyword is None and not a.star]
    return (
        isinstance(target, (cst.Tuple, cst.List))
        and len(target.elements) == len(positional)
        and all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements)
    )


def _full_length(loop: cst.For, param: str, site: tuple, helper: cst.FunctionDef) -> bool:
    """``zip(..., strict=True)``, or every other argument a parameter given a literal as long."""
    if any(
        a.keyword is not None
        and a.keyword.value == "strict"
        and isinstance(a.value, cst.Name)
        and a.value.value == "True"
        for a in loop.iter.args
    ):
        return True
    handed, bound = site
    length = len(handed.arg.value.elements)
    given = _literal_args(handed, bound, helper)
    return all(
        a.keyword is None
        and isinstance(a.value, cst.Name)
        and a.value.value in given
        and given[a.value.value] == length
        for a in loop.iter.args
        if not (isinstance(a.value, cst.Name) and a.value.value == param)
    )


def _literal_args(handed: Handed, bound: int, helper: cst.FunctionDef) -> dict[str, int]:
    """The helper's parameters the call gives tuple or list literals (no ``*``), with their lengths."""
    found = {}
    for arg in handed.call.args:
        name = bound_param(helper, bound, Handed(handed.call, arg))
        if (
            name is not None
            and isinstance(arg.value, (cst.Tuple, cst.List))
            and not any(isinstance(e, cst.StarredElement) for e in arg.value.elements)
        ):
            found[name] = len(arg.value.elements)
    return found


def once_per_iteration(bridge: Bridge, loop: cst.For, var: Accumulator) -> bool:
    """Every pass through the loop's body writes ``var`` once, and none leaves the loop early."""
    return loop_writes_once(bridge, loop, {w: [Event(0, 1, w)] for w in var.writes})
