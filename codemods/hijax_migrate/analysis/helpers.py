"""What a call does to an accumulator handed to it, read from the helper's body (``ast``).

``self._write(x_acc, ct)`` with ``def _write(self, acc, ct): acc.accum(ct)``
is a write: on every path the helper writes the accumulator it receives
exactly once. A helper that never writes it (only inspects it) is an
inspection. ``_write_all((a, b), cts)`` with ``for acc, ct in zip(accs, cts):
acc.accum(ct)`` writes each element once, where ``zip`` cannot stop short.
Anything else is unknown (``ANY``), with the reason and the node to name.

Which function a call reaches is the caller's to say (``resolve``, given the
call and the function it stands in): the rule layer knows the class, its bases
and subclasses.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .accum_uses import Accumulator, Handed, Unknown, Uses, arg_of, is_star, value_of
from .function_names import FunctionNames
from .paths import ANY, Event, Facts, facts_of, once_per_pass

DEPTH = 4  # helpers calling helpers: deeper than this is not read
Function = ast.FunctionDef | ast.AsyncFunctionDef
Resolved = tuple  # (the helper's FunctionDef, how many leading parameters the call binds itself)


class Helpers:
    def __init__(
        self,
        resolve: Callable[[ast.Call, Function], Resolved | str],
        builtin: Callable[[str], bool] | None = None,  # is a name Python's own (``range``): loop counts
    ):
        self.resolve, self.builtin = resolve, builtin

    def facts(self, uses: Uses, accs: list[Accumulator], seen: tuple = ()) -> Facts:
        """The path facts of ``uses.func`` for ``accs``, each call they are handed to read."""
        events: dict = {}
        for i, acc in enumerate(accs):
            for write in acc.writes:
                events.setdefault(write, []).append(Event(i, 1, write))
            for handed in acc.handed:
                effect, why, where = self.effect(handed, uses.func, seen)
                if effect == 1 and not surely_run(handed.call, uses.parents):
                    effect, why, where = ANY, "it is called only under a condition within its statement", None
                events.setdefault(statement_of(handed.call, uses.parents), []).append(
                    Event(i, effect, handed.call, why, where)
                )
        return facts_of(uses.func, events, len(accs), self.builtin)

    def effect(self, handed: Handed, caller: Function, seen: tuple) -> tuple:
        """(1, 0 or ANY; why not known; the node in the helper to name) for the accumulator ``handed`` passes."""
        name = ast.unparse(handed.call.func)
        if handed.whole or is_star(handed.arg):
            return ANY, f"all of them are handed to `{name}` at once", None
        found = self.resolve(handed.call, caller)
        if isinstance(found, str):
            return ANY, found, None
        helper, bound = found
        if helper in seen or len(seen) >= DEPTH:
            return ANY, f"`{name}` calls itself, or helpers too deep ({DEPTH}), to be read", helper
        param = bound_param(helper, bound, handed.call, handed.arg)
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

    def _plain(self, helper: Function, param: str, seen: tuple) -> tuple:
        uses = Uses(helper)
        facts = self.facts(uses, [uses.named(param)], (*seen, helper))
        effect = once_or_never(facts.counts(0))
        if effect is not None:
            return effect, "", None
        inner = facts.unknown.get(0)
        if inner is not None:
            return ANY, f"hands `{param}` on: {inner.why}", inner.where or inner.node
        return ANY, f"does not write `{param}` exactly once on every path", None

    def _zipped(self, helper: Function, param: str, site: tuple) -> tuple:
        """``for acc, ct in zip(param, ...)``: the loop, as one write of each element
        (``site``: the ``Handed`` call, and how many parameters it binds itself)."""
        uses = Uses(helper)
        loop = zip_loop(uses, param, site)
        if loop is None:
            return (
                ANY,
                (
                    f"uses `{param}` other than in one `for ... in zip({param}, ...)` whose other "
                    "arguments are as long (literals here, or `strict=True`)"
                ),
                None,
            )
        var = uses.named(loop.target.elts[_zip_position(loop, param)].id)
        inside = all(within(node, loop, uses.parents) for node in var.writes)
        if var.handed or not inside or not once_per_iteration(loop, var):
            return ANY, f"does not write each element of `{param}` exactly once in its loop", loop
        effect = once_or_never(facts_of(helper, {loop: [Event(0, 1, loop)]}, 1).counts(0))
        return (
            (effect, "", None)
            if effect is not None
            else (ANY, "does not run its loop exactly once on every path", loop)
        )


def once_or_never(counts: frozenset) -> int | None:
    return 1 if counts == {1} else 0 if counts == {0} else None


def self_name(func: Function) -> str | None:
    """The name of ``func``'s first parameter, where its block never binds it again
    (``function_names``: Python's reading of the block)."""
    params = [*func.args.posonlyargs, *func.args.args]
    if not params:
        return None
    name = params[0].arg
    return name if FunctionNames.of(func).bound_once(name) else None


def bound_param(helper: Function, bound: int, call: ast.Call, arg) -> str | None:
    """The parameter of ``helper`` that ``arg`` of ``call`` binds."""
    if any(is_star(a) for a in (*call.args, *call.keywords)):
        return None
    if isinstance(arg, ast.keyword):
        return arg.arg if arg.arg in [a.arg for a in helper.args.args] else None
    names = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
    index = bound + next(i for i, a in enumerate(call.args) if a is arg)
    return names[index] if index < len(names) else None


def statement_of(node: ast.AST, parents) -> ast.stmt:
    """The statement an expression belongs to; a compound one where it stands in its header."""
    while not isinstance(node, ast.stmt):
        node = parents[node]
    return node


_HEADERS = {ast.If: "test", ast.For: "iter", ast.AsyncFor: "iter", ast.Match: "subject"}


def surely_run(node: ast.AST, parents) -> bool:
    """Does ``node`` run whenever its statement does? Not in an arm of ``a if c else b``, after
    the first operand of ``and``/``or``, in a ``case`` guard or an ``except`` clause's type."""
    while not isinstance(node, ast.stmt):
        parent = parents[node]
        if isinstance(parent, ast.IfExp) and node is not parent.test:
            return False
        if isinstance(parent, ast.BoolOp) and node is not parent.values[0]:
            return False
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return True  # decorators, defaults, bases: evaluated where the statement runs
        if isinstance(parent, (ast.With, ast.AsyncWith)):
            return any(node is item for item in parent.items)
        if isinstance(parent, ast.stmt) and (hasattr(parent, "body") or isinstance(parent, ast.Match)):
            return type(parent) in _HEADERS and node is getattr(parent, _HEADERS[type(parent)])
        node = parent
    return True


def within(node: ast.AST, loop: ast.For, parents) -> bool:
    """Is the statement ``node`` in ``loop``'s body (not its ``else``)?"""
    while parents.get(node) is not None and parents[node] is not loop:
        node = parents[node]
    return parents.get(node) is loop and any(node is stmt for stmt in loop.body)


def _zip_position(loop: ast.For, param: str) -> int:
    return next(i for i, a in enumerate(loop.iter.args) if isinstance(a, ast.Name) and a.id == param)


def zip_loop(uses: Uses, param: str, site: tuple) -> ast.For | None:
    """The one ``for a, b in zip(param, other)`` that uses ``param``, every other use an
    inspection, where ``zip`` cannot stop before the last accumulator."""
    loops = []
    for ref in uses.references(param):
        found = arg_of(ref, uses.parents)
        loop = uses.parents.get(found[0]) if found is not None else None
        if isinstance(loop, ast.For) and loop.iter is found[0] and _is_zip(*found):
            loops.append(loop)
        elif not uses.inspected(ref):
            return None
    if len(loops) != 1 or not _unpacks(loops[0]) or not _full_length(loops[0], param, site, uses.func):
        return None
    return loops[0]


def _is_zip(call: ast.Call, arg) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "zip" and isinstance(arg, ast.Name)


def _unpacks(loop: ast.For) -> bool:
    target = loop.target
    positional = [a for a in loop.iter.args if not isinstance(a, ast.Starred)]
    return (
        isinstance(target, (ast.Tuple, ast.List))
        and len(target.elts) == len(positional)
        and all(isinstance(e, ast.Name) for e in target.elts)
    )


def _full_length(loop: ast.For, param: str, site: tuple, helper: Function) -> bool:
    """``zip(..., strict=True)``, or every other argument a parameter given a literal as long."""
    call = loop.iter
    if any(k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords):
        return True
    handed, bound = site
    length = len(value_of(handed.arg).elts)
    given = _literal_args(handed, bound, helper)
    return not call.keywords and all(
        isinstance(a, ast.Name) and given.get(a.id) == length
        for a in call.args
        if not (isinstance(a, ast.Name) and a.id == param)
    )


def _literal_args(handed: Handed, bound: int, helper: Function) -> dict[str, int]:
    """The helper's parameters the call gives tuple or list literals (no ``*``), with their lengths."""
    found = {}
    for arg in (*handed.call.args, *handed.call.keywords):
        name = bound_param(helper, bound, handed.call, arg)
        value = value_of(arg)
        if (
            name is not None
            and isinstance(value, (ast.Tuple, ast.List))
            and not any(isinstance(e, ast.Starred) for e in value.elts)
        ):
            found[name] = len(value.elts)
    return found


def once_per_iteration(loop: ast.For, var: Accumulator) -> bool:
    """Every pass through the loop's body writes ``var`` once, and none leaves the loop early."""
    return once_per_pass(loop, {w: [Event(0, 1, w)] for w in var.writes})
