"""What a module summary holds: scopes, their bindings, classes and their
kinds. Plain data, free of libcst: the fast analysis (``ast_summary``) and
the command line's parent process use it without importing libcst."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Kind(enum.Enum):
    """What a class is, as far as hijax is concerned."""

    NONE = "not a hijax primitive"
    EXTERNAL = "undecidable: a base from outside the tree"
    NEWSTYLE = "NewstyleHiPrimitive"  # jax 0.8.0
    VJP = "VJPHiPrimitive"  # jax 0.8.1 to 0.11.1
    HIPRIM = "HiPrim"  # jax 0.11.2 and newer
    OLD = "HiPrimitive"  # the core.Primitive-based API, gone in 0.11.2

    @property
    def is_primitive(self) -> bool:
        return self in PRIMITIVE_KINDS


PRIMITIVE_KINDS = frozenset({Kind.NEWSTYLE, Kind.VJP, Kind.HIPRIM})


# When bases disagree (a mixin, a version switch) the most specific wins.
_PRIORITY = (Kind.VJP, Kind.HIPRIM, Kind.NEWSTYLE, Kind.OLD, Kind.EXTERNAL, Kind.NONE)


def strongest(kinds) -> Kind:
    present = set(kinds)
    return next((kind for kind in _PRIORITY if kind in present), Kind.NONE)


@dataclass(eq=False)
class Scope:
    parent: Scope | None
    is_class: bool = False
    # name -> every way it is bound: ("import", "a.b"[, "*" by a star import]) | ("class", ClassInfo)
    # | ("value", [dotted names the value may be], Scope)
    bindings: dict[str, list[tuple]] = field(default_factory=dict)

    def bind(self, name: str, binding: tuple) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def lookup(self, name: str) -> list[tuple]:
        """Python's rule: the own scope, then enclosing non-class scopes."""
        scope, first = self, True
        while scope is not None:
            if (first or not scope.is_class) and name in scope.bindings:
                return scope.bindings[name]
            scope, first = scope.parent, False
        return []


@dataclass(eq=False)
class ClassInfo:
    qualname: str  # as __qualname__: "Op", "Outer.Op", "f.<locals>.Op"
    bases: list[str | None]  # dotted base expressions; None: not a name
    scope: Scope  # where the class statement stands
    body: Scope | None = None  # what its body binds (rules, flags)
    module: str = ""  # with qualname: the class, across rewrites of its file
    factory: bool = False  # made by ``Name = type("Name", bases, {...})``, not a class statement
    arms: tuple[tuple[int, ...], ...] = ()  # indexes of bases that are the arms of one expression (``A if c else B``)

    @property
    def key(self) -> tuple[str, str]:
        return self.module, self.qualname


@dataclass(eq=False)
class ModuleSummary:
    module: str
    scope: Scope
    classes: list[ClassInfo]  # class statements, in order (parallel to the builders' nodes)
    factories: list[ClassInfo] = field(default_factory=list)  # classes made by ``type(...)``

    @classmethod
    def of(cls, scope: Scope, classes: list[ClassInfo]) -> ModuleSummary:
        """The summary of a module's ``classes`` over its ``scope`` (its name read from them)."""
        return cls(classes[0].module if classes else "", scope, classes)

    @property
    def every_class(self) -> list[ClassInfo]:
        """Class statements and ``type(...)`` classes: where subclasses are searched."""
        return [*self.classes, *self.factories]


def defines_rules(info: ClassInfo) -> bool:
    """Does ``info``'s body define a hijax rule (as a class with a hijax base would)?"""
    return info.body is not None and any(
        rule in info.body.bindings for rule in ("vjp_fwd", "vjp_bwd", "vjp_bwd_retval")
    )


# The form of a ``vjp_bwd`` a class body defines, kept in its binding
# ("value", [], scope, form) so that families are decided across files.
CLASSIC = "classic"  # ``vjp_bwd(self, res, g)`` returning cotangents: renamed, by default
ACCUMULATOR = "accumulator"
METHOD = "method"  # any other ``def`` (a rule whose form is not known included)


def resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    parts = module.split(".") if module else []
    keep = len(parts) - level + (1 if is_package else 0)
    base = parts[: max(keep, 0)]
    return ".".join(base + ([target] if target else []))
