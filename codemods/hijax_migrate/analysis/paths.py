"""What each path through a function does to the accumulators it is given.

A path runs from the function's start to a ``return`` (or off its end). Along
it, each accumulator is written some number of times: 0, 1, more (``MANY``),
or an unknown number (``ANY``: handed to a call whose effect cannot be read).
Where paths meet their counts are joined (sets of counts, per accumulator),
so that each ``return`` knows, for each accumulator, whether every path that
reaches it wrote it (``ALWAYS``), none did (``NEVER``), some did (``SOME``),
or one handed it to a call that cannot be read (``UNKNOWN``).

The walk reads ``ast``'s statements; the events, what each statement does, are
the caller's (``helpers``), keyed by them (``cst_paths`` maps the facts onto
libcst's returns for the rewrite).

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

import ast
import enum
from dataclasses import dataclass, field

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
    node: object  # whatever the caller names in its messages
    why: str = ""
    where: object = None


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
    """The joined state at each exit: a ``Return``, or the function (off its end); a
    dropped or maybe-dropped return's ``finally`` is its ``Try``, a ``with`` its ``With``."""

    size: int
    exits: dict = field(default_factory=dict)
    unknown: dict = field(default_factory=dict)  # accumulator -> its first ``ANY`` event
    discarded: dict = field(default_factory=dict)  # return -> the ``finally`` that drops its value on some path
    mixed: dict = field(default_factory=dict)  # return -> a ``finally`` that may drop its value, or not

    def at(self, node) -> list[Written]:
        state = self.exits.get(node)  # None: no path reaches it; as good as never written
        return [Written.NEVER] * self.size if state is None else [written(c) for c in state]

    def counts(self, acc: int) -> frozenset:
        """The counts of ``acc`` over every exit."""
        return frozenset().union(*(state[acc] for state in self.exits.values()))


def facts_of(func: ast.FunctionDef | ast.AsyncFunctionDef, events: dict, size: int, builtin=None) -> Facts:
    """``events``: each statement's, keyed by ``ast``'s statement; ``builtin(name)``: is
    ``name`` Python's own there (``range``, ``zip``); None: not known."""
    walk = Walk(events, Facts(size), builtin)
    end = walk.block(func.body, walk.start())
    if end is not None:
        walk.facts.exits[func] = end
    return walk.facts


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
        self.withs: list[tuple[ast.stmt, bool]] = []  # open with bodies: may an exception of its exit be caught?

    def start(self) -> State:
        return tuple(frozenset({0}) for _ in range(self.facts.size))

    def block(self, statements: list[ast.stmt], state: State | None) -> State | None:
        for node in statements:
            if state is None:
                return None  # the rest cannot be reached
            state = self.statement(node, state)
        return state

    def statement(self, node: ast.stmt, state: State) -> State | None:
        state = self.apply(node, state)
        handler = getattr(self, f"_{type(node).__name__.lower()}", None)
        return handler(node, state) if handler is not None else state

    def apply(self, node: ast.stmt, state: State) -> State:
        for event in self.events.get(node, ()):
            effect = ANY if isinstance(node, ast.While) else event.effect  # a test runs again and again
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

    def _if(self, node: ast.If, state):  # an ``elif`` is the ``if`` its ``orelse`` holds
        return _join(self.block(node.body, state), self.block(node.orelse, state))

    def _loop(self, node, state):
        count = known_count(node.iter, self.builtin) if isinstance(node, ast.For) else None
        if count is not None:
            return self._counted(node, state, count)
        entry, breaks = state, []
        for _ in range(8):  # counts saturate at MANY: a fixed point within a few rounds
            self.loops.append(frame := ([], []))
            end = self.block(node.body, entry)
            self.loops.pop()
            breaks += frame[0]
            again = _join(entry, end, *frame[1])
            if again == entry:
                break
            entry = again
        forever = isinstance(node, ast.While) and isinstance(node.test, ast.Constant) and node.test.value is True
        after = None if forever else entry
        if node.orelse and after is not None:
            after = self.block(node.orelse, after)
        return _join(after, *breaks)

    _for = _asyncfor = _while = _loop

    def _counted(self, node: ast.For, state, count: int):
        """A ``for`` over something of known length: its body runs ``count`` times, unless it breaks."""
        entry, breaks = state, []
        for _ in range(count):
            if entry is None:
                break
            self.loops.append(frame := ([], []))
            end = self.block(node.body, entry)
            self.loops.pop()
            breaks += frame[0]
            entry = _join(end, *frame[1])
        if node.orelse and entry is not None:
            entry = self.block(node.orelse, entry)
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
            end, anywhere = self._inside(node.body, state)
        finally:
            self.catchers -= bool(node.handlers)
        if node.orelse:
            end = self.block(node.orelse, end)
        return _join(end, *(self.block(h.body, anywhere) for h in node.handlers))

    def _try(self, node, state):
        if not node.finalbody:
            return self._handled(node, state)
        final = node.finalbody
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
                (self.facts.discarded if after is None else self.facts.mixed).setdefault(at, node)
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
            end, anywhere = self._inside(node.body, state)
        finally:
            self.catchers -= 1
            self.withs.pop()
        return _join(end, anywhere)  # a context manager may swallow an exception raised anywhere

    _asyncwith = _with

    def _match(self, node: ast.Match, state):
        ends = [self.block(case.body, state) for case in node.cases]
        last = node.cases[-1] if node.cases else None
        exhaustive = (
            last is not None
            and last.guard is None
            and isinstance(last.pattern, ast.MatchAs)
            and last.pattern.pattern is None
        )
        return _join(*ends, *([] if exhaustive else [state]))


def once_per_pass(loop: ast.For, events: dict) -> bool:
    """Every pass through the loop's body writes accumulator 0 once (``events``), and
    none leaves the loop early (no ``return``, ``break`` or ``else``)."""
    facts = Facts(1)
    walk = Walk(events, facts)
    walk.loops.append(frame := ([], []))
    end = walk.block(loop.body, walk.start())
    if facts.exits or frame[0] or loop.orelse:
        return False
    ends = [s for s in [end, *frame[1]] if s is not None]
    return bool(ends) and all(s[0] == {1} for s in ends)


MOST_ROUNDS = 32  # a known count above this is walked as any loop


def known_count(iterable: ast.expr, builtin) -> int | None:
    """How many items a ``for`` gets from ``iterable``, where it is visible: a tuple or list
    display (no starred item), ``range`` of integer literals, ``zip`` or ``enumerate`` of
    such (``builtin`` says the names are Python's own); None otherwise."""
    if isinstance(iterable, (ast.Tuple, ast.List)):
        starred = any(isinstance(e, ast.Starred) for e in iterable.elts)
        return None if starred or len(iterable.elts) > MOST_ROUNDS else len(iterable.elts)
    if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and builtin(iterable.func.id)):
        return None
    if iterable.keywords or any(isinstance(a, ast.Starred) for a in iterable.args):
        return None
    name, args = iterable.func.id, iterable.args
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


def _integer(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:  # ``True`` is an int too, and no literal
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _integer(expr.operand)
        return None if inner is None else -inner
    return None


_JUMPS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_UNRUN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # their bodies do not run where they stand


def ends_abruptly(statements: list[ast.stmt], in_loop: bool = False) -> bool:
    """May these statements end other than by running off their end: a ``return`` or ``raise``,
    or a ``break``/``continue`` of a loop around them (``in_loop``: one of theirs is open)?"""
    for stmt in statements:
        if isinstance(stmt, (ast.Return, ast.Raise)) or (isinstance(stmt, _JUMPS) and not in_loop):
            return True
        if not isinstance(stmt, _UNRUN) and any(ends_abruptly(body, in_loop or loop) for body, loop in _bodies(stmt)):
            return True
    return False


def _inert(statements: list[ast.stmt]) -> bool:
    """Only ``pass`` and constants (a docstring, ``...``): nothing there can raise."""
    return all(
        isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))
        for stmt in statements
    )


def _bodies(stmt: ast.stmt) -> list[tuple[list[ast.stmt], bool]]:
    """The statement lists a compound statement holds, each with whether it is a loop's body
    (a loop's ``else`` runs outside the loop)."""
    loop = isinstance(stmt, (ast.For, ast.AsyncFor, ast.While))
    found = [(getattr(stmt, name, None), loop and name == "body") for name in ("body", "orelse", "finalbody")]
    found += [(inner.body, False) for inner in [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]]
    return [(body, in_loop) for body, in_loop in found if isinstance(body, list)]
