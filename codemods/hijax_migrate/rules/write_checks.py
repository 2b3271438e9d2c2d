"""The post-condition of accumulator writes: every path they replace writes
every accumulator it returned a cotangent for. Checked as the writes are
planned; a failure is a bug in the tool (exit 3), the file left as it is."""

from __future__ import annotations

import libcst as cst

from ..analysis.accum import code, is_none
from ..analysis.paths import Written
from ..analysis.return_values import tuple_items
from ..analysis.returns import Returned
from ..core.errors import tool_bug


def check_writes(plan, accs, line, returned, facts=None, discarded=frozenset()) -> None:
    """Each accumulator the rewrite writes is written on every value-returning
    path it replaced, unless that path returned ``None`` for it, or every path
    reaching it wrote the accumulator already (``facts``); a return whose value a
    ``finally`` always drops (``discarded``) writes nothing. ``returned``: what a
    return returns (``RuleTransformer.returned``)."""
    for ret, statements in plan.returns.items():
        if ret in discarded:
            if not _evaluated_only(ret, statements):
                raise tool_bug("the rewrite writes the value of a return that a `finally` drops", line(ret))
            continue
        if returned(ret) not in (Returned.TUPLE, Returned.OPAQUE):
            continue
        written = " ".join(code(s) for s in statements)
        listed = isinstance(ret.value, (cst.Tuple, cst.List))
        if isinstance(accs, str) or returned(ret) is Returned.OPAQUE or not listed:
            targets = [accs] if isinstance(accs, str) else [a.target for a in accs]
            before = facts.at(ret) if facts is not None else [Written.NEVER] * len(targets)
            missing = [t for t, w in zip(targets, before) if w is not Written.ALWAYS and t not in written]
        else:
            before = facts.at(ret) if facts is not None else [Written.NEVER] * len(accs)
            missing = [
                a.target
                for a, item, w in zip(accs, tuple_items(ret), before)
                if w is not Written.ALWAYS and not is_none(item) and a.target not in written
            ]
        if missing:
            raise tool_bug(f"the rewrite of a return does not write `{missing[0]}`", line(ret))
        if any(_is_tree_map(s) and len(s.value.args) != 3 for s in statements):
            raise tool_bug("a tree write of a return takes other than (function, accumulators, value)", line(ret))


def _is_tree_map(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.Expr) and code(statement).startswith("jax.tree.map(")


def _evaluated_only(ret: cst.Return, statements: list) -> bool:
    """``value`` as a statement, then ``return None``: nothing written."""
    return (
        len(statements) == 2
        and isinstance(statements[0], cst.Expr)
        and statements[0].value is ret.value
        and isinstance(statements[1], cst.Return)
        and is_none(statements[1].value)
    )
