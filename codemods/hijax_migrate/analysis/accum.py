"""Building accumulator writes: ``x_acc.accum(ct)`` for each cotangent."""

from __future__ import annotations

import libcst as cst

from .return_values import is_none

# A cotangent whose structure is not visible is accumulated the way jax's own
# base class does it: leaf by leaf, the accumulators' tree as the prefix.
TREE_WRITE = "jax.tree.map(lambda acc, ct: acc.accum(ct), {acc}, {value})"


def accum_call(acc: cst.BaseExpression, value: cst.BaseExpression) -> cst.Expr:
    call = cst.Call(cst.Attribute(acc, cst.Name("accum")), [cst.Arg(value)])
    return cst.Expr(call)


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def tree_write(acc: cst.BaseExpression | list[str], value: cst.BaseExpression) -> cst.Expr:
    """``acc`` is one accumulator, or the names of all of them (a tuple)."""
    if isinstance(acc, list):
        acc_code = f"({', '.join(acc)}{',' if len(acc) == 1 else ''})"
    else:
        acc_code = code(acc)
    if isinstance(value, cst.Tuple) and not value.lpar:  # a bare `return a, b`: one argument
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Expr(cst.parse_expression(TREE_WRITE.format(acc=acc_code, value=code(value))))


def uses_tree_write(statements: list[cst.CSTNode]) -> bool:
    """Do these writes need ``import jax``?"""
    return any(code(s).startswith("jax.tree.map(") for s in statements)


_ARRAY_MODULES = ("jnp", "np", "lax", "jax.numpy", "jax.lax", "numpy")


def visibly_array(value: cst.BaseExpression) -> bool:
    """Is ``value`` an array, whatever the input's structure? Arithmetic and
    jax.numpy/lax calls are; a name, call or subscript may hold a pytree."""
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float)):
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):  # jnp.f(...), (a * b).sum()
        return code(value.func.value) in _ARRAY_MODULES or visibly_array(value.func.value)
    return False


def _subscript(acc: cst.BaseExpression, key: cst.BaseExpression) -> cst.Subscript:
    return cst.Subscript(acc, [cst.SubscriptElement(cst.Index(key))])


def writes_for(acc: cst.BaseExpression, value: cst.BaseExpression, pytree: bool, array: bool = False) -> list[cst.Expr]:
    """Writes of ``value`` into ``acc``, leaf by leaf where the literal shows leaves
    (``array``: the value is known to be one array, ``value`` only names it)."""
    if is_none(value):
        return []  # None: no cotangent for this input
    if isinstance(value, (cst.Tuple, cst.List)) and value.elements:
        if any(isinstance(e, cst.StarredElement) for e in value.elements):
            return [tree_write(acc, value)]
        return [
            w
            for i, e in enumerate(value.elements)
            for w in writes_for(_subscript(acc, cst.Integer(str(i))), e.value, False)
        ]
    if isinstance(value, cst.Dict) and value.elements:
        if any(isinstance(e, cst.StarredDictElement) for e in value.elements):
            return [tree_write(acc, value)]
        return [w for e in value.elements for w in writes_for(_subscript(acc, e.key), e.value, False)]
    if pytree or not (array or visibly_array(value)):  # a pytree input of unknown structure: leaf by leaf
        return [tree_write(acc, value)]
    return [accum_call(acc, value)]


def return_none(original: cst.Return) -> cst.Return:
    return original.with_changes(value=cst.Name("None"), whitespace_after_return=cst.SimpleWhitespace(" "))


def add_params(func: cst.FunctionDef, names: list[str]) -> cst.FunctionDef:
    """Append positional parameters, following a trailing comma's layout."""
    params = list(func.params.params)
    last = params[-1] if params else None
    comma = last.comma if last is not None and isinstance(last.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT
    if len(params) > 1 and isinstance(comma, cst.Comma) and isinstance(params[-2].comma, cst.Comma):
        # one parameter a line: the old last one is followed as the others are
        params[-1] = last.with_changes(comma=params[-2].comma)
    new = [cst.Param(cst.Name(name), comma=comma) for name in names]
    return func.with_changes(params=func.params.with_changes(params=[*params, *new]))


def insert_params(func: cst.FunctionDef, inserts: list[tuple[int, str]]) -> cst.FunctionDef:
    """Insert positional parameters at positions counted from ``self`` (0)."""
    params = func.params
    posonly = list(params.posonly_params)
    regular = list(params.params)
    for index, name in sorted(inserts, reverse=True):
        param = cst.Param(cst.Name(name))
        if index <= len(posonly) and posonly:
            posonly.insert(index, param)
        else:
            regular.insert(index - len(posonly), param)
    return func.with_changes(params=params.with_changes(posonly_params=posonly, params=regular))


def fresh_name(name: str, taken: set[str]) -> str:
    """``name``, with a suffix where it is taken; then taken too."""
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def accumulator_names(inputs: list[str], taken: set[str]) -> list[str]:
    return [fresh_name(f"{name}_acc", taken) for name in inputs]
