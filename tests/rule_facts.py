"""The path facts of one function of a source text, as the rule reads them: ``ast``'s
function, its accumulators' uses (``accum_uses``), the helpers they are handed to
(``helpers``), and its own returns in source order."""

from __future__ import annotations

import ast
import textwrap

from hijax_migrate.analysis.accum_uses import Uses
from hijax_migrate.analysis.helpers import Helpers
from hijax_migrate.analysis.returns import own_returns
from hijax_migrate.analysis.tree_writes import tree_writes


def rule_facts(source: str, accs=("a", "b"), star=None, resolve=None, builtins=(), is_tree_map=None):
    """(the module's last ``def``, its facts, its returns). ``accs``: the accumulator parameters; or
    ``star`` (name, count), ``*name``'s elements; ``resolve(call, caller)``: which helper a call
    reaches (none: every call unknown); ``builtins``: Python's own names; ``is_tree_map(expr)``."""
    tree = ast.parse(textwrap.dedent(source))
    func = [s for s in tree.body if isinstance(s, ast.FunctionDef)][-1]
    builtin = set(builtins).__contains__
    uses = Uses(func, tree_writes(is_tree_map, builtin) if is_tree_map is not None else None)
    found = uses.star(*star) if star is not None else [uses.named(name) for name in accs]
    facts = Helpers(resolve or (lambda call, caller: "none"), builtin).facts(uses, found)
    return func, facts, own_returns(func)


def module_defs(source: str) -> dict[str, ast.FunctionDef]:
    """The module's ``def``s by name: a resolver's table."""
    tree = ast.parse(textwrap.dedent(source))
    return {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
