"""Hijax programs drawn from Python's data model: the generator behind
``namespaces.py`` (issue 40). Where ``program_trees`` writes rules the way
public code was seen to write them, this one writes a primitive's backward
rule in the forms of the language reference (/work/notes/enumeration.md):

- A, the class-body statements that bind the rule's name (def, decorated
  def, assignments of every right-hand side, annotated, tuple, list, starred
  and chained targets, walrus, import/for/with as, a match capture, inside
  if/try/for/with, ``locals()[...]``, ``vars()[...]``, ``exec``);
- B, bindings after the class statement (attribute, ``setattr`` with a
  literal, a constant, a loop's name);
- C, the ways the class is made (class statement, ``type()``,
  ``types.new_class``), a descriptor's ``__set_name__`` that sets the rule,
  and the code that reads the namespace by name (a class decorator, a base's
  ``__init_subclass__``, a metaclass wrapping the rule it finds as
  ``cls.__dict__.get(...)``, ``vars(cls)[...]``, ``ns.get(...)``);
- D, the base expression (name, dotted, a class-body import, subscript,
  probing call, conditional, starred, ``Generic[T]``, PEP 695, walrus);
- E, a subclass reaching the rule by name (``super()``, ``getattr`` with a
  literal in any quoting or a local or imported constant, ``attrgetter``,
  ``methodcaller``, ``__dict__``, ``vars``, ``getattr_static``);
- F, the rule's control flow (a ``finally`` that returns, breaks or
  continues; loops of a known count; writes through ``jax.tree.map``; a tuple
  in any spelling) and the kinds around it (half-ported rules, valid
  accumulator rules, a class switching on ``jax.__version_info__``).

Each program is rendered from one drawn model three times: as found (the
value-returning ``vjp_bwd`` of jax 0.8.0, the base ``VJPHiPrimitive``), and
as written for jax 0.10 and for 0.12 (``Namespace.references``: the same
picks replayed with the target's names), so ``namespaces.py --reference``
checks every stated gradient under the target's jax before the tool is
judged by it. The primitive is linear, ``sum(c_i * x_i)``; ``main`` states
its gradient as plain math over the factors the program applies
(``COEFS``, ``SCALE``).

Every choice goes through ``pick(options)``, as in ``program_trees``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from program_lookalikes import LOOK_ALIKES
from program_trees import Tree, block, tuple_of


@dataclass(frozen=True)
class Spell:
    """The names a rendering writes: the rule's, the base's; whether half-ports are finished."""

    rule: str
    base: str
    ported: bool


AS_FOUND = Spell("vjp_bwd", "VJPHiPrimitive", ported=False)


def spell_for(target: str) -> Spell:
    return Spell("vjp_bwd_retval", "HiPrim" if target.startswith("0.12") else "VJPHiPrimitive", ported=True)


@dataclass
class Namespace(Tree):
    """A drawn program: its files as found, and as written for each target."""

    references: dict[str, dict[str, str]] = field(default_factory=dict)
    python: str = "3.11"  # 3.12: PEP 695 syntax, which jax 0.10's interpreter cannot read


KINDS = ["value"] * 8 + ["half", "half", "accum", "switch"]
VALUE_BODIES = ["tuple", "tuple", "finally_return", "finally_break", "finally_continue", "loop_return"]
VALUE_BODIES += ["conditional", "named", "tuple_call", "concatenated", "generator"]
WRITES = ["direct", "range_loop", "zip_loop", "tree_map_lambda", "tree_util_def"]
# Bindings whose object is a plain function in the class's namespace (a wrapper or a subclass can call it).
PLAIN = ["A1:def", "A2:wraps", "A3:name", "A3:lambda", "A3:decorator_call", "A3:other_attr", "A3:conditional"]
PLAIN += ["A3:subscript", "A4:annotated", "A6:tuple_target", "A6:chained", "A6:list_target", "A6:starred"]
PLAIN += ["A7:walrus", "A8:import", "A8:for", "A8:with", "A8:match", "A13:if", "A13:try", "A13:for", "A13:with"]
PLAIN += ["A14:locals", "A14:vars", "A14:exec"]
DEFS = ["A1:def", "A2:wraps", "A13:if", "A13:try", "A13:for", "A13:with"]
UNBOUND = ["A2:staticmethod", "A3:staticmethod_call", "A3:partialmethod_kw"]  # no function to call with self
CALLABLES = [*UNBOUND, "A3:lambda", "A8:import"]
# Bound once the class exists: by a descriptor's __set_name__ (C7), or by a statement after the class (B).
AFTER = ["C7:set_name", "B1:attribute", "B2:setattr_literal", "B2:setattr_const", "B2:setattr_loop"]
BINDINGS = PLAIN + UNBOUND + AFTER
# The second family (``draw_namespace(..., LOOKED_UP)``, drawn apart so that a seed of the first draws
# what it always drew): the rule written into each instance's own namespace by an __init__ set after
# the class (B5), found through the instance's lookup (D: a __getattribute__), or on a base that is no
# primitive itself (D': a mixin).
LOOKUPS = ["D:getattribute", "D':mixin_assign", "D':mixin_annotated"]
LOOKED_UP = ["B5:dict_item", *LOOKUPS]
MAKERS = ["C1:class"] * 6 + ["C2:type", "C3:new_class"]
WRAPPERS = ["none"] * 6 + ["C5:decorator_dict_get", "C5:decorator_vars", "C6:init_subclass_dict_get"]
WRAPPERS += ["C6:init_subclass_vars", "C4:metaclass"]
# A plain name half the time, and a subclass reaching the rule by name half the time: each other form
# is then often drawn where no other unusual form hides it.
BASES = ["D1:name"] * 10 + ["D2:dotted", "D2:class_body_import", "D3:subscript", "D4:probing_call"]
BASES += ["D5:conditional", "D6:starred", "D8:generic", "D9:pep695", "D10:walrus"]
EXPR_BASES = ["D1:name"] * 4 + ["D2:dotted", "D3:subscript", "D4:probing_call", "D5:conditional"]  # type()/new_class
REACHES = ["none"] * 22 + ["E1:super", "E1:super_explicit", "E1:class_attr", "E1:mro", "E2:getattr_super"]
REACHES += ["E2:getattr_const", "E2:getattr_imported_const", "E2:getattr_default", "E2:attrgetter"]
REACHES += ["E2:methodcaller", "E2:hasattr_guard", "E2:getattr_static", "E3:dict_index", "E3:dict_get", "E3:vars"]
REACHES += ["E3:dict_iteration"]
REACHES += ["E4:concatenated", "E4:implicit_concat", "E4:raw", "E4:escaped", "E4:tuple_of_names", "E4:dict_value"]
SWITCHES = ["accum_or_value", "retval_or_value"]
FORMS = sorted(
    (
        {f"kind:{k}" for k in KINDS}
        | {f"F:{b}" for b in VALUE_BODIES}
        | {f"F:write_{w}" for w in WRITES}
        | {"F:written_and_returned", f"F:switch_{SWITCHES[0]}", f"F:switch_{SWITCHES[1]}"}
        | set(BINDINGS + MAKERS + BASES + REACHES)
        | set(WRAPPERS)
        | {"D7:metaclass", "look-alike:quantizer"}
    )
    - {"none"}
)

# What the second family draws: every form of the first but its bindings, makers, wrappers and the reaches
# through a class's own ``__dict__`` (``_reaches``), and its own.
LOOKED_UP_FORMS = sorted(
    {f for f in FORMS if not f.startswith(("A", "B", "C", "kind:", "F:write", "F:switch", "F:written", "E3"))}
    - set(WRAPPERS)
    - {"D7:metaclass"}
    | {"kind:value", "C1:class", *LOOKED_UP}
)

DROP = 100  # a cotangent the rule computes and Python drops: a migration that keeps it is wrong by 100x


@dataclass
class Model:
    """The primitive's module, in parts, as one spelling writes it."""

    spell: Spell
    coefs: list[int]
    forms: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)  # module code before the class
    decorators: list[str] = field(default_factory=list)
    bases: str = ""
    keywords: str = ""  # metaclass=...
    type_params: str = ""  # PEP 695
    mixins: str = ""  # bases before the D form's (D': a project mixin holding the rule)
    body: list[str] = field(default_factory=list)  # class-body statements besides the standard methods
    namespace: dict[str, str] = field(default_factory=dict)  # type()/new_class: name -> module-level value
    after: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # other modules of the package
    factors: list[tuple[float, str]] = field(default_factory=list)  # SCALE's factors and why
    python: str = "3.11"

    def need(self, line: str) -> None:
        if line not in self.imports:
            self.imports.append(line)

    @property
    def cts(self) -> list[str]:
        return [f"{c} * g" for c in self.coefs]

    def literal(self, quoting: str = "plain") -> str:
        """The rule's name as a string constant, in some quoting."""
        rest = self.spell.rule[len("vjp_") :]
        return {
            "plain": f'"{self.spell.rule}"',
            "concatenated": f'"vjp_" + "{rest}"',
            "implicit_concat": f'"vjp_" "{rest}"',
            "raw": f'r"{self.spell.rule}"',
            "escaped": f"'vjp\\x5f{rest}'",
        }[quoting]


def value_body(pick, m: Model, prelude: list[str] = ()) -> list[str]:
    """A value rule's lines: the cotangents returned in one of the F forms (self is never used)."""
    form = pick(VALUE_BODIES)
    m.forms.append(f"F:{form}")
    cts, drop = tuple_of(m.cts), tuple_of([f"{DROP} * g"] * len(m.coefs))
    finally_exit = ["for _ in range(1):", "    try:", f"        return {drop}", "    finally:"]
    lines = {
        "tuple": [f"return {cts}"],
        "finally_return": ["try:", f"    return {drop}", "finally:", f"    return {cts}"],
        "finally_break": [*finally_exit, "        break", f"return {cts}"],
        "finally_continue": [*finally_exit, "        continue", f"return {cts}"],
        "loop_return": ["for _ in range(1):", f"    return {cts}", f"return {drop}"],
        "conditional": [f"return {cts} if g is not None else {tuple_of([f'{ct} * 0' for ct in m.cts])}"],
        "named": [f"cts = {cts}", "return cts"],
        "tuple_call": [f"return tuple([{', '.join(m.cts)}])"],
        "concatenated": [f"return {cts} + ()"],
        "generator": ["return tuple(c * g for c in COEFS)"],
    }[form]
    return [*prelude, *lines]


def writes(form: str, m: Model, items: list[tuple[int, str]]) -> list[str]:
    """Accumulator writes of (input, cotangent) pairs in one of the F forms."""
    if not items:
        return []
    accs, cts = tuple_of([f"x{i}_acc" for i, _ in items]), tuple_of([ct for _, ct in items])
    if form.startswith("tree"):
        m.need("import jax")
    return {
        "direct": [f"x{i}_acc.accum({ct})" for i, ct in items],
        "range_loop": ["for _ in range(1):", *(f"    x{i}_acc.accum({ct})" for i, ct in items)],
        "zip_loop": [f"for acc, ct in zip({accs}, {cts}):", "    acc.accum(ct)"],
        "tree_map_lambda": [f"jax.tree.map(lambda q, w: q.accum(w), {accs}, {cts})"],
        "tree_util_def": ["def _add(q, w):", "    q.accum(w)", f"jax.tree_util.tree_map(_add, {accs}, {cts})"],
    }[form]


def accum_sig(m: Model) -> str:
    return ", ".join(["self", "res", "g", *(f"x{i}_acc" for i in range(len(m.coefs)))])


def half_rule(pick, m: Model) -> str:
    """Accumulators taken, some cotangents written, the rest (or all) still returned: as found, jax
    asserts the rule returns None; finished (a reference), each returned cotangent is written."""
    form, written, returned = pick(WRITES), [], []
    for i, ct in enumerate(m.cts):
        write = pick([True, False])
        if write:
            written.append((i, ct))
        keep = not write or pick([False, True])
        returned.append(ct if keep else "None")
        if write and keep:
            m.forms.append("F:written_and_returned")
    m.forms.append(f"F:write_{form}")
    lines = writes(form, m, written)
    if m.spell.ported:
        unwritten = [(i, ct) for (i, ct), r in zip(enumerate(m.cts), returned) if r != "None"]
        lines += writes("direct", m, [(i, ct) for i, ct in unwritten if (i, ct) not in written]) + ["return None"]
    else:
        lines.append(f"return {tuple_of(returned)}")
    return block(f"def vjp_bwd({accum_sig(m)}):", lines)


def accum_rule(pick, m: Model) -> str:
    form = pick(WRITES)
    m.forms.append(f"F:write_{form}")
    return block(f"def vjp_bwd({accum_sig(m)}):", [*writes(form, m, list(enumerate(m.cts))), "return None"])


def switch_rule(pick, m: Model) -> str:
    """Both forms, chosen by jax's version: correct unmigrated on every release."""
    how = pick(SWITCHES)
    m.forms.append(f"F:switch_{how}")
    m.need("import jax")
    old = block("def vjp_bwd(self, res, g):", [f"return {tuple_of(m.cts)}"])
    if how == "accum_or_value":
        new = block(f"def vjp_bwd({accum_sig(m)}):", [*writes("direct", m, list(enumerate(m.cts))), "return None"])
        head = "if jax.__version_info__ >= (0, 9):"
    else:
        new = block("def vjp_bwd_retval(self, res, g):", [f"return {tuple_of(m.cts)}"])
        head = "if jax.__version_info__ >= (0, 8, 1):"
    return block(head, [new]) + block("else:", [old])


PASSTHROUGH = '''def _passthrough(rule):
    """Forwards every call to the rule (a profiling hook in real code)."""
    @functools.wraps(rule)
    def wrapper(*args, **kwargs):
        return rule(*args, **kwargs)
    return wrapper
'''


def module_rule(m: Model, name: str, lines: list[str], sig: str = "self, res, g") -> None:
    m.before.append(block(f"def {name}({sig}):", lines))


def bind_def(pick, m: Model, how: str) -> None:
    """A ``def`` of the rule in the class body: bare, decorated, or inside a block (A1, A2, A13)."""
    r = m.spell.rule
    rule = block(f"def {r}(self, res, g):", value_body(pick, m))
    other_arm = block(f"def {r}(self, res, g):", [f"return {tuple_of(['0 * g'] * len(m.coefs))}"])
    m.body.append(
        {
            "A1:def": rule,
            "A2:wraps": "@_passthrough\n" + rule,
            "A13:if": block("if _FAST:", [rule]) + block("else:", [other_arm]),
            "A13:try": block("try:", [rule]) + block("except Exception:", ["raise"]),
            "A13:for": block("for _ in range(1):", [rule]),
            "A13:with": block("with contextlib.nullcontext():", [rule]),
        }[how]
    )
    needs = {"A2:wraps": ("import functools", PASSTHROUGH), "A13:if": (None, "_FAST = True\n")}
    needs["A13:with"] = ("import contextlib", None)
    line, before = needs.get(how, (None, None))
    if line:
        m.need(line)
    if before:
        m.before.append(before)


def bind_callable(pick, m: Model, how: str) -> None:
    """The rule bound to an object that is no plain function, or imported into the body (A2, A3, A8)."""
    r = m.spell.rule
    if how == "A2:staticmethod":
        m.body.append("@staticmethod\n" + block(f"def {r}(res, g):", value_body(pick, m)))
    elif how == "A3:lambda":
        m.forms.append("F:tuple")
        m.body.append(f"{r} = lambda self, res, g: {tuple_of(m.cts)}\n")
    elif how == "A3:partialmethod_kw":
        m.need("import functools")
        module_rule(m, "_bwd", value_body(pick, m, ["g = scale * g"]), "self, res, g, scale=1.0")
        m.factors.append((2.0, "partialmethod binds scale=2.0"))
        m.body.append(f"{r} = functools.partialmethod(_bwd, scale=2.0)\n")
    elif how == "A3:staticmethod_call":
        module_rule(m, "_bwd", value_body(pick, m), "res, g")
        m.body.append(f"{r} = staticmethod(_bwd)\n")
    else:
        head = f'"""The project\'s backward rules."""\n\nCOEFS = {tuple_of([str(c) for c in m.coefs])}\n\n\n'
        m.files["rules.py"] = head + block("def bwd(self, res, g):", value_body(pick, m))
        m.body.append(f"from .rules import bwd as {r}\n")


def bind_assigned(pick, m: Model, how: str) -> None:
    """A module function (or another class's) bound by one of the binding statements (A3-A8, A14)."""
    r = m.spell.rule
    if how == "A3:other_attr":
        m.before.append(block("class _Rules:", [block("def bwd(self, res, g):", value_body(pick, m))]))
    else:
        module_rule(m, "_bwd", value_body(pick, m))
    statement = {
        "A3:name": f"{r} = _bwd",
        "A3:decorator_call": f"{r} = _passthrough(_bwd)",
        "A3:other_attr": f"{r} = _Rules.bwd",
        "A3:conditional": f"{r} = _bwd if _FAST else _bwd_slow",
        "A3:subscript": f"{r} = _RULES[0]",
        "A4:annotated": f"{r}: typing.Callable = _bwd",
        "A6:tuple_target": f"_spare, {r} = _bwd, _bwd",
        "A6:chained": f"{r} = _alias = _bwd",
        "A6:list_target": f"[{r}] = [_bwd]",
        "A6:starred": f"{r}, *_rest = (_bwd,)",
        "A7:walrus": f"({r} := _bwd)",
        "A8:for": f"for {r} in (_bwd,):\n    pass",
        "A8:with": f"with contextlib.nullcontext(_bwd) as {r}:\n    pass",
        "A8:match": f"match _bwd:\n    case {r}:\n        pass",
        "A14:locals": f"locals()[{m.literal()}] = _bwd",
        "A14:vars": f"vars()[{m.literal()}] = _bwd",
        "A14:exec": f'exec("{r} = _bwd")',
    }[how]
    m.body.append(statement + "\n")
    drop = tuple_of([f"{DROP} * g"] * len(m.coefs))
    m.before += {
        "A3:decorator_call": [PASSTHROUGH],
        "A3:conditional": ["_FAST = True\n", block("def _bwd_slow(self, res, g):", [f"return {drop}"])],
        "A3:subscript": ["_RULES = (_bwd,)\n"],
    }.get(how, [])
    imports = {"A3:decorator_call": "import functools", "A4:annotated": "import typing", "A8:with": "import contextlib"}
    if how in imports:
        m.need(imports[how])


def bind_looked_up(pick, m: Model, how: str) -> None:
    """The rule found by the instance's lookup (D), or on a mixin the class derives from (D')."""
    module_rule(m, "_bwd", value_body(pick, m))
    r, lit = m.spell.rule, m.literal()
    if how == "D:getattribute":
        lines = [f"if name == {lit}:", "    return _bwd.__get__(self)", "return super().__getattribute__(name)"]
        m.body.append(block("def __getattribute__(self, name):", lines))
        return
    if how == "D':mixin_annotated":
        m.need("import typing")
    statement = f"{r}: typing.Callable = _bwd" if how == "D':mixin_annotated" else f"{r} = _bwd"
    m.before.append(block("class _RuleMixin:", [statement]))
    m.mixins = "_RuleMixin, "


def bind_in_body(pick, m: Model, how: str) -> None:
    """The rule enters the class body through one of the A forms."""
    if how in LOOKUPS:
        bind_looked_up(pick, m, how)
    elif how in DEFS:
        bind_def(pick, m, how)
    elif how in CALLABLES:
        bind_callable(pick, m, how)
    else:
        bind_assigned(pick, m, how)


SET_NAME = """class _Installs:
    \"\"\"A descriptor that sets the backward rule on the class it is named in.\"\"\"

    def __set_name__(self, owner, name):
        setattr(owner, {lit}, _bwd)
"""


def bind_after(pick, m: Model, how: str) -> None:
    """The rule is set on the class after its statement (B forms)."""
    module_rule(m, "_bwd", value_body(pick, m))
    r, lit = m.spell.rule, m.literal()
    if how == "B2:setattr_const":
        m.before.append(f"_RULE_NAME = {m.literal()}\n")
    if how == "C7:set_name":
        m.before.append(SET_NAME.format(lit=m.literal()))
        m.body.append("_install = _Installs()\n")
        return
    m.after.append(
        {
            "B5:dict_item": "_init = Lin.__init__\n\n\n"
            + block(
                "def _installing(self, *args):", ["_init(self, *args)", f"self.__dict__[{lit}] = _bwd.__get__(self)"]
            )
            + "\n\nLin.__init__ = _installing\n",
            "B1:attribute": f"Lin.{r} = _bwd\n",
            "B2:setattr_literal": f"setattr(Lin, {m.literal()}, _bwd)\n",
            "B2:setattr_const": "setattr(Lin, _RULE_NAME, _bwd)\n",
            "B2:setattr_loop": f"for _name, _rule in (({m.literal()}, _bwd),):\n    setattr(Lin, _name, _rule)\n",
        }[how]
    )


HALVING = '''def _halving(rule):
    """The rule, its cotangents halved (a clip, in real code)."""
    def wrapped(self, res, g):
        return tuple(0.5 * ct for ct in rule(self, res, g))
    return wrapped
'''


def wrap(m: Model, how: str) -> str | None:
    """Code that finds the rule in a class's namespace by name and wraps it (C4, C5, C6): the name of
    the project base it needs (C6), if any."""
    r, lit = m.spell.rule, m.literal()
    m.before.append(HALVING)
    m.factors.append((0.5, "the wrapper halves the rule it finds"))
    if how == "C5:decorator_dict_get":
        lines = [f"rule = cls.__dict__.get({lit})", "if rule is not None:", f"    setattr(cls, {lit}, _halving(rule))"]
        m.before.append(block("def _clipped(cls):", [*lines, "return cls"]))
        m.decorators.append("@_clipped")
    elif how == "C5:decorator_vars":
        m.before.append(block("def _clipped(cls):", [f"cls.{r} = _halving(vars(cls)[{lit}])", "return cls"]))
        m.decorators.append("@_clipped")
    elif how == "C4:metaclass":
        new = block(
            "def __new__(mcs, name, bases, ns, **kwargs):",
            [
                f"rule = ns.get({lit})",
                "if rule is not None:",
                f"    ns[{lit}] = _halving(rule)",
                "return super().__new__(mcs, name, bases, ns, **kwargs)",
            ],
        )
        m.before.append(block(f"class _Halving(type({m.spell.base})):", [new]))
        m.keywords = "metaclass=_Halving"
        m.forms.append("D7:metaclass")
    else:
        found = (
            [f"rule = cls.__dict__.get({lit})", "if rule is not None:", f"    cls.{r} = _halving(rule)"]
            if how == "C6:init_subclass_dict_get"
            else [f"if {lit} in vars(cls):", f"    cls.{r} = _halving(vars(cls)[{lit}])"]
        )
        return block("def __init_subclass__(cls, **kwargs):", ["super().__init_subclass__(**kwargs)", *found])
    return None


RESOLVE = '''def _resolve(*names):
    """The first of the names the installed jax exports: the base, whichever release."""
    for name in names:
        if hasattr(hijax, name):
            return getattr(hijax, name)
    raise ImportError(f"jax.experimental.hijax has none of {names}")
'''


def base_expr(m: Model, form: str, name: str) -> str:
    """``name`` (the jax base, or a project base) written as a base expression of one D form."""
    j = m.spell.base
    if form == "D2:dotted":
        m.need("import jax.experimental.hijax as hjx")
        return f"hjx.{j}"
    if form == "D2:class_body_import":
        m.before.append(block("class _NS:", [f"from jax.experimental.hijax import {j}"]))
        return f"_NS.{j}"
    if form == "D4:probing_call":
        m.need("from jax.experimental import hijax")
        m.before.append(RESOLVE)
        return '_resolve("HiPrim", "VJPHiPrimitive")'
    if form in ("D3:subscript", "D6:starred"):
        m.before.append(f"_BASES = ({name},)\n")
        return "_BASES[0]" if form == "D3:subscript" else "*_BASES"
    if form == "D8:generic":
        m.need("import typing")
        m.before.append('_T = typing.TypeVar("_T")\n')
        return f"{name}, typing.Generic[_T]"
    if form == "D10:walrus":
        return f"(_B := {name})"
    return name


def class_text(name: str, bases: str, body: list[str], head: tuple[str, ...] = ()) -> str:
    return "".join(f"{line}\n" for line in head) + block(f"class {name}({bases}):", body or ["pass"])


def bases(pick, m: Model, init_subclass: str | None, expr_only: bool) -> str:
    """Lin's base list: the D form applies to the first class statement below the jax base."""
    form = pick(EXPR_BASES if expr_only else BASES)
    m.forms.append(form)
    project = "_Clipping" if init_subclass else ("_Base" if form == "D5:conditional" else None)
    tp = "[T]" if form == "D9:pep695" else ""
    if form == "D9:pep695":
        m.python = "3.12"
    if form == "D5:conditional":
        m.before.append("_FLAG = True\n")
        m.before.append(class_text(project, m.spell.base, [init_subclass] if init_subclass else []))
        m.before.append(class_text("_Other", m.spell.base, []))
        return f"{project} if _FLAG else _Other"
    if project is None:
        m.type_params = tp
        return base_expr(m, form, m.spell.base)
    m.before.append(class_text(f"{project}{tp}", base_expr(m, form, m.spell.base), [init_subclass]))
    return project


STANDARD = """def __init__(self, aval):
    self.in_avals = (aval,) * {n}
    self.out_aval = aval
    self.params = {{}}
    super({sup}).__init__()

def expand(self, {params}):
    return {out}

def vjp_fwd(self, nzs_in, {params}):
    return self.expand({params}), None
"""


def standard(m: Model, sup: str = "") -> str:
    params = ", ".join(f"x{i}" for i in range(len(m.coefs)))
    out = " + ".join(f"{c} * x{i}" for i, c in enumerate(m.coefs))
    return STANDARD.format(n=len(m.coefs), params=params, out=out, sup=sup)


def made_by_call(m: Model, maker: str, base_list: str) -> str:
    """``Lin`` made by ``type()`` or ``types.new_class``: its methods are module functions."""
    funcs = standard(m, "Lin, self").replace("def __init__", "def _init").replace("def expand", "def _expand")
    m.before.append(funcs.replace("def vjp_fwd", "def _fwd"))
    entries = ['"__init__": _init', '"expand": _expand', '"vjp_fwd": _fwd']
    entries += [f"{key}: {value}" for key, value in m.namespace.items()]
    ns = "{" + ", ".join(entries) + "}"
    if maker == "C2:type":
        return f'Lin = type("Lin", ({base_list},), {ns})\n'
    m.need("import types")
    return f'Lin = types.new_class("Lin", ({base_list},), {{}}, lambda ns: ns.update({ns}))\n'


REACH = {
    "E1:super": "super().{r}(res, g)",
    "E1:super_explicit": "super(Sub, self).{r}(res, g)",
    "E1:class_attr": "Lin.{r}(self, res, g)",
    "E1:mro": "type(self).__mro__[1].{r}(self, res, g)",
    "E2:getattr_super": "getattr(super(), {lit})(res, g)",
    "E2:getattr_const": "getattr(Lin, RULE_NAME)(self, res, g)",
    "E2:getattr_imported_const": "getattr(Lin, RULE_NAME)(self, res, g)",
    "E2:getattr_default": "getattr(Lin, {lit}, None)(self, res, g)",
    "E2:attrgetter": "operator.attrgetter(RULE_NAME)(Lin)(self, res, g)",
    "E2:methodcaller": "operator.methodcaller({lit}, res, g)(super())",
    "E2:hasattr_guard": "(getattr(Lin, RULE_NAME) if hasattr(Lin, RULE_NAME) else None)(self, res, g)",
    "E2:getattr_static": "inspect.getattr_static(Lin, {lit})(self, res, g)",
    "E3:dict_index": "Lin.__dict__[{lit}](self, res, g)",
    "E3:dict_get": "Lin.__dict__.get({lit})(self, res, g)",
    "E3:vars": "vars(Lin)[{lit}](self, res, g)",
    "E3:dict_iteration": "next(v for k, v in vars(Lin).items() if k == {lit})(self, res, g)",
    "E4:concatenated": "getattr(Lin, {quoted})(self, res, g)",
    "E4:implicit_concat": "getattr(Lin, {quoted})(self, res, g)",
    "E4:raw": "getattr(Lin, {quoted})(self, res, g)",
    "E4:escaped": "getattr(Lin, {quoted})(self, res, g)",
    "E4:tuple_of_names": "getattr(Lin, _NAMES[0])(self, res, g)",
    "E4:dict_value": 'getattr(Lin, _RULES["backward"])(self, res, g)',
}


def subclass(m: Model, how: str, rewrapped: bool) -> str:
    """``Sub(Lin)``, in its own module, reaching Lin's rule by name (E forms) and doubling it."""
    lit, quoting = m.literal(), how.split(":")[1]
    call = REACH[how].format(r=m.spell.rule, lit=lit, quoted=m.literal(quoting) if "{quoted}" in REACH[how] else "")
    head = ["from .prims import Lin"]
    consts = {
        "E4:tuple_of_names": f'_NAMES = ({lit}, "vjp_fwd")',
        "E4:dict_value": f'_RULES = {{"backward": {lit}}}',
    }
    if "RULE_NAME" in call:
        consts[how] = f"RULE_NAME = {lit}"
    if how == "E2:getattr_imported_const":
        m.files["names.py"] = f'"""Names the project shares."""\n\n{consts.pop(how)}\n'
        head.append("from .names import RULE_NAME")
    for module in ("operator", "inspect"):
        if f"{module}." in call:
            head.insert(0, f"import {module}\n")
    rule = block(f"def {m.spell.rule}(self, res, g):", [f"cts = {call}", "return tuple(2 * ct for ct in cts)"])
    m.factors.append((2.0, "Sub doubles its base's cotangents"))
    if rewrapped:
        m.factors.append((0.5, "the wrapper halves Sub's rule too"))
    consts_text = "".join(f"{c}\n" for c in consts.values())
    consts_text += "\n" if consts_text else ""
    return "\n".join(head) + "\n\n" + consts_text + "\n" + class_text("Sub", "Lin", [rule])


def _reaches(how: str) -> list[str]:
    """How a subclass may reach a rule bound so: a class's attribute (``getattr(Lin, ...)``) is no
    instance's (B5, D: none), and a class's own ``__dict__`` holds no mixin's rule (D': no E3)."""
    if how in ("B5:dict_item", "D:getattribute"):
        return ["none"]
    return [r for r in REACHES if not r.startswith("E3")] if how.startswith("D'") else REACHES


def value_rule(pick, m: Model, family: list[str] | None = None) -> tuple[str, str | None, str]:
    """A value rule bound in one of the A/B forms or a made class's namespace (``family``: in one
    of its forms, in a class statement); the class's maker, the project base a wrapper needs (its
    __init_subclass__), and how a subclass reaches the rule."""
    maker = pick(MAKERS) if family is None else "C1:class"
    m.forms.append(maker)
    how = pick(family or (BINDINGS if maker == "C1:class" else ["namespace", "namespace", *AFTER[1:]]))
    if how != "namespace":
        m.forms.append(how)
    if how in AFTER or how == "B5:dict_item":
        bind_after(pick, m, how)
    elif how == "namespace":
        module_rule(m, "_bwd", value_body(pick, m))
        m.namespace[m.literal()] = "_bwd"
    else:
        bind_in_body(pick, m, how)
    wrapper = pick(WRAPPERS) if maker == "C1:class" and how in PLAIN else "none"
    init_subclass = None
    if wrapper != "none":
        m.forms.append(wrapper)
        init_subclass = wrap(m, wrapper)
    reach = pick(_reaches(how)) if how not in UNBOUND else "none"
    rewrapped = wrapper in ("C4:metaclass", "C6:init_subclass_dict_get", "C6:init_subclass_vars")
    if reach != "none":
        m.files["sub.py"] = subclass(m, reach, rewrapped)
    return maker, init_subclass, reach


def prims_module(m: Model, maker: str, base_list: str) -> str:
    if maker == "C1:class":
        keywords = f", {m.keywords}" if m.keywords else ""
        klass = class_text(
            f"Lin{m.type_params}", m.mixins + base_list + keywords, [standard(m), *m.body], tuple(m.decorators)
        )
    else:
        klass = made_by_call(m, maker, base_list)  # first: it may need an import
    froms = sorted(line for line in m.imports if line.startswith("from "))
    imports = [*sorted(line for line in m.imports if line.startswith("import ")), ""]
    imports += [f"from jax.experimental.hijax import {m.spell.base}", *froms, "", ""]
    parts = [f"COEFS = {tuple_of([str(c) for c in m.coefs])}\n", *m.before, klass, *m.after]
    return "\n".join(imports).lstrip("\n") + "\n\n".join(parts)


MAIN = '''"""The program: the gradient of a linear primitive, stated as plain math."""

import jax
import jax.numpy as jnp

from {pkg}.{module} import {cls}

COEFS = {coefs}
SCALE = {scale}  # {why}
ARGS = (jnp.array([1.0, 2.0, 3.0]),) * {n}
ARGNUMS = tuple(range({n}))
EXPECTED = [[SCALE * c] * 3 for c in COEFS]
VALUE = 6.0 * sum(COEFS)
BATCHED = False


def f({params}):
    return jnp.sum({cls}(jax.typeof(x0))({params}))


def peek({params}):
    """f's value; a second result is dropped, which jit prunes (jax 0.12 calls the primitive's dce)."""
    _dropped = {cls}(jax.typeof(x0))({params})
    return f({params})
'''


def main_module(pkg: str, m: Model, reach: str) -> str:
    n = len(m.coefs)
    return MAIN.format(
        pkg=pkg,
        module="prims" if reach == "none" else "sub",
        cls="Lin" if reach == "none" else "Sub",
        coefs=tuple_of([str(c) for c in m.coefs]),
        scale=" * ".join(["1.0", *(str(f) for f, _ in m.factors)]),
        why="; ".join(why for _, why in m.factors) or "the rule's cotangents as written",
        n=n,
        params=", ".join(f"x{i}" for i in range(n)),
    )


def render(pick, pkg: str, spell: Spell, family: list[str] | None = None) -> Namespace:
    """One program as ``spell`` writes it; every choice through ``pick`` (``family``: a value rule
    bound in one of its forms)."""
    n = pick([1, 2])
    m = Model(spell, [pick([1, 2, 3]) for _ in range(n)])
    kind = pick(KINDS) if family is None else "value"
    m.forms.append(f"kind:{kind}")
    maker, init_subclass, reach = "C1:class", None, "none"
    if kind == "value":
        maker, init_subclass, reach = value_rule(pick, m, family)
    else:
        m.body.append({"half": half_rule, "accum": accum_rule, "switch": switch_rule}[kind](pick, m))
    base_list = bases(pick, m, init_subclass, expr_only=maker != "C1:class")
    files = {f"{pkg}/__init__.py": "", f"{pkg}/prims.py": prims_module(m, maker, base_list)}
    files |= {f"{pkg}/{name}": text for name, text in m.files.items()}
    if reach != "none":
        m.forms.append(reach)
    files[f"{pkg}/main.py"] = main_module(pkg, m, reach)
    tree = Namespace(files, m.forms, python=m.python)
    if pick([False, False, False, False, True]):
        tree.files |= {f"{pkg}/other/__init__.py": "", f"{pkg}/other/quantizer.py": LOOK_ALIKES["quantizer"]}
        tree.fixed.append(f"{pkg}/other/quantizer.py")
        tree.forms.append("look-alike:quantizer")
    return tree


def replay(choices: list[int]):
    """A pick that makes the recorded choices again, in order."""
    replayed = iter(choices)
    return lambda options: options[next(replayed)]


def draw_namespace(pick, pkg: str, family: list[str] | None = None) -> Namespace:
    """One program as found, with its references for 0.10 and 0.12: the same picks, replayed
    (``family``: ``LOOKED_UP``, the second family's forms)."""
    choices: list[int] = []

    def record(options):
        choice = pick(options)
        choices.append(options.index(choice))
        return choice

    tree = render(record, pkg, AS_FOUND, family)
    for target in ("0.10", "0.12"):
        tree.references[target] = render(replay(choices), pkg, spell_for(target), family).files
    return tree
