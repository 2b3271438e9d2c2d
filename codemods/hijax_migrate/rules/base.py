"""What a rule is, without libcst: its facts, its ``ast`` triage tests and
where its rewrite lives.

Each rule's package (``rules/<name>/__init__.py``) defines ``RULE``, a
``Rule``; its libcst transformer is in ``rules/<name>/rewrite.py``, imported
the first time the rule runs. The registry lists the packages in the order
the rules run: loading them all costs no libcst (``--list-rules``, triage).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..core.versions import Version, format_version
from ..sources.files import PARTS, covering


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    since: Version  # first jax release whose API the rule migrates to
    summary: str
    before: str  # documentation example, checked by the tests
    after: str
    rewrite: str | type  # "package.module:Class" (imported when the rule first runs), or the class
    # A rule runs on a module only if its code names one of ``needs`` (when
    # given) and it has a class of one of ``kinds`` (when given; None: a
    # module-wide rule): one cheap test instead of a walk of every tree by
    # every rule. The pre-filter and triage take them from here.
    needs: tuple[str, ...] = ()
    kinds: frozenset | None = None
    # Triage's tests, each a superset of what the rewrite acts on (None: anything may be):
    class_test: Callable | None = None  # (ast.ClassDef, Kind) -> bool, for each class of ``kinds``
    module_test: Callable | None = None  # (ast.Module, code) -> bool, for a module-wide rule
    family_test: Callable | None = None  # (code, tree, [(class, kind, info)], scope, project) -> bool
    file_test: Callable | None = None  # (Triaged) -> bool: the whole file at once, instead of the two above
    # The API names whose bindings the rule decides (migrates, proves right, or reports), and
    # in which forms (``analysis.namespace``): a binding of such a name in no released rule's
    # form is an error (HJX016); a name no released rule reads cannot break at the target.
    binds: Mapping[str, frozenset[str]] = field(default_factory=dict, hash=False, compare=False)
    # An error of the rule leaves the file as it found it: no other rule runs on it.
    halts: bool = False

    def __post_init__(self):
        object.__setattr__(self, "before", self.before.lstrip("\n"))
        object.__setattr__(self, "after", self.after.lstrip("\n"))

    @cached_property
    def transformer(self) -> type:
        """The libcst ``RuleTransformer`` that applies the rule."""
        if not isinstance(self.rewrite, str):
            return self.rewrite
        module, _, name = self.rewrite.partition(":")
        return getattr(importlib.import_module(module), name)

    def applies(self, code: str, named: frozenset[bytes], kinds: set) -> bool:
        return self.needed(code, named) and (self.kinds is None or not self.kinds.isdisjoint(kinds))

    def needed(self, code: str, named: frozenset[bytes]) -> bool:
        """Does ``code`` name one of ``needs`` as the pre-filter reads it (``named``: its
        ``files.named_words``)? A whole name whole (``def  remat``, not ``_version`` in
        ``python_version``); a need holding a part of names (``VJPHiPrimitive``: ``HiPrim``)
        anywhere, as the part is looked for."""
        return not self.needs or any(spelt in named if whole else word in code for word, spelt, whole in self._readings)

    @cached_property
    def _readings(self) -> tuple[tuple[str, bytes, bool], ...]:
        """Each need, as bytes, and whether the pre-filter reads it whole (else as a part, anywhere)."""
        spelt = [word.encode() for word in self.needs]
        return tuple((w, b, b not in PARTS and covering(w) == {b}) for w, b in zip(self.needs, spelt))

    @property
    def release(self) -> str:
        return format_version(self.since)


@dataclass(frozen=True)
class Triaged:
    """What triage knows of a file, for a rule's ``file_test``."""

    code: str
    tree: object  # its ``ast.Module``
    classes: list  # [(class statement, kind, summary)], in source order
    scope: object  # the module's scope
    project: object  # the run's view of the tree
    binds: Mapping[str, frozenset[str]]  # the forms the target's rules decide (``decided_bindings``)


def decided_bindings(rules: list[Rule]) -> dict[str, frozenset[str]]:
    """Name -> every form of binding it that one of ``rules`` decides."""
    merged: dict[str, frozenset[str]] = {}
    for rule in rules:
        for name, forms in rule.binds.items():
            merged[name] = merged.get(name, frozenset()) | forms
    return merged
