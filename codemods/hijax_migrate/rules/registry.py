"""The rule registry: the one list of rules, in the order they run.

Each entry names a rule's package, whose ``RULE`` holds everything about it
(code, name, release, documentation, words, kinds, triage tests, where its
rewrite is). Release gating happens here, once; rules never look at the
target version. ``--select``/``--ignore``/``--list-rules``, the README's
rule table, the pre-filter's words and triage all come from this list, and
none of them imports libcst: a rule's rewrite is loaded when it first runs.
"""

from __future__ import annotations

import importlib

from ..core.versions import Version
from .base import Rule

# Packages of hijax_migrate.rules, in the order their rules run: rules that
# change the base class or signature first, so later ones see the result.
_RULE_MODULES = (
    "unmodelled_bindings",  # first: its error leaves the file as found (``Rule.halts``)
    "newstyle_base",
    "init_attributes",
    "fwd_nzs_in",
    "derived_pairs",
    "sres_accumulators",
    "bwd_returns_cotangents",
    "retval_logs",
    "hiprim_base",
    "old_hiprimitive",
    "dce_live_ins",
    "batch_dim_rule",
    "remat_override",
    "removed_names",
    "removed_helpers",
    "version_gates",
)
_LOADED: list[Rule] = []  # each package's RULE, read once: a pure memo of _RULE_MODULES


def all_rules() -> list[Rule]:
    """Every rule, in the order they run."""
    if not _LOADED:
        _LOADED.extend(importlib.import_module(f"{__package__}.{module}").RULE for module in _RULE_MODULES)
    return list(_LOADED)


def lookup(codes: list[str]) -> set[str]:
    """Codes or names -> codes; prefixes like ``HJX00`` select several."""
    known = all_rules()
    picked: set[str] = set()
    for word in codes:
        match = {r.code for r in known if r.code.startswith(word.upper()) or r.name == word}
        if not match:
            raise ValueError(f"unknown rule {word!r} (see --list-rules)")
        picked |= match
    return picked


def select(target: Version, only: list[str] = (), skip: list[str] = ()) -> list[Rule]:
    chosen = lookup(list(only)) if only else None
    skipped = lookup(list(skip)) if skip else set()
    return [
        r for r in all_rules() if r.since <= target and r.code not in skipped and (chosen is None or r.code in chosen)
    ]
