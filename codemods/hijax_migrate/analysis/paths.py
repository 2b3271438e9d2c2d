"""What each path through a function does to the accumulators it is given.

A path runs from the function's start to a ``return`` (or off its end). Along
it, each accumulator is written some number of times: 0, 1, more (``MANY``),
or an unknown number (``ANY``: handed to a call whose effect cannot be read).
Where paths meet their counts are joined (sets of counts, per accumulator),
so that each ``return`` knows, for each accumulator, whether every path that
reaches it wrote it (``ALWAYS``), none did (``NEVER``), some did (``SOME``),
or one handed it to a call that cannot be read (``UNKNOWN``).

The model is conservative: a loop may run any number of times (but for one
whose count is known, ``loops.py``), an exception may leave a ``try`` or
``with`` body at any point, a ``match`` may take any arm. A ``finally`` block
runs as Python runs it: after the body's normal end, after an exception from
anywhere in the body, its handlers or its ``else``, and after each ``return``,
``break`` or ``continue`` that leaves through it. A ``return`` whose ``finally``
never completes normally (it returns, raises, breaks or continues) exits with
nothing: its value is dropped (``discarded``); one whose ``finally`` may do
either is ``mixed``, and so is one whose ``finally`` does more than ``pass``
inside a ``try`` with handlers or a ``with`` of the rule (an exception it raises
there may be caught, the return's value dropped after its writes), and one in a
``with`` there (its exit may raise). A write in a
``finally`` block counts on each of those paths.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import libcst as cst

MANY, ANY = 2, "?"
State = tuple  # one frozenset of counts per accumulator; None: no path reaches here


class Written(enum.Enum):
    NEVER = "neither"
    ALWAYS = "written"
    SOME = "written on some paths"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Event:
    """What one statement does to accumulator ``acc``: ``effect`` 1 (a write),
    0 (an inspection) or ``ANY``; for errors, ``node`` (the write or call), ``why``
    not known, and ``where`` (the node in a helper that says so)."""

    acc: int
    effect: int | str
    node: cst.CSTNode
    why: str = ""
    where: cst.CSTNode | None = None


def written(counts: frozenset) -> Written:
    if ANY in counts:
        return Written.UNKNOWN
    if counts == {0}:
        return Written.NEVER
    return Written.SOME if 0 in counts else Written.ALWAYS


def _plus(count, effect):
    return ANY if ANY in (count, effect) else min(count + effect, MANY)


def _join(*states: State | None) -> State | None:
    live = [s for s in states if s is not None]
    if not live:
        return None
    return tuple(frozenset().union(*column) for column in zip(*live))


@dataclass
class Facts:
    """The joined state at each exit: a ``Return``, or the function (off its end)."""

    size: int
    exits: dict = field(default_factory=dict)
    unknown: dict = field(default_factory=dict)  # accumulator -> its first ``ANY`` event
    discarded: dict = field(default_factory=dict)  # return -> the ``finally`` that drops its value on some path
    mixed: dict = field(default_factory=dict)  # return -> a ``finally`` that may drop its value, or not

    def at(self, node: cst.CSTNode) -> list[Written]:
        state = self.exits.get(node)  # None: no path reaches it; as good as never written
        return [Written.NEVER] * self.size if state is None else [written(c) for c in state]

    def counts(self, acc: int) -> frozenset:
        """The counts of ``acc`` over every exit."""
        return frozenset().union(*(state[acc] for state in self.exits.values()))


def facts_of(func: cst.FunctionDef, events: dict, size: int, builtin=None) -> Facts:
    """``builtin(name)``: is ``name`` Python's own there (``range``, ``zip``); None: not known."""
    walk = Walk(events, Facts(size), builtin)
    end = walk.block(func.body.body, walk.start())
    if end is not None:
        walk.facts.exits[func] = end
    return walk.facts


def statement_of(node: cst.CSTNode, parents) -> cst.CSTNode:
    """The statement an expression belongs to; a compound one where it stands in its header."""
    while not isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        node = parents[node]
    return node


_HEADERS = {cst.If: "test", cst.For: "iter", cst.Match: "subject"}


def surely_run(node: cst.CSTNode, parents) -> bool:
    """Does ``node`` run whenever its statement does? Not in an arm of ``a if c else b``, after
    the first operand of ``and``/``or``, in a ``case`` guard or an ``except`` clause's type."""
    while not isinstance(node, cst.BaseSmallStatement):
        parent = parents[node]
        if isinstance(parent, cst.IfExp) and node is not parent.test:
            return False
        if isinstance(parent, cst.BooleanOperation) and node is parent.right:
            return False
        if isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
            return True  # decorators, defaults, bases: evaluated where the statement runs
        if isinstance(parent, cst.With):
            return any(node is item for item in parent.items)
        if isinstance(parent, cst.BaseCompoundStatement):
            return type(parent) in _HEADERS and node is getattr(parent, _HEADERS[type(parent)])
        node = parent
    return True


class Walk:
    """Forward over statements, from a state to the state after them."""

    def __init__(self, events: dict, facts: Facts, builtin=None):
        self.events, self.facts = events, facts
        self.builtin = builtin or (lambda name: False)
        self.loops: list[tuple[list, list]] = []  # (breaks, continues) of the loops entered
        self.frames: list[list] = []  # every state seen inside an open try/with body
        # each open ``try`` with a ``finally``: how many loops were open at its start, and the
        # (kind, node, state) of each return, break or continue waiting to run through it
        self.finals: list[tuple[int, list]] = []
        self.catchers = 0  # open try bodies with handlers, and with bodies: an exception there may be caught
        self.withs: list[tuple[cst.With, bool]] = []  # open with bodies: may an exception of its exit be caught?

    def start(self) -> State:
        return tuple(frozenset({0}) for _ in range(self.facts.size))

    def block(self, statements, state: State | None) -> State | None:
        for node in statements:
            if state is None:
                return None  # the rest cannot be reached
            state = self.statement(node, state)
        return state

    def statement(self, node: cst.CSTNode, state: State) -> State | None:
        if isinstance(node, cst.SimpleStatementLine):
            return self.block(node.body, state)
        state = self.apply(node, state)
        handler = getattr(self, f"_{type(node).__name__.lower()}", None)
        return handler(node, state) if handler is not None else state

    def apply(self, node: cst.CSTNode, state: State) -> State:
        for event in self.events.get(node, ()):
            effect = ANY if isinstance(node, cst.While) else event.effect  # a test runs again and again
            if effect == ANY:
                self.facts.unknown.setdefault(event.acc, event)
            state = tuple(
                frozenset(_plus(c, effect) for c in counts) if i == event.acc else counts
                for i, counts in enumerate(state)
            )
            for frame in self.frames:
                frame.append(state)
        return state

    def _return(self, node, state):
        caught = next((w for w, around in reversed(self.withs) if around), None)
        if caught is not None:  # the context manager's exit runs after the writes, and may raise
            self.facts.mixed.setdefault(node, caught)
        if self.finals:
            self.finals[-1][1].append(("return", node, state))
        else:
            self.facts.exits[node] = _join(self.facts.exits.get(node), state)

    def _raise(self, node, state):
        return None

    def _break(self, node, state):
        self._leave(node, state, 0)

    def _continue(self, node, state):
        self._leave(node, state, 1)

    def _leave(self, node, state, which: int) -> None:
        """A ``break`` (0) or ``continue`` (1): to its loop, through an open ``finally`` first
        where the loop is outside that ``try``."""
        if self.finals and self.finals[-1][0] == len(self.loops):
            self.finals[-1][1].append(("break" if which == 0 else "continue", node, state))
        else:
            self.loops[-1][which].append(state)

    def _if(self, node: cst.If, state):
        if isinstance(node.orelse, cst.If):
            other = self.statement(node.orelse, state)
        else:
            other = self.block(node.orelse.body.body, state) if node.orelse else state
        return _join(self.block(node.body.body, state), other)

    def _loop(self, node, state):
        count = known_count(node.iter, self.builtin) if isinstance(node, cst.For) and not node.asynchronous else None
        if count is not None:
            return self._counted(node, state, count)
        entry, breaks = state, []
        for _ in range(8):  # counts saturate at MANY: a fixed point within a few rounds
            self.loops.append(frame := ([], []))
            end = self.block(node.body.body, entry)
            self.loops.pop()
            breaks += frame[0]
            again = _join(entry, end, *frame[1])
            if again == entry:
                break
            entry = again
        forever = isinstance(node, cst.While) and isinstance(node.test, cst.Name) and node.test.value == "True"
        after = None if forever else entry
        if node.orelse and after is not None:
            after = self.block(node.orelse.body.body, after)
        return _join(after, *breaks)

    _for = _while = _loop

    def _counted(self, node: cst.For, state, count: int):
        """A ``for`` over something of known length: its body runs ``count`` times, unless it breaks."""
        entry, breaks = state, []
        for _ in range(count):
            if entry is None:
                break
            self.loops.append(frame := ([], []))
            end = self.block(node.body.body, entry)
            self.loops.pop()
            breaks += frame[0]
            entry = _join(end, *frame[1])
        if node.orelse and entry is not None:
            entry = self.block(node.orelse.body.body, entry)
        return _join(entry, *breaks)

    def _inside(self, body, state):
        """The state at the end of ``body``, and the join of every state inside it."""
        self.frames.append([state])
        end = self.block(body, state)
        return end, _join(*self.frames.pop())

    def _handled(self, node, state):
        """The state after a ``try``'s body, ``else`` and handlers, before its ``finally``."""
        self.catchers += bool(node.handlers)
        try:
            end, anywhere = self._inside(node.body.body, state)
        finally:
            self.catchers -= bool(node.handlers)
        if node.orelse:
            end = self.block(node.orelse.body.body, end)
        return _join(end, *(self.block(h.body.body, anywhere) for h in node.handlers))

    def _try(self, node, state):
        if not node.finalbody:
            return self._handled(node, state)
        final = node.finalbody.body.body
        self.finals.append((len(self.loops), pending := []))
        self.frames.append([state])  # an exception may leave the body, a handler or `else` anywhere
        try:
            end = self._handled(node, state)
        finally:
            self.finals.pop()
            raised = _join(*self.frames.pop())
        abrupt, caught = ends_abruptly(final), self.catchers > 0 and not _inert(final)
        for kind, at, entry in pending:
            after = self.block(final, entry)
            if kind == "return" and (abrupt or caught):
                (self.facts.discarded if after is None else self.facts.mixed).setdefault(at, node.finalbody)
            if after is not None:
                {"return": self._return, "break": self._break, "continue": self._continue}[kind](at, after)
        if raised is not None:
            self.block(final, raised)  # the exception goes on, unless the block returns or leaves a loop
        return self.block(final, end)

    _trystar = _try

    def _with(self, node, state):
        self.withs.append((node, self.catchers > 0))
        self.catchers += 1
        try:
            end, anywhere = self._inside(node.body.body, state)
        finally:
            self.catchers -= 1
            self.withs.pop()
        return _join(end, anywhere)  # a context manager may swallow an exception raised anywhere

    def _match(self, node: cst.Match, state):
        ends = [self.block(case.body.body, state) for case in node.cases]
        last = node.cases[-1] if node.cases else None
        exhaustive = (
            last is not None
            and last.guard is None
            and isinstance(last.pattern, cst.MatchAs)
            and last.pattern.pattern is None
        )
        return _join(*ends, *([] if exhaustive else [state]))


MOST_ROUNDS = 32  # a known count above this is walked as any loop


def known_count(iterable: cst.BaseExpression, builtin) -> int | None:
    """How many items a ``for`` gets from ``iterable``, where it is visible: a tuple or list
    display (no starred item), ``range`` of integer literals, ``zip`` or ``enumerate`` of
    such (``builtin`` says the names are Python's own); None otherwise."""
    if isinstance(iterable, (cst.Tuple, cst.List)):
        starred = any(isinstance(e, cst.StarredElement) for e in iterable.elements)
        return None if starred or len(iterable.elements) > MOST_ROUNDS else len(iterable.elements)
    if not (isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and builtin(iterable.func.value)):
        return None
    if any(a.keyword is not None or a.star for a in iterable.args):
        return None
    name, args = iterable.func.value, [a.value for a in iterable.args]
    if name == "range" and 1 <= len(args) <= 3:
        numbers = [_integer(a) for a in args]
        if None in numbers or numbers[2:] == [0]:
            return None
        found = len(range(*numbers))
        return found if found <= MOST_ROUNDS else None
    counts = [known_count(a, builtin) for a in args]
    if name == "zip" and args and None not in counts:
        return min(counts)
    return counts[0] if name == "enumerate" and len(args) == 1 else None


def _integer(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = _integer(expr.expression)
        return None if inner is None else -inner
    return None


_JUMPS = (cst.Return, cst.Raise, cst.Break, cst.Continue)


def ends_abruptly(statements, in_loop: bool = False) -> bool:
    """May these statements end other than by running off their end: a ``return`` or ``raise``,
    or a ``break``/``continue`` of a loop around them (``in_loop``: one of theirs is open)?"""
    for stmt in statements:
        if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            if ends_abruptly(stmt.body, in_loop):
                return True
        elif isinstance(stmt, (cst.Return, cst.Raise)) or (isinstance(stmt, _JUMPS) and not in_loop):
            return True
        elif isinstance(stmt, cst.BaseCompoundStatement) and not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            if any(ends_abruptly(body, in_loop or _loop_body(stmt, body)) for body in _bodies(stmt)):
                return True
    return False


def _inert(statements) -> bool:
    """Only ``pass`` (and string constants): nothing there can raise."""
    return all(
        isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
        and all(
            isinstance(s, cst.Pass) or (isinstance(s, cst.Expr) and isinstance(s.value, cst.SimpleString))
            for s in stmt.body
        )
        for stmt in statements
    )


def _loop_body(stmt, body) -> bool:
    return isinstance(stmt, (cst.For, cst.While)) and body is stmt.body.body


def _bodies(stmt) -> list:
    """The statement lists of a compound statement (a loop's ``else`` runs outside the loop)."""
    found = [stmt.body.body] if isinstance(getattr(stmt, "body", None), cst.BaseSuite) else []
    orelse = getattr(stmt, "orelse", None)
    if isinstance(orelse, cst.If):
        found += _bodies(orelse)
    elif orelse is not None:
        found.append(orelse.body.body)
    if getattr(stmt, "finalbody", None) is not None:
        found.append(stmt.finalbody.body.body)
    return found + [inner.body.body for inner in [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]]
