"""A rule bound rather than defined (``vjp_bwd = f``, ``partialmethod(f, ...)``, a
lambda, a ``type(...)`` member): the function it names, and that function's form.

Plain functions of the module's tree: the family and factory planners both ask;
``imported_rule`` reads the function ``from m import f as vjp_bwd`` binds in ``m``'s file (``ast``'s).
"""

from __future__ import annotations

import ast
import copy

import libcst as cst

from ...analysis.ast_summary import parse_ast, rule_form
from ...analysis.bridge import Bridge
from ...analysis.class_body import FUNCTIONS
from ...analysis.function_kinds import GENERATOR_LAMBDA, not_run
from ...analysis.nodes import findall, is_name, sole_target
from ...analysis.scopes import ClassInfo
from ...analysis.summary import CLASSIC
from .targets import bound_once, module_bindings


def function_named(module: cst.Module, name: str, cls: cst.ClassDef | None) -> cst.FunctionDef | None:
    """The function a class body's binding names: one of the body's own, or the module's."""
    for body in ([cls.body.body] if cls is not None else []) + [module.body]:
        funcs = [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        if funcs:
            return funcs[-1]
    return None


def imported_rule(project, info: ClassInfo | None, name: str = "vjp_bwd") -> tuple[ast.FunctionDef | None, str]:
    """The function ``from m import f as vjp_bwd`` in ``info``'s body binds, read from ``ast``:
    ``f`` where ``m`` is a module of the tree whose file binds ``f`` once, by a plain ``def`` (no
    decorator, its call runs its body: ``function_kinds``); else None, and why not."""
    bindings = info.body.bindings.get(name, []) if info is not None and info.body is not None else []
    if len(bindings) != 1 or bindings[0][0] != "import" or len(bindings[0]) != 2:
        return None, "the body binds it otherwise too"
    module, _, attr = bindings[0][1].rpartition(".")
    if not module:
        return None, "it names no module"
    project.answers.touched.add(module)  # a cached result rests on that file, found or not
    path = project.find(module)
    data = project.reads.read(path) if path is not None else None
    if data is None:
        return None, f"`{module}` is no module of the tree"
    text = data.decode("utf-8", "replace")
    try:
        tree = parse_ast(text, keep=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # syntax ``ast`` does not read
        tree = None
    funcs = [s for s in tree.body if isinstance(s, FUNCTIONS) and s.name == attr] if tree is not None else []
    func = funcs[-1] if funcs and bound_once(text, attr) else None
    if func is None or func.decorator_list or not_run(func) is not None:
        return None, f"`{attr}` is no plain function `{module}` binds once, by its `def`"
    return func, ""


def bound_function(
    module: cst.Module, value: cst.BaseExpression, cls: cst.ClassDef | None = None
) -> tuple[cst.FunctionDef | None, int]:
    """The function a body binding names (``cls``: one of its body's own first, then the
    module's), and how many positional parameters after ``self`` a ``partialmethod`` fills."""
    func, bound, _ = partial_binding(module, value, cls)
    return func, bound


def partial_binding(
    module: cst.Module, value: cst.BaseExpression, cls: cst.ClassDef | None = None
) -> tuple[cst.FunctionDef | None, int, frozenset[str]]:
    """``bound_function``, and the parameters a ``partialmethod`` binds by keyword."""
    bound, keywords = 0, frozenset()
    value = item_of_tuple(module, value)
    method = method_of_class(module, value)
    if method is not None:
        return method, bound, keywords
    if (
        isinstance(value, cst.Call)
        and _is_partialmethod(value.func)
        and value.args
        and isinstance(value.args[0].value, cst.Name)
        and not value.args[0].keyword
        and not any(arg.star for arg in value.args)
    ):
        # ``partialmethod(f, 1.0, scale=2)``: f, the positional parameters it fills bound
        bound = sum(arg.keyword is None for arg in value.args[1:])
        keywords = frozenset(arg.keyword.value for arg in value.args[1:] if arg.keyword is not None)
        value = value.args[0].value
    return (function_named(module, value.value, cls) if isinstance(value, cst.Name) else None), bound, keywords


def bound_form(module: cst.Module, value: cst.BaseExpression, bridge: Bridge, cls: cst.ClassDef | None = None) -> str:
    """``CLASSIC``, ``"accumulator"``, or the binding's code where its form is not visible
    (``bridge``: ``module``'s statements with ``ast``'s, where a function's form is read), or
    where a call of what it binds runs none of its body (``bound_not_run``)."""
    return bound_not_run(module, value, bridge, cls) or visible_form(module, value, bridge, cls)


def visible_form(module: cst.Module, value: cst.BaseExpression, bridge: Bridge, cls: cst.ClassDef | None = None) -> str:
    """``bound_form`` of a binding whose function runs its body when called."""
    if isinstance(value, cst.Lambda):
        params = value.params
        few = len(params.params) + len(params.posonly_params) <= 3 and not isinstance(params.star_arg, cst.Param)
        returns = not (is_name(value.body, "None") or isinstance(value.body, cst.Dict))
        if few and returns:
            return CLASSIC
        if returns and not _accumulates(value.body):  # its body is what it returns: not shown None
            return f"`{cst.Module([]).code_for_node(value)}`"
        return "accumulator"
    func, bound, keywords = partial_binding(module, value, cls)
    called = _as_called(bridge.ast_of(func), bound, keywords) if func is not None else None
    if called is not None:
        return rule_form(called)
    return f"`{cst.Module([]).code_for_node(value)}`"


def bound_not_run(
    module: cst.Module, value: cst.BaseExpression, bridge: Bridge, cls: cst.ClassDef | None = None
) -> str | None:
    """The binding's code and what it binds, where that is a function whose call runs none of
    its body (a generator or coroutine function: ``function_kinds``); else None."""
    if isinstance(value, cst.Lambda):
        kind = GENERATOR_LAMBDA if findall(value.body, cst.Yield) else None  # a nested lambda's too: refused
    else:
        func = partial_binding(module, value, cls)[0]
        kind = not_run(bridge.ast_of(func)) if func is not None else None
    return f"`{cst.Module([]).code_for_node(value)}`, {kind}" if kind is not None else None


def _accumulates(body: cst.BaseExpression) -> bool:
    """``acc.accum(ct)``: a lambda's body that returns None, as an accumulator rule does."""
    return isinstance(body, cst.Call) and isinstance(body.func, cst.Attribute) and body.func.attr.value == "accum"


def _as_called(func: ast.FunctionDef, count: int, keywords: frozenset[str]) -> ast.FunctionDef | None:
    """``func`` as ``partialmethod(func, *count, **keywords)`` is called, as Python binds it
    (``functools.partialmethod``): the ``count`` positional parameters after ``self`` are
    filled, and those named by ``keywords`` are gone; a positional argument may fill only
    the parameters before the first of those (after it, one would clash with the keyword):
    the rest are keyword-only. None: one of those has no default (no call by position binds it)."""
    if not count and not keywords:
        return func
    args = func.args
    params = [*args.posonlyargs, *args.args]
    defaulted = {p.arg: d for p, d in zip(params[len(params) - len(args.defaults) :], args.defaults)}
    rest = params[1 + count :]
    cut = next((i for i, p in enumerate(rest) if p.arg in keywords), len(rest))
    later = [p for p in rest[cut:] if p.arg not in keywords]
    if any(p.arg not in defaulted for p in later):
        return None
    kwonly = [p for p in args.kwonlyargs if p.arg not in keywords]
    kept = [*params[:1], *rest[:cut]]
    bare = (later or kwonly) and (later or cut != len(rest))  # keyword-only after a bare ``*``
    called = copy.copy(func)
    called.args = ast.arguments(
        posonlyargs=[],
        args=kept,
        vararg=None if bare else args.vararg,
        kwonlyargs=[*later, *kwonly],
        kw_defaults=[defaulted.get(p.arg) for p in later] + [None] * len(kwonly),
        kwarg=args.kwarg,
        defaults=[defaulted[p.arg] for p in kept if p.arg in defaulted],
    )
    return called


def _is_partialmethod(func: cst.BaseExpression) -> bool:
    return is_name(func, "partialmethod") or (
        isinstance(func, cst.Attribute) and func.attr.value == "partialmethod" and is_name(func.value, "functools")
    )


def item_of_tuple(module: cst.Module, value: cst.BaseExpression) -> cst.BaseExpression:
    """``T[i]``, ``T`` a tuple display the module binds once (``_RULES = (_bwd,)``, at its top
    level: a tuple cannot change, and nothing rebinds the name), ``i`` a literal index in it,
    the item a function the module binds by its ``def`` alone: that item; else ``value``."""
    if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1):
        return value
    index = value.slice[0].slice
    number = index.value if isinstance(index, cst.Index) else None
    if not isinstance(number, cst.Integer):
        return value
    name = value.value.value
    tops = [s.body[0] for s in module.body if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1]
    binding = [a for a in tops if isinstance(a, cst.Assign) and is_name(sole_target(a), name)]
    if (
        len(binding) != 1
        or not isinstance(binding[0].value, cst.Tuple)
        or len(module_bindings(module.code, name) or ()) != 1
    ):
        return value
    items = binding[0].value.elements
    at = int(number.value, 0)
    if any(isinstance(e, cst.StarredElement) for e in items) or at >= len(items):
        return value
    item = items[at].value  # a function bound by its ``def`` alone: the tuple holds that one
    return item if isinstance(item, cst.Name) and bound_once(module.code, item.value) else value


def method_of_class(module: cst.Module, value: cst.BaseExpression) -> cst.FunctionDef | None:
    """``C.f``: the function ``def f`` in the body of ``C``, a plain class statement at the top
    of the module (no base but ``object``, no decorator, no metaclass: the lookup finds its own
    namespace) that the module binds once, whose body names ``f`` only by that ``def`` and
    whose ``f`` nothing sets or deletes (``C.f = g``, ``setattr``/``delattr`` on ``C``)."""
    if not (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
        return None
    name, attr = value.value.value, value.attr.value
    classes = [s for s in module.body if isinstance(s, cst.ClassDef) and s.name.value == name]
    cls = classes[0] if len(classes) == 1 else None
    if cls is None or cls.decorators or cls.keywords or any(not is_name(a.value, "object") for a in cls.bases):
        return None
    defs = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == attr]
    named = findall(cls.body, cst.Name, lambda n: n.value == attr)
    if len(defs) != 1 or defs[0].decorators or len(named) != 1 or len(module_bindings(module.code, name) or ()) != 1:
        return None
    return None if _changed_on(module, name) else defs[0]


def _changed_on(module: cst.Module, name: str) -> bool:
    """May the module change an attribute of ``name``? Yes unless every use of ``name`` reads an
    attribute of it (``name.x`` loaded: the class is never handed on, aliased or written to)."""
    tree = ast.parse(module.code)
    reads = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    reads -= {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute) and not _loaded(node)}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in reads for n in ast.walk(tree))


def _loaded(node: ast.Attribute) -> bool:
    return isinstance(node.ctx, ast.Load)
