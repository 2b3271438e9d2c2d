"""Post-conditions of a rewrite, checked before anything is written.

A failure is a bug in the tool: the file is left byte-identical and the
problem is reported with its line (exit code 3).
"""

from __future__ import annotations

import builtins

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

from .accum import code, is_none
from .errors import MigrationError
from .returns import Returned, classify, tuple_items

_BUILTINS = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__builtins__", "__spec__",
                                        "__loader__", "__package__", "__path__", "__annotations__"}


def _bug(what: str, line: int) -> MigrationError:
    return MigrationError(f"internal error: {what}; file left unchanged, please report this", line)


def check_output(old: str, new: str, path: str) -> None:
    """The output compiles wherever the input did, and binds every name it did."""
    try:
        compile(old, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        pass  # not for this Python: nothing to compare against
    else:
        try:
            compile(new, path, "exec", dont_inherit=True)
        except SyntaxError as error:
            raise _bug(f"the rewrite does not compile ({error.msg})", error.lineno or 0) from error
    before = {name for name, _ in _unbound(old)}
    for name, line in _unbound(new):
        if name not in before:
            raise _bug(f"the rewrite leaves `{name}` unbound", line)


def _unbound(code: str) -> list[tuple[str, int]]:
    """Names read where no scope binds them (builtins aside), with their lines."""
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    scopes = {scope for scope in wrapper.resolve(ScopeProvider).values() if scope is not None}
    found = []
    for scope in scopes:
        for access in scope.accesses:
            name = access.node.value if isinstance(access.node, cst.Name) else None
            if name and not access.referents and name not in _BUILTINS:
                found.append((name, access.node))
    if not found:
        return []
    positions = wrapper.resolve(PositionProvider)
    return [(name, positions[node].start.line) for name, node in found]


def check_writes(plan, accs, line) -> None:
    """Each accumulator the rewrite writes is written on every value-returning
    path it replaced, unless that path returned ``None`` for it."""
    for ret, statements in plan.returns.items():
        if classify(ret) not in (Returned.TUPLE, Returned.OPAQUE):
            continue
        written = " ".join(code(s) for s in statements)
        if isinstance(accs, str) or classify(ret) is Returned.OPAQUE or not isinstance(ret.value, cst.Tuple):
            targets = [accs] if isinstance(accs, str) else [a.target for a in accs]
            missing = [t for t in targets if t not in written]
        else:
            missing = [a.target for a, item in zip(accs, tuple_items(ret))
                       if not a.writes and not is_none(item) and a.target not in written]
        if missing:
            raise _bug(f"the rewrite of a return does not write `{missing[0]}`", line(ret))
