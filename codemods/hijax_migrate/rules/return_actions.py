"""What each return of an accumulator rule becomes, decided from ``ast``: data the
rewrite applies (``writes.AccumulatorWrites.fill_writes``) and nothing else.

A return of cotangents (a tuple, or any value) becomes writes for the accumulators
the paths reaching it have not written (``tuple``: one per item; ``whole``: one
``jax.tree.map`` over all), then ``return None``; one whose every accumulator is
written already becomes ``return None`` (``none``); one whose value a ``finally``
always drops keeps the value as a statement (``evaluate``). A value that is no
tuple in any spelling where every accumulator is written or handed on is read as
backward-pass logs (from jax 0.11.1): left, with a note. Logs where the target has
none are dropped where every accumulator is written first. Anything else refuses
the rule, with a message naming the lines (``line``: of an ``ast`` node, a ``try``'s
its ``finally``'s)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from ..analysis.accum_uses import Accumulator, accumulator_params
from ..analysis.paths import Facts, Written, facts_of
from ..analysis.returns import Returned, classify, own_returns, visibly_tuple

LOGS_SINCE = (0, 11, 1)  # an accumulator rule may return a dict of backward-pass logs from this release
NONE, EVALUATE, TUPLE, WHOLE = "none", "evaluate", "tuple", "whole"


@dataclass(frozen=True)
class Action:
    kind: str  # NONE, EVALUATE, TUPLE or WHOLE
    state: tuple = ()  # what the paths reaching the return wrote, per accumulator (``Written``)


@dataclass
class Decided:
    actions: dict[ast.Return, Action] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # said on the rule, in order
    refusal: str | None = None  # the rule left as written, said why
    discarded: list[ast.Return] = field(default_factory=list)  # values a ``finally`` always drops


@dataclass
class RuleReturns:
    """The rule and what the decision reads: ``accs``, one per input or the name of
    ``*arg_accums`` (their number not visible); ``facts``, what the paths do to them
    (None: fresh accumulators, never written); the target; Python's own names."""

    func: ast.FunctionDef | ast.AsyncFunctionDef
    accs: list[Accumulator] | str
    facts: Facts | None
    target: tuple
    builtin: Callable[[str], bool]
    line: Callable[[ast.AST], int]


def logs_below_target(func: ast.FunctionDef | ast.AsyncFunctionDef, has_sres: bool, target: tuple) -> bool:
    """An accumulator rule returning a dict of logs, where the target has none (before 0.11.1)."""
    params = accumulator_params(func, 3 if has_sres else 2)
    return (
        target < LOGS_SINCE
        and bool(params.named or params.star)
        and any(classify(r) is Returned.LOGS for r in own_returns(func))
    )


def decide(rule: RuleReturns) -> Decided:
    decided = Decided()
    flow = rule.facts if rule.facts is not None else facts_of(rule.func, {}, 0)
    decided.discarded = list(flow.discarded)
    for ret in own_returns(rule.func):
        decided.refusal = _decide_one(rule, ret, flow, decided)
        if decided.refusal is not None:
            break
    return decided


def _decide_one(rule: RuleReturns, ret: ast.Return, flow: Facts, decided: Decided) -> str | None:
    """Records what ``ret`` becomes in ``decided``; a refusal's message, if any."""
    kind, facts = classify(ret), rule.facts
    if kind is Returned.LOGS and facts is not None and rule.target < LOGS_SINCE:
        return _drop_logs(rule, ret, decided)
    if kind not in (Returned.TUPLE, Returned.OPAQUE):
        return None
    if ret in flow.mixed:
        return dropped_or_not(flow.mixed[ret], ret, rule.line)
    if ret in flow.discarded:  # a `finally` that never completes drops it: evaluated, written nowhere
        decided.actions[ret] = Action(EVALUATE)
        return None
    state = tuple(facts.at(ret) if facts is not None else [Written.NEVER] * _count(rule.accs))
    if kind is Returned.OPAQUE and all(w in (Written.ALWAYS, Written.UNKNOWN) for w in state):
        if not _cotangents(rule, ret):
            decided.notes.append(_logs(rule, ret, state))  # an accumulator rule's logs: kept
            return None
        if all(w is Written.ALWAYS for w in state):  # cotangents every accumulator has: dropped
            decided.actions[ret] = Action(NONE)
            return None
    if kind is Returned.TUPLE and isinstance(rule.accs, list):
        return _tuple(rule, ret, state, decided)
    return _whole(rule, ret, state, decided)


def _count(accs) -> int:
    return len(accs) if isinstance(accs, list) else 1


def _tuple(rule: RuleReturns, ret: ast.Return, state: tuple, decided: Decided) -> str | None:
    items = ret.value.elts
    if len(items) != len(rule.accs):
        return f"returns {len(items)} cotangents for {len(rule.accs)} inputs"
    live = [w if not _is_none(item) else Written.NEVER for w, item in zip(state, items)]
    refused = _unknown(rule, ret, live)
    if refused is None:
        decided.actions[ret] = Action(TUPLE, state)
    return refused


def _whole(rule: RuleReturns, ret: ast.Return, state: tuple, decided: Decided) -> str | None:
    refused = _unknown(rule, ret, list(state))
    if refused is None and any(w is not Written.NEVER for w in state):
        refused = (
            f"line {rule.line(ret)} returns a value that cannot be "
            "split per input, and the rule writes some accumulators itself; not guessing"
        )
    if refused is None:
        decided.actions[ret] = Action(WHOLE, state)
    return refused


def _is_none(item: ast.expr) -> bool:
    return isinstance(item, ast.Constant) and item.value is None


def _drop_logs(rule: RuleReturns, ret: ast.Return, decided: Decided) -> str | None:
    """Logs returned where the target has none: dropped where every accumulator is written
    on every path to the return (else refused)."""
    state = rule.facts.at(ret)
    if state and all(w is Written.ALWAYS for w in state):
        decided.actions[ret] = Action(NONE)
        return None
    return (
        f"line {rule.line(ret)} returns a dict of backward-pass logs, which jax reads from 0.11.1 "
        "only (the target is older), and not every accumulator is written on every path to it: "
        "return None there, writing the accumulators by hand"
    )


def _cotangents(rule: RuleReturns, ret: ast.Return) -> bool:
    """Is the value ``ret`` returns cotangents, never logs: a tuple in any spelling, or
    any value where the target has no logs (they come with jax 0.11.1)?"""
    return rule.target < LOGS_SINCE or visibly_tuple(ret.value, rule.func, rule.builtin)


def _logs(rule: RuleReturns, ret: ast.Return, state: tuple) -> str:
    facts = rule.facts
    handed = [facts.unknown[i] for i, w in enumerate(state) if w is Written.UNKNOWN and i in facts.unknown]
    how = (
        f"hands its accumulators to a call (line {rule.line(handed[0].node)})" if handed else "writes every accumulator"
    )
    return (
        f"`vjp_bwd` {how} on every path to the return at line {rule.line(ret)}, "
        "and returns a value that is no tuple: read as backward-pass logs (jax 0.11.1 and later) and "
        "left as written; if it is cotangents, return None instead"
    )


def _unknown(rule: RuleReturns, ret: ast.Return, state: list) -> str | None:
    """An error naming the first accumulator whose paths to ``ret`` are not all known
    to write it, or all known not to; None if none."""
    for i, w in enumerate(state):
        target = rule.accs[i].target if isinstance(rule.accs, list) else rule.accs
        if w is Written.UNKNOWN:
            return _handed_error(rule, ret, target, rule.facts.unknown[i])
        if w is Written.SOME:
            acc = rule.accs[i]
            lines = ", ".join(str(rule.line(n)) for n in [*acc.writes, *(h.call for h in acc.handed)])
            return (
                f"`{target}` is written on some paths (line {lines}), not on "
                f"all that reach the return at line {rule.line(ret)}; not guessing which count"
            )
    return None


def _handed_error(rule: RuleReturns, ret: ast.Return, target: str, event) -> str:
    why = f": {event.why}" if event.why else ""
    where = f" (line {rule.line(event.where)})" if event.where is not None else ""
    return (
        f"`{target}` is handed to a call at line {rule.line(event.node)}"
        f"{why}{where}; whether it is written before the return at line {rule.line(ret)} "
        "cannot be decided; write the accumulators by hand"
    )


def dropped_or_not(where: ast.stmt, ret: ast.Return, line, fix: str = "; write the accumulators by hand") -> str:
    """Why the value of ``ret`` may be returned or dropped (``where``: the ``try`` whose
    ``finally`` may drop it, or the ``with``)."""
    how = (
        f"the `with` statement at line {line(where)} may raise as it exits, after the writes, and the "
        "exception be caught in the rule"
        if isinstance(where, (ast.With, ast.AsyncWith))
        else f"the `finally` block at line {line(where)} may return, raise, break or continue, or not"
    )
    return f"{how}: whether the value returned at line {line(ret)} is returned or dropped cannot be decided{fix}"
