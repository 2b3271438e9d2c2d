"""Does a file need libcst? Decided from ``ast``, ten times faster.

A file whose classes give no selected rule anything to rewrite or report
keeps its text, and its report is its count of primitives: it is never
parsed with libcst. Each test below is a superset of what its rule acts on
(a wrong "nothing to do" would be a silent miss): whatever is unsure, a rule
this module does not know included, sends the file to libcst. A test runs
every golden case both ways.
"""

from __future__ import annotations

import ast

from ..analysis.ast_summary import dotted_name, own_returns, parse_ast, returns_values, summarize_ast
from ..analysis.chains import HIJAX_MODULES
from ..analysis.scopes import CLASSIC, PRIMITIVE_KINDS, ClassInfo, Kind, Scope
from ..analysis.spelling import respelt
from ..core.model import FileReport, Options
from ..core.stmts import statements
from ..core.versions import ADDED_NAMES, added_in
from ..sources.files import covering
from ..tree.calls import may_use

_TRY_STAR = (ast.TryStar,) if hasattr(ast, "TryStar") else ()

# The registry's (release, words, kinds) of each rule, without importing the
# rules (and libcst); a test keeps the two in step.
_DERIVED = ("linearize_from_jvp", "apply_derived_linearization", "vjp_fwd_from_jvp", "transpose_jvp",
            "vjp_fwd_from_lin", "transpose_linearized")
RULES = {
    "HJX001": ((0, 8, 1), ("vjp_bwd",), PRIMITIVE_KINDS | {Kind.EXTERNAL, Kind.NONE}),
    "HJX002": ((0, 9, 0), ("vjp_fwd",), PRIMITIVE_KINDS),
    "HJX003": ((0, 11, 2), ("VJPHiPrimitive",), None),
    "HJX004": ((0, 11, 2), ("vjp_bwd_retval",), PRIMITIVE_KINDS),
    "HJX005": ((0, 11, 1), ("vjp_bwd_retval",), PRIMITIVE_KINDS),
    "HJX006": ((0, 8, 1), ("NewstyleHiPrimitive",), None),
    "HJX007": ((0, 11, 1), _DERIVED, PRIMITIVE_KINDS),
    "HJX008": ((0, 11, 2), (), frozenset({Kind.OLD})),
    "HJX009": ((0, 8, 1), ("HiPrim",), PRIMITIVE_KINDS),
    "HJX010": ((0, 12, 0), ("def dce",), PRIMITIVE_KINDS),
    "HJX011": ((0, 12, 0), ("batch_dim_rule", "VmapOf"), PRIMITIVE_KINDS),
    "HJX012": ((0, 12, 0), ("def remat",), PRIMITIVE_KINDS),
    "HJX013": ((0, 11, 1), ("QDD", "MutableHiType"), None),
    "HJX014": ((0, 8, 1), ("__version_",), PRIMITIVE_KINDS | {Kind.OLD}),
    "HJX015": ((0, 11, 1), _DERIVED, None),
}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_PAIRED = frozenset({"lin", "linearized", "vjp_fwd", "vjp_bwd_retval"})  # HJX007's attributes


def untouched(code: str, path: str, options: Options, project, module: str = "") -> FileReport | None:
    """The report of a file no rule changes or reports on; None: migrate it."""
    classes = _classes(code, path, options, project, module, install=True)
    if classes is None or _acting(code, *classes, options, project) != set():
        return None
    if respelt(code) is not None:
        return None  # a name Python reads otherwise: the migration refuses the file
    report = FileReport(path)
    report.primitives = sum(kind.is_primitive for _, kind, _ in classes[1])
    return report


def acting_rules(code: str, path: str, options: Options, project, module: str = "") -> set[str] | None:
    """The codes of the rules that may change or report something in
    ``code`` (a superset); None: any may. For a text being rewritten, whose
    summary the engine keeps in the project."""
    classes = _classes(code, path, options, project, module, install=False)
    return None if classes is None else _acting(code, *classes, options, project)


def _classes(code: str, path: str, options: Options, project, module: str, install: bool):
    """(tree, [(class, kind, info)]) of ``code``; None where ``ast`` cannot decide."""
    if options.classes is not None:
        return None
    try:
        tree = parse_ast(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # newer syntax than this Python's, or broken: libcst decides, and says why
    summary, nodes = summarize_ast(tree, module, path.endswith("__init__.py"))
    if module and install:
        project.add_summary(summary, code)
    kinds = [project.class_kind(info) for info in summary.classes]
    return tree, list(zip(nodes, kinds, summary.classes)), summary.scope


def _selected(options: Options) -> list[tuple[str, tuple, frozenset | None]]:
    """(code, words, kinds) of each rule the options select."""
    if options.only or options.skip:  # names and prefixes: the registry knows them
        from ..rules import registry

        return [(r.code, r.needs, r.kinds) for r in registry.select(options.target, options.only, options.skip)]
    return [(code, needs, kinds) for code, (since, needs, kinds) in RULES.items() if since <= options.target]


def candidate_words(options: Options) -> frozenset[bytes]:
    """The words a file must name for a selected rule to act on it (a rule
    without words: its kinds' names), and ``HiPrim`` always: the engine's own
    checks of a base or an import newer than the target belong to no rule."""
    words = [*covering("HiPrim")]
    # and the names newer than the target: the engine refuses code that imports one (newer_imports)
    words += [found for name, since in ADDED_NAMES.items() if since > options.target for found in covering(name)]
    for _, needs, kinds in _selected(options):
        words += [found for word in needs or {kind.value for kind in kinds} for found in covering(word)]
    return frozenset(words)


def _acting(code: str, tree: ast.Module, classes: list[tuple[ast.ClassDef, Kind, ClassInfo]], scope: Scope,
            options: Options, project) -> set[str] | None:
    present = {kind for _, kind, _ in classes}
    if options.target < (0, 11, 2) and Kind.HIPRIM in present:
        return None  # an error, with its line: the migration says it
    if _imports_newer(tree, code, options.target):
        return None  # an import newer than the target: an error too
    if _set_aside(code, tree, classes):
        return None
    acting = set()
    for rule, needs, kinds in _selected(options):
        if needs and not any(word in code for word in needs):
            continue
        if kinds is None:  # module-wide renames
            if options.module_wide() and _MODULE_TESTS.get(rule, _anywhere)(tree):
                acting.add(rule)
            continue
        test = _TESTS.get(rule, _anything)
        if any(kind in kinds and test(node, kind) for node, kind, _ in classes):
            acting.add(rule)
    return acting | _family_acting(code, tree, classes, scope, options, project, acting)


def _set_aside(code: str, tree: ast.Module, classes: list[tuple[ast.ClassDef, Kind, ClassInfo]]) -> bool:
    """Classes a note may be made on: fixtures inside ``raises`` blocks, bases
    picked by a call when the code runs."""
    if "aises" in code and _in_raises_blocks(tree) & {node for node, kind, _ in classes if kind is not Kind.NONE}:
        return True
    if "HiPrim" not in code:
        return False
    heads = {(dotted_name(base) or "").split(".")[0] for node, _, _ in classes for base in node.bases}
    return any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in heads for t in node.targets)
               and any(isinstance(sub, ast.Call) for sub in ast.walk(node.value)) for node in statements(tree))


def _imports_newer(tree: ast.Module, code: str, target) -> bool:
    """As ``newer_imports.check_imports``: a name newer than ``target`` imported
    from jax's hijax modules, outside ``try`` and ``if`` (version switches)."""
    newer = {name for name, since in ADDED_NAMES.items() if since > target and name in code}
    if not newer:
        return False
    return any(isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module in HIJAX_MODULES
               and any(alias.name in newer and added_in(alias.name, stmt.module) > target for alias in stmt.names)
               for stmt in statements(tree, skip=(ast.If, ast.Try, *_TRY_STAR)))


def _in_raises_blocks(tree: ast.Module) -> set[ast.ClassDef]:
    """Classes in ``raises`` blocks, and every class of a function that has one
    (it may be used only inside them)."""
    found = set()
    for node in statements(tree):  # functions and blocks are statements: expressions hold none
        if isinstance(node, _FUNCTIONS) and any(_is_raises_block(sub) for sub in statements(node)):
            found |= {sub for sub in statements(node) if isinstance(sub, ast.ClassDef)}
        elif _is_raises_block(node):
            found |= {sub for sub in statements(node) if isinstance(sub, ast.ClassDef)}
    return found


def _is_raises_block(node: ast.AST) -> bool:
    return isinstance(node, (ast.With, ast.AsyncWith)) and any(
        "aises" in (_last_name(item.context_expr) or "") for item in node.items)


def _last_name(expr: ast.expr) -> str | None:
    func = expr.func if isinstance(expr, ast.Call) else expr
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


# -- what each rule acts on, class by class (a superset)
def _methods(node: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {stmt.name: stmt for stmt in node.body if isinstance(stmt, _FUNCTIONS)}


def _assigned(node: ast.ClassDef) -> set[str]:
    names = set()
    for stmt in node.body:
        targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else getattr(stmt, "targets", ())
        for target in targets:
            names |= {sub.id if isinstance(sub, ast.Name) else sub.attr
                      for sub in ast.walk(target) if isinstance(sub, (ast.Name, ast.Attribute))}
    return names


def _in_blocks(node: ast.ClassDef) -> set[str]:
    """As ``shape.conditional_defs``: methods defined inside a block of the body."""
    blocks = [stmt for stmt in node.body if not isinstance(stmt, (*_FUNCTIONS, ast.ClassDef))]
    return {sub.name for stmt in blocks for sub in ast.walk(stmt) if isinstance(sub, _FUNCTIONS)}


def _single_targets(node: ast.ClassDef) -> set[str]:
    """``name = value`` in the class body, one name alone."""
    return {stmt.targets[0].id for stmt in node.body
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)}


def _has_sres(node: ast.ClassDef) -> bool:
    """As ``shape.has_sres``: ``vjp_fwd`` returns a tuple of four."""
    fwd = _methods(node).get("vjp_fwd")
    return fwd is not None and any(isinstance(ret.value, ast.Tuple) and len(ret.value.elts) == 4
                                   for ret in own_returns(fwd))


def _positional(func: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*func.args.posonlyargs, *func.args.args)]


def _lacks_nzs_in(node: ast.ClassDef, kind: Kind) -> bool:
    """As ``fwd_nzs_in.lacks_nzs_in``, True or None (a warning): the signature
    against the inputs' count where it is known, else the first name."""
    methods = _methods(node)
    fwd = methods.get("vjp_fwd")
    if fwd is None:
        return False
    skip = 0 if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fwd.decorator_list) else 1
    names = _positional(fwd)[skip:]
    least = len(_positional(fwd)) - len(fwd.args.defaults) - skip
    count = _input_count(methods)
    if count is None or fwd.args.vararg is not None:
        return not names or "nz" not in names[0].lower()
    takes = [least <= n <= len(names) for n in (count, count + 1)]
    if takes[0] != takes[1]:
        return takes[0]
    return not any(takes) or not names or "nz" not in names[0].lower()


def _input_count(methods: dict[str, ast.FunctionDef]) -> int | None:
    """As ``shape.class_shape``'s: the first ``self.in_avals = (...)``/``[...]``
    in ``__init__``, else ``expand``'s required parameters."""
    init, expand = methods.get("__init__"), methods.get("expand")
    avals = sorted((n for n in ast.walk(init) if isinstance(n, ast.Assign) and len(n.targets) == 1
                    and _is_self_in_avals(n.targets[0]) and isinstance(n.value, (ast.Tuple, ast.List))),
                   key=lambda n: (n.lineno, n.col_offset)) if init is not None else []
    if avals:
        return len(avals[0].value.elts)
    if expand is not None and expand.args.vararg is None:
        return len(_positional(expand)) - len(expand.args.defaults) - 1
    return None


def _is_self_in_avals(target: ast.expr) -> bool:
    return (isinstance(target, ast.Attribute) and target.attr == "in_avals"
            and isinstance(target.value, ast.Name) and target.value.id == "self")


_TESTS = {
    "HJX001": lambda node, kind: (kind is not Kind.NONE and (returns_values(_methods(node).get("vjp_bwd"))
                                                             or "vjp_bwd" in _assigned(node) | _in_blocks(node))),
    "HJX002": _lacks_nzs_in,
    "HJX004": lambda node, kind: "vjp_bwd_retval_logs" in _assigned(node),
    "HJX005": lambda node, kind: _has_sres(node) and returns_values(_methods(node).get("vjp_bwd_retval")),
    "HJX007": lambda node, kind: bool(_single_targets(node) & _PAIRED),
    "HJX009": lambda node, kind: _init_passes_arguments(_methods(node).get("__init__")),
    "HJX010": lambda node, kind: _old_dce(_methods(node).get("dce")),
    "HJX012": lambda node, kind: _remat_sizes(_methods(node).get("remat")) not in (None, {3}),
}


def _old_dce(func) -> bool:
    """As ``dce_live_ins._old_signature``: exactly ``(self, used_outs)``."""
    return (func is not None and len(_positional(func)) == 2 and not func.args.defaults
            and func.args.vararg is None)


def _remat_sizes(func) -> set[int | None] | None:
    """As ``remat_override._sizes``; None without ``remat``."""
    if func is None:
        return None
    return {len(ret.value.elts) if isinstance(ret.value, ast.Tuple) else None for ret in own_returns(func)}


def _init_passes_arguments(init) -> bool:
    """``__init__`` calls some ``__init__`` with arguments (jax 0.8.0's constructor)."""
    return init is not None and any(
        isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"
        and (len(call.args) > (0 if isinstance(call.func.value, ast.Call) else 1) or call.keywords)
        for call in ast.walk(init))


def _anything(node: ast.ClassDef, kind: Kind) -> bool:
    return True


def _anywhere(tree: ast.Module) -> bool:
    return True


_REMOVED_HELPERS = frozenset(_DERIVED) - {"linearize_from_jvp"}  # 0.11.1 keeps that one, as a pair


def _names_a_removed_helper(tree: ast.Module) -> bool:
    """HJX015's superset: a name, an attribute or an imported name that is one
    of the helpers 0.11.1 removed (an alias is imported by its name), or
    ``linearize_from_jvp`` (by any name it is imported as) assigned to ``lin``
    alone, where since 0.11.1 it is a pair. jax 0.12's own ``lin, linearized
    = linearize_from_jvp`` and ``def _transpose_jvp`` are none of these."""
    linearize = {"linearize_from_jvp"} | {alias.asname for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                                          for alias in node.names if alias.name == "linearize_from_jvp" and alias.asname}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in _REMOVED_HELPERS \
                or isinstance(node, ast.Attribute) and node.attr in _REMOVED_HELPERS \
                or isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in _REMOVED_HELPERS:
            return True
        if isinstance(node, ast.Assign) and (dotted_name(node.value) or "").rsplit(".", 1)[-1] in linearize and any(
                isinstance(t, ast.Name) and t.id == "lin" or isinstance(t, ast.Attribute) and t.attr == "lin"
                for t in node.targets):
            return True
    return False


_MODULE_TESTS = {"HJX015": _names_a_removed_helper}  # the module-wide rules' (the others: any file naming their words)


# -- what a rule acts on through a class family (bases and subclasses in other files)
def _family_acting(code: str, tree: ast.Module, classes: list[tuple[ast.ClassDef, Kind, ClassInfo]],
                   scope: Scope, options: Options, project, known: set[str]) -> set[str]:
    """Rules acting through a family, besides those ``known`` already."""
    selected, acting = {rule for rule, _, _ in _selected(options)} - known, set()
    if "HJX001" in selected and "vjp_bwd" in code:
        from ..analysis.families import Classes

        here = Classes(info for _, _, info in classes)  # who inherits from whom, worked out once
        if any(kind is Kind.NONE and _feeds_primitives(info, here, project) for _, kind, info in classes):
            acting.add("HJX001")  # a mixin's value rule, renamed where it is defined
        elif may_use(code, "vjp_bwd") and _calls_classic_rule(tree, classes, scope, project):
            acting.add("HJX001")  # a call follows a rule renamed in another file
    if "HJX004" in selected and "vjp_bwd_retval" in code:
        from ..analysis.families import defining, is_method

        setters = [defining(project, info, "vjp_bwd_retval_logs") if kind.is_primitive and "vjp_bwd_retval"
                   in _methods(node) else None for node, kind, info in classes]
        if any(setter is not None and not is_method(setter[1]) for setter in setters):
            acting.add("HJX004")
    return acting


def _feeds_primitives(info: ClassInfo, here: list[ClassInfo], project) -> bool:
    from ..analysis.families import descendants, form

    return form(info) == CLASSIC and any(project.class_kind(sub).is_primitive
                                         for sub in descendants(project, info, here))


def _calls_classic_rule(tree: ast.Module, classes: list[tuple[ast.ClassDef, Kind, ClassInfo]], scope: Scope,
                        project) -> bool:
    """A ``.vjp_bwd`` access in a class whose family defines it in the classic form
    (or outside any class, ``Cls.vjp_bwd`` naming one)."""
    from ..analysis.families import ancestors, first_definer, form

    accesses = {id(sub): sub for sub in ast.walk(tree) if isinstance(sub, ast.Attribute) and sub.attr == "vjp_bwd"}
    inside = set()
    for node, _, info in classes:  # each class walked once
        mine = accesses.keys() & {id(sub) for sub in ast.walk(node)}
        inside |= mine
        if mine:
            definer = first_definer([info, *ancestors(project, info)], "vjp_bwd")
            if definer is not None and form(definer) == CLASSIC:
                return True
    return any(_names_classic_class(access, scope, project) for key, access in accesses.items() if key not in inside)


def _names_classic_class(access: ast.Attribute, scope: Scope, project) -> bool:
    """As ``plans._resolve`` outside any class: ``Cls.vjp_bwd`` for the one
    class of the tree ``Cls`` names in the module, whose family defines it in
    the classic form (an access on any other object is another protocol)."""
    from ..analysis.families import ancestors, first_definer, form

    if not isinstance(access.value, ast.Name):
        return False
    found = project.classes_of_name(scope, access.value.id)
    if len(found) != 1:
        return False
    definer = first_definer([found[0], *ancestors(project, found[0])], "vjp_bwd")
    return definer is not None and form(definer) == CLASSIC
