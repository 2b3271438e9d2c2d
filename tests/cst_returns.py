"""A libcst function's own returns, as the rewrites find them: ``returns.own_returns``
of ``ast``'s statement, through the bridge of the module's statements."""

from __future__ import annotations

import libcst as cst
from hijax_migrate.analysis.return_values import returns_in
from hijax_migrate.analysis.summary import bridge_of


def cst_returns(module: cst.Module, func: cst.FunctionDef) -> list[cst.Return]:
    return returns_in(bridge_of(module, module.code), func)
