"""The tree being migrated: which module is which file, and which classes
are hijax primitives, following subclass chains from module to module.

A module is looked up on disk, from a few search roots (the folders the run
was given and the roots of their packages), and summarised the first time a
chain runs through it: a run over a large tree reads and parses only the
files that matter, and sees the whole tree even when it migrates only a few
files of it (``--changed-since``).
"""

from __future__ import annotations

import builtins
import re
import sys
from pathlib import Path

from .errors import SourceError
from .files import check_regular, read_source, walk
from .modules import module_names
from .parse import parse
from .summary import ClassInfo, Kind, ModuleSummary, Scope, strongest, summarize

HIJAX_MODULES = ("jax.experimental.hijax", "jax._src.hijax")
BASE_KINDS = {kind.value: kind for kind in (Kind.NEWSTYLE, Kind.VJP, Kind.HIPRIM, Kind.OLD)}
# Bases from these packages are decided: they are never hijax primitives.
_KNOWN_NOT_HIJAX = frozenset(sys.stdlib_module_names) | {"jax", "jaxlib", "numpy", "builtins"}


class Project:
    def __init__(self, extra_bases: tuple[str, ...] = (), roots: tuple[Path, ...] = ()):
        self.roots = roots
        self._summaries: dict[str, ModuleSummary | None] = {}
        self._first: dict[str, ModuleSummary | None] = {}  # as the run found them
        self._naming: dict[str, list[tuple[Path, Path]]] | None = None  # see modules_naming
        # Keyed by the ClassInfo itself (hashed by identity), never by id():
        # a replaced summary's objects may be freed and their ids reused.
        self._class_kinds: dict[ClassInfo, Kind] = {}
        self._resolving: set[ClassInfo] = set()
        self.extra_bases = frozenset(extra_bases)

    def add_summary(self, summary: ModuleSummary) -> None:
        """Use ``summary`` for its module (the current, possibly rewritten, text)."""
        self._first.setdefault(summary.module, self._summaries.get(summary.module) or summary)
        self._summaries[summary.module] = summary

    def first_summary(self, module: str) -> ModuleSummary | None:
        """The module as this run found it: families are decided on what the code was
        (a flag a base sets is gone once that base is migrated)."""
        current = self.summary(module)
        return self._first.get(module) or current

    def summary(self, module: str) -> ModuleSummary | None:
        if module not in self._summaries:
            self._summaries[module] = self._load(module)
        return self._summaries[module]

    def find(self, module: str) -> Path | None:
        """The file of ``module`` under the first search root that has it."""
        rel = Path(*module.split("."))
        for root in self.roots:
            for path in (root / rel.with_name(rel.name + ".py"), root / rel / "__init__.py"):
                if path.is_file():
                    return path
        return None

    def _load(self, module: str) -> ModuleSummary | None:
        path = self.find(module) if module else None
        if path is None:
            return None
        try:  # a base module that cannot be read leaves its classes undecided
            tree = parse(read_source(path).text)
        except SourceError:
            return None
        return summarize(tree, module, path.stem == "__init__")

    def class_kind(self, info: ClassInfo) -> Kind:
        if info not in self._class_kinds:
            if info in self._resolving:  # a cycle through broken code
                return Kind.NONE
            self._resolving.add(info)
            kinds = [self.kind_of_name(info.scope, base) for base in info.bases]
            self._resolving.discard(info)
            self._class_kinds[info] = strongest(kinds)
        return self._class_kinds[info]

    def kind_of_name(self, scope: Scope, dotted: str | None) -> Kind:
        if dotted is None:
            return Kind.EXTERNAL
        head, _, rest = dotted.partition(".")
        if dotted in self.extra_bases or head in self.extra_bases:
            return Kind.VJP
        bindings = scope.lookup(head)
        if not bindings:
            return Kind.NONE if hasattr(builtins, head) else Kind.EXTERNAL
        return strongest(self._kind_of_binding(binding, rest) for binding in bindings)

    def _kind_of_binding(self, binding: tuple, rest: str) -> Kind:
        what = binding[0]
        if what == "import":
            return self.kind_of_qualified(f"{binding[1]}.{rest}" if rest else binding[1])
        if what == "class":
            return Kind.NONE if rest else self.class_kind(binding[1])
        refs, scope = binding[1], binding[2]
        return strongest(self.kind_of_name(scope, f"{ref}.{rest}" if rest else ref) for ref in refs)

    def classes_of_name(self, scope: Scope, dotted: str | None, depth: int = 0) -> list[ClassInfo]:
        """The classes of the tree a base expression may name (none: outside the tree)."""
        if dotted is None or depth > 20:  # a cycle through broken code
            return []
        head, _, rest = dotted.partition(".")
        found = []
        for binding in scope.lookup(head):
            if binding[0] == "class" and not rest:
                found.append(binding[1])
            elif binding[0] == "import":
                found += self._classes_of_qualified(f"{binding[1]}.{rest}" if rest else binding[1], depth)
            elif binding[0] == "value":
                for ref in binding[1]:
                    found += self.classes_of_name(binding[2], f"{ref}.{rest}" if rest else ref, depth + 1)
        return found

    def _classes_of_qualified(self, name: str, depth: int) -> list[ClassInfo]:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            summary = self.first_summary(".".join(parts[:cut]))
            if summary is not None:
                return self.classes_of_name(summary.scope, ".".join(parts[cut:]), depth + 1)
        return []

    def modules_naming(self, word: str) -> list[ModuleSummary]:
        """Summaries of the tree's modules that may subclass a class called ``word``:
        those naming it in a class statement's bases or in an import. The tree is
        walked, and each file read, once per run."""
        if self._naming is None:
            self._naming = _index_names(self.roots)
        summaries = []
        for path, root in self._naming.get(word, ()):
            names = module_names(path, root)
            summary = self.summary(names[0]) if names else None
            if summary is not None:
                summaries.append(summary)
        return summaries

    def kind_of_qualified(self, name: str) -> Kind:
        if name in self.extra_bases:
            return Kind.VJP
        module, _, attr = name.rpartition(".")
        if module in HIJAX_MODULES:
            return BASE_KINDS.get(attr, Kind.NONE)
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            summary = self.summary(".".join(parts[:cut]))
            if summary is not None:
                return self.kind_of_name(summary.scope, ".".join(parts[cut:]))
        return Kind.NONE if parts[0] in _KNOWN_NOT_HIJAX else Kind.EXTERNAL


# Names in the bases of class statements, and names imported.
_NAMES_THAT_SUBCLASS = re.compile(rb"^[ \t]*(?:class[ \t]+\w+[ \t]*\(([^)]*)\)|(?:from[ \t]+\S+[ \t]+)?import[ \t]+"
                                  rb"(\([^)]*\)|[^\n]*))", re.M)
_WORD = re.compile(rb"[A-Za-z_]\w*")


def _index_names(roots: tuple[Path, ...]) -> dict[str, list[tuple[Path, Path]]]:
    index: dict[str, list[tuple[Path, Path]]] = {}
    files = {path: root for root in roots for path in walk(root)}
    for path, root in files.items():
        try:  # never a FIFO or a device: reading one would block
            check_regular(path)
            data = path.read_bytes()
        except (OSError, SourceError):
            continue
        words = {w.decode() for match in _NAMES_THAT_SUBCLASS.finditer(data)
                 for part in match.groups() if part for w in _WORD.findall(part)}
        for word in words:
            index.setdefault(word, []).append((path, root))
    return index
