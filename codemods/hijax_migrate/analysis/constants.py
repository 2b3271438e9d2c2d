"""The strings an expression may evaluate to, as Python evaluates them.

A reference by name (``getattr(cls, NAME)``) names a rule only through the
string its key evaluates to. Known: a literal in any quoting (``ast`` has
undone prefixes, escapes and implicit concatenation), an f-string of
literals, ``+`` of known strings, a name bound once at module level to a
known value (in the module, or imported from a module of the tree), and a
name a function binds only to known values (``for n in ("vjp_fwd",
"vjp_bwd")``: the container's elements). Anything else (a parameter, a name
bound twice at module level, a call, an f-string with a value) is unknown:
``None``, which a caller must take as "may be any name".
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from .names import NameModel

Values = frozenset  # of str; None stands for "unknown"
_DEPTH = 12  # constants through constants (a cycle through broken code stops here)


@dataclass
class ModuleConstants:
    """One module's names as constants: its ``NameModel``, and how to reach the
    constants of another module of the tree (``imported(module, name)``)."""

    model: NameModel
    imported: Callable[[str, str, int, str], Values | None] = lambda module, name, depth, what: None
    module: str = ""
    is_package: bool = False
    loops: dict[int, ast.expr] = field(default_factory=dict)  # id of a loop target Name -> the iterable

    @classmethod
    def of(cls, tree: ast.Module, **kwargs) -> ModuleConstants:
        found = cls(NameModel.of(tree), **kwargs)
        for node in ast.walk(tree):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and isinstance(node.target, ast.Name):
                found.loops[id(node.target)] = node.iter
        return found

    def strings(self, expr: ast.expr, functions: list = (), depth: int = 0) -> Values | None:
        """What ``expr`` may evaluate to, as strings (non-strings name nothing: left out);
        ``functions``: the functions around it, innermost last."""
        if depth > _DEPTH:
            return None
        if isinstance(expr, ast.Constant):
            return Values([expr.value]) if isinstance(expr.value, str) else Values()
        if isinstance(expr, ast.JoinedStr):
            return self._joined(expr, functions, depth)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            left, right = self.strings(expr.left, functions, depth + 1), self.strings(expr.right, functions, depth + 1)
            return None if left is None or right is None else Values(a + b for a in left for b in right)
        if isinstance(expr, ast.Name):
            return self.name(expr.id, functions, depth + 1)
        if isinstance(expr, ast.Subscript):  # ``NAMES[1]``: any of its items (a superset)
            return self.items(expr.value, functions, depth + 1)
        return None

    def items(self, expr: ast.expr, functions: list = (), depth: int = 0) -> Values | None:
        """The strings subscripting ``expr`` may give: any element of a literal tuple or
        list, any value of a dict, or of a name bound to one."""
        if depth > _DEPTH:
            return None
        if isinstance(expr, ast.Dict):
            return self._union_of(expr.values, functions, depth)
        if isinstance(expr, (ast.Tuple, ast.List)):
            return self._union_of(expr.elts, functions, depth)
        if isinstance(expr, ast.Name):
            return self._bound(expr.id, functions, depth + 1, self.items)
        return None

    def _union_of(self, exprs: list, functions, depth: int) -> Values | None:
        if any(item is None or isinstance(item, (ast.Starred, ast.DictComp)) for item in exprs):
            return None
        found = [self.strings(item, functions, depth + 1) for item in exprs]
        return None if any(v is None for v in found) else Values().union(*found)

    def _joined(self, expr: ast.JoinedStr, functions, depth: int) -> Values | None:
        found = Values([""])
        for part in expr.values:
            if isinstance(part, ast.FormattedValue):
                if part.conversion != -1 or part.format_spec is not None:
                    return None
                part = part.value
            values = self.strings(part, functions, depth + 1)
            if values is None:
                return None
            found = Values(a + b for a in found for b in values)
        return found

    def elements(self, expr: ast.expr, functions: list = (), depth: int = 0) -> Values | None:
        """The strings iterating ``expr`` may give: a literal tuple, list, set or dict
        (its keys), or a name bound to one; a string gives its characters."""
        if depth > _DEPTH:
            return None
        if isinstance(expr, (ast.Tuple, ast.List, ast.Set)) or isinstance(expr, ast.Dict):
            return self._union_of(expr.keys if isinstance(expr, ast.Dict) else expr.elts, functions, depth)
        if isinstance(expr, ast.Name):
            return self._bound(expr.id, functions, depth + 1, self.elements)
        values = self.strings(expr, functions, depth + 1)
        return None if values is None else Values(c for v in values for c in v)

    def name(self, name: str, functions, depth: int, what: str = "strings") -> Values | None:
        """The values of ``name`` read in ``functions`` (``what``: as ``strings``,
        ``elements`` or ``items`` evaluate them)."""
        return self._bound(name, functions, depth, getattr(self, what))

    def _bound(self, name: str, functions, depth: int, evaluate) -> Values | None:
        """``name`` read inside ``functions`` (innermost last): its values where every
        binding that may be read there is known; None: unknown."""
        for func in reversed(list(functions)):
            local = _local_bindings(func, name)
            if local is not None:
                return self._union(local, functions, depth, evaluate)
        return self._module_name(name, depth, evaluate)

    def _union(self, local: list, functions, depth: int, evaluate) -> Values | None:
        found = []
        for kind, node in local:
            if kind == "assign":
                found.append(evaluate(node, functions, depth + 1))
            elif kind == "loop":
                found.append(self.elements(node, functions, depth + 1) if evaluate == self.strings else None)
            else:
                return None
        return None if any(v is None for v in found) else Values().union(*found)

    def _module_name(self, name: str, depth: int, evaluate) -> Values | None:
        stmt = self.model.module_constant(name)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            return evaluate(stmt.value, (), depth + 1)
        loops = self._module_loops(name) if stmt is None else None
        if loops is not None and evaluate == self.strings:
            found = [self.elements(iterable, (), depth + 1) for iterable in loops]
            return None if any(v is None for v in found) else Values().union(*found)
        imports = self.model.imported_only(name) if stmt is None else None
        if imports and len(imports) == 1 and isinstance(imports[0].statement, ast.ImportFrom):
            module = _absolute(self.module, self.is_package, imports[0].statement)
            alias = imports[0].node
            if module:
                return self.imported(module, alias.name, depth + 1, evaluate.__name__)
        return None

    def _module_loops(self, name: str) -> list[ast.expr] | None:
        """The iterables of the module-level loops that alone bind ``name`` (None: bound otherwise)."""
        found = self.model.bindings.get(name, [])
        if not found or name in self.model.declared or any(id(b.node) not in self.loops for b in found):
            return None
        return [self.loops[id(b.node)] for b in found]


def _absolute(module: str, is_package: bool, stmt: ast.ImportFrom) -> str | None:
    if not stmt.level:
        return stmt.module
    from .scopes import resolve_relative

    return resolve_relative(module, is_package, stmt.level, stmt.module) or None


def _local_bindings(func, name: str) -> list[tuple[str, ast.AST]] | None:
    """How ``func`` binds ``name`` (None: it does not): ("assign", value),
    ("loop", iterable), or ("other", node) for any binding whose value is not read here."""
    args = func.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    found = [("other", a) for a in params if a is not None and a.arg == name]
    for node in _own_walk(func):
        found += _binds(node, name)
    return found or None


def _binds(node: ast.AST, name: str) -> list[tuple[str, ast.AST]]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and _is(node.targets[0], name):
        return [("assign", node.value)]
    if isinstance(node, ast.AnnAssign) and _is(node.target, name):
        return [("assign", node.value)] if node.value is not None else []
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and _is(node.target, name):
        return [("loop", node.iter)]
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.comprehension)):
        return []  # its Name targets are met below, as "other" (a tuple target, a chain)
    if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [("other", node)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
        return [("other", node)]
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ExceptHandler)):
        names = getattr(node, "names", None) or [getattr(node, "name", None)]
        if any((getattr(n, "asname", None) or getattr(n, "name", n)) == name for n in names if n is not None):
            return [("other", node)]
    return []


def _is(target: ast.expr, name: str) -> bool:
    return isinstance(target, ast.Name) and target.id == name


def _own_walk(func):
    """The nodes of ``func``'s body, not entering nested functions or classes (their
    own names are bound here); a comprehension's targets are counted here too."""
    stack = list(func.body) if isinstance(func.body, list) else [func.body]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Name) and isinstance(node, (ast.Assign, ast.For, ast.AsyncFor, ast.comprehension)):
                if child in _direct_targets(node):
                    continue  # the statement itself said how it binds it
            stack.append(child)


def _direct_targets(node) -> list:
    return (
        node.targets
        if isinstance(node, ast.Assign) and len(node.targets) == 1
        else ([node.target] if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) else [])
    )


def constants_of_text(text: str, module: str, is_package: bool, imported) -> ModuleConstants | None:
    """A module's constants from its text; ``imported``: how to follow its imports."""
    try:
        return ModuleConstants.of(ast.parse(text), module=module, is_package=is_package, imported=imported)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
