"""The tree being migrated: which module is which file, and which classes
are hijax primitives, following subclass chains from module to module.

A module is looked up on disk, from a few search roots (the folders the run
was given and the roots of their packages), and summarised the first time a
chain runs through it: a run over a large tree reads and parses only the
files that matter, and sees the whole tree even when it migrates only a few
files of it (``--changed-since``).
"""

from __future__ import annotations

from pathlib import Path

from .ast_summary import parse_ast, summarize_ast
from .cache import digest
from .chains import HIJAX_MODULES, Resolver  # noqa: F401 (HIJAX_MODULES: re-exported)
from .errors import SourceError
from .files import read_source
from .scopes import ClassInfo, Kind, ModuleSummary


class Project(Resolver):
    def __init__(self, extra_bases: tuple[str, ...] = (), roots: tuple[Path, ...] = ()):
        self.roots = roots
        self._summaries: dict[str, ModuleSummary | None] = {}
        # Keyed by the ClassInfo itself (hashed by identity), never by id():
        # a replaced summary's objects may be freed and their ids reused.
        self._class_kinds: dict[ClassInfo, Kind] = {}
        self._class_deps: dict[ClassInfo, frozenset[str]] = {}
        self.extra_bases = frozenset(extra_bases)
        # What answers rest on, for the cache: module -> (its file, digest of
        # the text summarised), None for a summary of text not on disk; the
        # modules answers were looked up in since the caller last emptied
        # ``touched``; whether a cycle of broken code was cut meanwhile.
        self.loaded: dict[str, tuple[Path, str] | None] = {}
        self.touched: set[str] = set()
        self.cyclic = False

    def add_summary(self, summary: ModuleSummary, text: str | None = None) -> None:
        """Use ``summary`` for its module: of ``text`` as on disk, or of a
        rewritten text (None), which no cached result may rest on."""
        self._summaries[summary.module] = summary
        path = self.find(summary.module) if text is not None else None
        self.loaded[summary.module] = (path, digest(text)) if path is not None else None

    def dependencies(self, own: str = "") -> list[list] | None:
        """[module, file, digest] for each module in ``touched`` but ``own``
        (file and digest None: not found); None if one was not on disk."""
        deps = []
        for module in sorted(self.touched - {own, ""}):
            if module in self.loaded:
                if self.loaded[module] is None:
                    return None
                path, text_digest = self.loaded[module]
                deps.append([module, str(path), text_digest])
            elif self._summaries.get(module) is None:
                deps.append([module, None, None])
            else:
                return None
        return None if self.cyclic else deps

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
            text = read_source(path).text
        except SourceError:
            return None
        self.loaded[module] = (path, digest(text))
        is_package = path.stem == "__init__"
        try:
            return summarize_ast(parse_ast(text), module, is_package)[0]
        except (SyntaxError, RecursionError, MemoryError):
            pass  # newer syntax than this Python's, or broken: libcst decides
        from .parse import parse
        from .summary import summarize

        try:
            return summarize(parse(text), module, is_package)
        except SourceError:
            return None
