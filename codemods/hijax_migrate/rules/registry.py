"""The rule registry: every rule's code, name, release and documentation.

Release gating happens here, once; rules never look at the target version.
``--select``/``--ignore``/``--list-rules`` and the README's rule table all
come from this one list.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..core.versions import Version, format_version

# Modules of hijax_migrate.rules, in the order their rules run: rules that
# change the base class or signature first, so later ones see the result.
_RULE_MODULES = (
    "newstyle_base", "init_attributes", "fwd_nzs_in", "derived_pairs", "sres_accumulators",
    "bwd_returns_cotangents", "retval_logs", "hiprim_base", "old_hiprimitive", "dce_live_ins",
    "batch_dim_rule", "remat_override", "removed_names", "removed_helpers", "version_gates",
)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    since: Version  # first jax release whose API the rule migrates to
    summary: str
    before: str  # documentation example, checked by the tests
    after: str
    transformer: type
    # A rule runs on a module only if its code names one of ``needs`` (when
    # given) and it has a class of one of ``kinds`` (when given): one cheap
    # test here instead of a walk of every tree by every rule.
    needs: tuple[str, ...] = ()
    kinds: frozenset | None = None

    def applies(self, code: str, kinds: set) -> bool:
        return ((not self.needs or any(word in code for word in self.needs))
                and (self.kinds is None or not self.kinds.isdisjoint(kinds)))

    @property
    def release(self) -> str:
        return format_version(self.since)


_RULES: list[Rule] = []


def rule(code: str, name: str, since: Version, summary: str, before: str, after: str,
         needs: tuple[str, ...] = (), kinds: frozenset | None = None):
    """Class decorator registering a RuleTransformer subclass."""

    def register(cls: type) -> type:
        cls.rule = Rule(code, name, since, summary, before.lstrip("\n"), after.lstrip("\n"), cls,
                        needs, kinds)
        _RULES.append(cls.rule)
        return cls

    return register


def all_rules() -> list[Rule]:
    """Every rule, in the order they run (``_RULE_MODULES``'s), whichever
    module was imported first: one imported on its own (by a test, say)
    must neither hide the others nor run first."""
    if len(_RULES) < len(_RULE_MODULES):
        for module in _RULE_MODULES:
            importlib.import_module(f"{__package__}.{module}")
        order = {f"{__package__}.{module}": index for index, module in enumerate(_RULE_MODULES)}
        _RULES.sort(key=lambda r: order[r.transformer.__module__])
    return list(_RULES)


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
    return [r for r in all_rules()
            if r.since <= target and r.code not in skipped and (chosen is None or r.code in chosen)]
