"""HJX001 on a half-ported rule: a ``vjp_bwd`` that takes accumulators and still returns
values. The decision, from ``ast`` alone (``rule_sight.Sight``): which accumulators the
rule has, what its paths do to them, what each return becomes (``return_actions``), or
why the rule is left as written. The rewrite applies it; where it edits nothing (a
note, a refusal), triage reports it itself and the file never reaches libcst."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ...analysis import class_body
from ...analysis.accum_uses import Accumulator, Params, Unknown, Uses, accumulator_params
from ...analysis.fwd_signature import inherited_inputs, positional, structured_residuals
from ...analysis.helpers import Helpers
from ...analysis.identifiers import first_naming
from ...analysis.line_walk import names_on_its_line
from ...analysis.paths import Facts
from ...analysis.reach import Use
from ...analysis.returns import Returned, classify, own_returns, returns_values
from ...analysis.scopes import ClassInfo, ModuleSummary
from ...analysis.tree_writes import tree_writes
from ...core.line_breaks import lines_of
from ...tree.calls import may_use
from ..return_actions import Decided, RuleReturns, decide, logs_below_target
from ..rule_sight import TRIES, Sight, file_rule_uses, finally_line, reached_by_name, reaching, resolver


@dataclass
class HalfPorted:
    refusal: str | None = None  # the rule left as written, said why (after the notes)
    notes: list[str] = field(default_factory=list)
    accs: list[Accumulator] | str | None = None  # one per input, or ``*arg_accums``'s name
    facts: Facts | None = None
    decided: Decided | None = None
    unknown: list[Use] = field(default_factory=list)  # uses on objects whose class cannot be told

    @property
    def edits(self) -> bool:
        return self.refusal is None and bool(self.decided and self.decided.actions)


HIDDEN, BOUND, NOTHING, ALIAS, BY_NAME, OLD_FORM, HALF_PORTED, VALUE = (
    "hidden",
    "bound",
    "nothing",
    "alias",
    "by name",
    "old form",
    "half-ported",
    "value",
)


@dataclass
class Head:
    """Where HJX001's plan of a primitive goes first, from ``ast``, in the order the rewrite asks:
    ``vjp_bwd`` defined in a block of the body (HIDDEN), bound otherwise than by a ``def``
    (BOUND), returning nothing to rewrite (NOTHING), named in the body (ALIAS), reached by a
    name (BY_NAME), jax 0.8.0's ``(self, res, *args)`` (OLD_FORM), taking accumulators
    (HALF_PORTED) or not (VALUE)."""

    kind: str
    alias: ast.AST | None = None
    named: str | None = None  # how it is reached by a name (``rule_sight.reached_by_name``)
    params: Params | None = None


def head(sight: Sight, node: ast.ClassDef, info: ClassInfo | None, follows=None) -> Head:
    """``follows(named)``: does the migration rewrite that reference by name (triage: none)?"""
    own = class_body.methods(node)
    func = own.get("vjp_bwd")
    if "vjp_bwd" in class_body.conditional_defs(node):
        return Head(HIDDEN)
    if func is None:
        return Head(BOUND)
    has_sres = structured_residuals(own)
    if not returns_values(func) and not logs_below_target(func, has_sres, sight.target):
        return Head(NOTHING)
    alias = first_naming([s for s in node.body if not isinstance(s, class_body.FUNCTIONS)], "vjp_bwd")
    if alias is not None:  # ``_ref = vjp_bwd``: a rename would leave the name unbound there
        return Head(ALIAS, alias=alias)
    named = reached_by_name(sight, info, node.name, follows=follows)
    if named is not None:
        return Head(BY_NAME, named=named)
    params = accumulator_params(func, 3 if has_sres else 2)
    if params.star and len(positional(func)) == 2 and not has_sres:
        return Head(OLD_FORM)
    return Head(HALF_PORTED if params.named or params.star else VALUE, params=params)


def decide_half_ported(
    sight: Sight, cls: ast.ClassDef, info: ClassInfo | None, func: ast.FunctionDef, params: Params
) -> HalfPorted:
    """Accumulators are there, and values still returned: write those not written yet."""
    uses = reaching(sight, info, func)
    blocking = next((use for use in uses if use.resolved), None)
    if blocking is not None:
        kinds = {classify(r) for r in own_returns(func)}
        what = (
            "cotangents"
            if kinds <= {Returned.NOTHING, Returned.TUPLE}
            else "values (cotangents, or logs: not known which)"
        )
        return HalfPorted(
            f"`vjp_bwd` takes accumulators and returns {what}, and `.vjp_bwd` at {blocking.where} "
            "reaches this rule, where what it returns may be used; port both by hand"
        )
    found = _written(sight, cls, info, func, params)
    found.unknown = [use for use in uses if not use.resolved]
    return found


def _written(sight: Sight, cls: ast.ClassDef, info, func: ast.FunctionDef, params: Params) -> HalfPorted:
    if params.named and params.star:
        return HalfPorted("`vjp_bwd` takes named accumulators and `*` ones; not guessing")
    uses = Uses(func, tree_writes(sight.is_tree_map, sight.builtin))
    try:
        accs = _accumulators(sight, cls, func, params, uses)
        if isinstance(accs, HalfPorted):
            return accs
        whole = [Accumulator(accs, list(uses.whole_writes), list(uses.spread))] if isinstance(accs, str) else accs
        facts = Helpers(resolver(sight, info), sight.builtin).facts(uses, whole)
    except Unknown as unknown:
        return HalfPorted(
            f"{unknown} (line {sight.line(unknown.node)}): whether it is "
            "written cannot be decided; write the accumulators by hand"
        )
    decided = decide(RuleReturns(func, accs, facts, sight.target, sight.builtin, sight.line))
    return HalfPorted(decided.refusal, decided.notes, accs, facts, decided)


def _accumulators(sight: Sight, cls: ast.ClassDef, func, params: Params, uses: Uses):
    """The accumulators of the rule, or the name of ``*arg_accums`` where their number
    is not visible; a refusal where they cannot be told."""
    if params.named:
        count = _input_count(sight, cls)
        if count is not None and count != len(params.named):
            return HalfPorted(
                f"`vjp_bwd` takes {len(params.named)} accumulators for {count} inputs; not guessing which is which"
            )
        return [uses.named(name) for name in params.named]
    accs = uses.star(params.star, _input_count(sight, cls, func))
    if accs == -1:  # their number is not visible, and no element is used: a write of the whole
        return params.star
    if isinstance(accs, int):
        return HalfPorted(f"the number of inputs is not visible (`{params.star}` is indexed)")
    return accs


def _input_count(sight: Sight, cls: ast.ClassDef, rule: ast.FunctionDef | None = None) -> int | None:
    """How many inputs: the class's (or a base's of this file), else the one length of the
    tuples ``rule`` (if given) returns."""
    inputs = inherited_inputs(cls, sight.kinds)
    if inputs is not None:
        return len(inputs)
    returns = own_returns(rule) if rule is not None else []
    lengths = {len(r.value.elts) for r in returns if classify(r) is Returned.TUPLE}
    return lengths.pop() if len(lengths) == 1 else None


def alone(code: str, path: str, tree: ast.Module, summary, classes: list, options, project) -> list | None:
    """HJX001's findings on this file, where its every act is a half-ported rule's decision that
    edits nothing (a note that a rule returns logs, a refusal): triage reports them, and the
    file is never parsed with libcst. None: anything else may act, or is not sure here."""
    from . import RULE, through_family

    if not path.endswith(".py") or project is None or through_family(code, tree, classes, summary.scope, project):
        return None  # notebooks' lines, or a family act: the migration's
    found, lines = [], lines_of(code)
    sight = _triage_sight(code, path, tree, summary, classes, options, project, lines)
    try:
        for node, kind, info in classes:
            if kind not in RULE.kinds or not RULE.class_test(node, kind):
                continue
            said = _class_alone(sight, node, kind, info) if info is not None else None
            if said is None:
                return None
            found += said
    except _Unsure:
        return None
    return found


class _Unsure(Exception):
    """A line triage cannot name as the migration does (a ``def`` whose name is not on its line)."""


def _class_alone(sight: Sight, node: ast.ClassDef, kind, info: ClassInfo) -> list | None:
    """The findings on a primitive whose rule is half-ported and left as written, as the
    rewrite's ``plan_class`` reaches ``half_ported`` (None: the rewrite may do otherwise)."""
    from ...core.model import ERROR, NOTE, Finding
    from . import RULE

    if not kind.is_primitive:
        return None
    found = head(sight, node, info)
    if found.kind == NOTHING:
        return []
    if found.kind != HALF_PORTED:
        return None
    func = class_body.methods(node)["vjp_bwd"]
    decided = decide_half_ported(sight, node, info, func, found.params)
    if decided.edits:
        return None
    said = [(note, NOTE) for note in decided.notes] + ([(decided.refusal, ERROR)] if decided.refusal else [])
    line = sight.line(func)
    return [Finding(sight.file, line, f"{info.qualname}: {text}", RULE.code, severity=how) for text, how in said]


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _triage_sight(code, path, tree, summary, classes, options, project, lines) -> Sight:
    """The sight triage has of the file: its own parse, the project's view of the tree."""
    from ...analysis.names import NameModel
    from ..rule_sight import builtin_of, tree_map_of

    model, reads = NameModel.of(tree), _Reads(code, path, tree, summary, project, lines)
    return Sight(
        project,
        {node: info for node, _, info in classes if info is not None},
        {node.name: node for node, kind, _ in classes},
        tree.body,
        lambda: model,
        reads.uses,
        options.target,
        builtin_of(model),
        tree_map_of(model),
        reads.line,
        path,
        reads.named_here,
    )


@dataclass
class _Reads:
    """What triage's sight reads of the file and the tree, each once."""

    code: str
    path: str
    tree: ast.Module
    summary: ModuleSummary
    project: object
    lines: list[str]
    _uses: dict[str, list[Use]] = field(default_factory=dict)
    _named: list | None = None

    def uses(self, attr: str) -> list[Use]:
        from ...analysis.reach import tree_uses

        if attr not in self._uses:
            here = file_rule_uses(self.project, self.tree, self.summary, attr) if may_use(self.code, attr) else []
            self._uses[attr] = here + tree_uses(self.project, attr, self.path)
        return self._uses[attr]

    def named_here(self) -> list:
        from ...analysis.reach import file_named_uses

        if self._named is None:
            self._named = file_named_uses(self.project, self.tree, self.summary, self.code, "")
        return self._named

    def line(self, node: ast.AST) -> int:
        """As the rewrite's ``rule_line``: a def's name's, a ``try``'s ``finally``'s."""
        if isinstance(node, _DEFS) and not names_on_its_line(self.lines[node.lineno - 1], node):
            raise _Unsure  # the migration asks libcst's positions
        return finally_line(node, self.lines) if isinstance(node, TRIES) else node.lineno
