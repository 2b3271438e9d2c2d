"""HJX003: ``VJPHiPrimitive`` is ``HiPrim`` from jax 0.11.2."""

from __future__ import annotations

from ..base_rename import BaseRename
from ..context import RuleTransformer
from . import RULE


class HiPrimBase(BaseRename, RuleTransformer):
    rule = RULE
    old_name = "VJPHiPrimitive"
    new_name = "HiPrim"
