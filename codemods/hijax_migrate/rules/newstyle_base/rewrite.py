"""HJX006: ``NewstyleHiPrimitive`` (jax 0.8.0) becomes ``VJPHiPrimitive``."""

from __future__ import annotations

from ..base_rename import BaseRename
from ..context import RuleTransformer
from . import RULE


class NewstyleBase(BaseRename, RuleTransformer):
    rule = RULE
    old_name = "NewstyleHiPrimitive"
    new_name = "VJPHiPrimitive"
