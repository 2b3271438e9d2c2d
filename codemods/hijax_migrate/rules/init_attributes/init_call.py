"""A primitive's call of its base ``__init__``, and its 0.8.1 form (HJX009).

jax 0.8.0's ``NewstyleHiPrimitive.__init__(self, in_avals, out_aval, **params)``
set ``self.in_avals = tuple(in_avals)``, ``self.out_aval`` and ``self.params``;
from 0.8.1 the subclass sets them and the base checks they are there.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ...analysis.project import HIJAX_MODULES

_NAMES = ("in_avals", "out_aval")


@dataclass
class InitCall:
    call: cst.Call
    explicit: bool  # ``Base.__init__(self, ...)``: the first argument is ``self``
    shares_line: bool

    @property
    def args(self) -> list[cst.Arg]:
        return list(self.call.args[1:] if self.explicit else self.call.args)

    @property
    def passes_arguments(self) -> bool:
        return bool(self.args)

    def _split(self) -> tuple[dict[str, cst.BaseExpression], list[cst.Arg]] | None:
        named, params = {}, []
        positional = [a for a in self.args if a.keyword is None and not a.star]
        if len(positional) > 2 or any(a.star == "*" for a in self.args):
            return None
        named.update(zip(_NAMES, (a.value for a in positional)))
        for arg in self.args:
            if arg.keyword is not None and arg.keyword.value in _NAMES:
                named[arg.keyword.value] = arg.value
            elif arg.keyword is not None or arg.star == "**":
                params.append(arg)
        return (named, params) if len(named) == 2 else None

    def problem(self) -> str | None:
        if self.shares_line:
            return "shares its line with other statements"
        if self._split() is None:
            return "does not read as `(in_avals, out_aval, **params)`"
        return None

    def statements(self, line: cst.SimpleStatementLine) -> list[cst.SimpleStatementLine]:
        named, params = self._split()
        param_args = [p.with_changes(comma=cst.MaybeSentinel.DEFAULT) for p in params]
        values = [
            _as_tuple(named["in_avals"]),
            named["out_aval"],
            cst.Call(cst.Name("dict"), param_args) if params else cst.Dict([]),
        ]
        lines = [
            cst.SimpleStatementLine(
                [cst.Assign([cst.AssignTarget(cst.Attribute(cst.Name("self"), cst.Name(name)))], value)]
            )
            for name, value in zip(("in_avals", "out_aval", "params"), values)
        ]
        keep = self.call.args[:1] if self.explicit else []
        bare = self.call.with_changes(args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in keep])
        lines[0] = lines[0].with_changes(leading_lines=line.leading_lines)
        return [*lines, line.with_changes(body=[cst.Expr(bare)], leading_lines=[])]


def _as_tuple(expr: cst.BaseExpression) -> cst.BaseExpression:
    """0.8.0 stored ``tuple(in_avals)``: a tuple literal is one already, a list
    literal becomes one, anything else is wrapped."""
    if isinstance(expr, cst.Tuple):
        return expr
    if isinstance(expr, cst.List):
        elements = list(expr.elements)
        if len(elements) == 1:
            elements[0] = elements[0].with_changes(comma=cst.Comma())
        return cst.Tuple(elements)
    return cst.Call(cst.Name("tuple"), [cst.Arg(expr)])


def init_calls(line: cst.SimpleStatementLine) -> list[cst.Call]:
    """The calls ``X.__init__(...)`` standing as statements on this line."""
    return [
        small.value
        for small in line.body
        if isinstance(small, cst.Expr)
        and isinstance(small.value, cst.Call)
        and isinstance(small.value.func, cst.Attribute)
        and small.value.func.attr.value == "__init__"
    ]


def base_init_call(line: cst.SimpleStatementLine, qualified) -> InitCall | None:
    """The ``super().__init__(...)`` (or ``Base.__init__(self, ...)``) on this line;
    ``qualified``: a node's qualified names."""
    for call in init_calls(line):
        target = call.func.value
        if isinstance(target, cst.Call) and isinstance(target.func, cst.Name) and target.func.value == "super":
            return InitCall(call, False, len(line.body) > 1)
        names = qualified(target)
        if any(q.name.rpartition(".")[0] in HIJAX_MODULES for q in names):
            return InitCall(call, True, len(line.body) > 1)
    return None
