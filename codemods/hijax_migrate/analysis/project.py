"""A file's view of the tree being migrated: the run's index (``index.Index``)
as the file in hand sees it, which classes are hijax primitives, following
subclass chains from module to module, and what its answers rest on.

Made fresh for each file (``Index.file``) and gone with it: the summaries of
its own module as its migration rewrites them (the others' never change),
the method resolution orders worked out meanwhile, and its ``Answers``, which
go with its result to the cache. Whatever another file's migration made of
its module, this file never sees: it is decided on the tree as found.
"""

from __future__ import annotations

from pathlib import Path

from .answers import Answers
from .chains import HIJAX_MODULES, Resolver  # noqa: F401 (HIJAX_MODULES: re-exported)
from .index import Index
from .scopes import ClassInfo, ModuleSummary, Scope

_MODULE_STEPS = 16  # a chain of re-exports longer than any real one: a cycle of broken code


class FileProject(Resolver):
    """One file's view of ``index``: its answers (``answers``, made fresh),
    and its own module's summaries as its migration rewrites them, in front
    of the index's as found."""

    def __init__(self, index: Index):
        self.index = index
        self.answers = Answers()
        self._own: dict[str, ModuleSummary] = {}  # this file's summaries, as it rewrites them
        self.mros: dict[ClassInfo, list[ClassInfo]] = {}  # families._mro's, while no summary changes
        self.other_tree: tuple | None = None  # (text, tree) of the last other file parsed (reach._parsed)

    # What the run gave the index, read through the view.
    roots = property(lambda self: self.index.roots)
    walked = property(lambda self: self.index.walked)
    reads = property(lambda self: self.index.reads)
    extra_bases = property(lambda self: self.index.extra_bases)
    decider = property(lambda self: self.index.decider)
    # The index's memo of kinds (``chains.Resolver``): the view works them out.
    class_kinds = property(lambda self: self.index.class_kinds)
    class_deps = property(lambda self: self.index.class_deps)

    def add_summary(self, summary: ModuleSummary, text: str | None = None) -> None:
        """Use ``summary`` for its module: of ``text`` as on disk, or of a
        rewritten text (None), which no cached result may rest on."""
        module = summary.module
        if not self.index.adopt(summary, text):
            self.index.rewritten()
        self.mros = {}
        self.index.own_root_first(summary)
        self._own[module] = summary
        if text is not None and self.index.resting_on(module, text) is not None:
            self.answers.rewritten.discard(module)
        else:  # a text not on disk: an answer resting on it is never cached
            self.answers.rewritten.add(module)

    def summary(self, module: str) -> ModuleSummary | None:
        own = self._own.get(module)
        return own if own is not None else self.index.summary(module)

    def first_summary(self, module: str) -> ModuleSummary | None:
        """The module as this run found it: families are decided on what the code was
        (a flag a base sets is gone once that base is migrated)."""
        current = self.summary(module)  # the index summarises it from disk if none has
        return self.index.found(module) or current

    def find(self, module: str) -> Path | None:
        return self.index.find(module)

    def module_read(self, scope: Scope, dotted: str) -> str | None:
        """The module ``dotted`` (``compat.hijax``, read in ``scope``) is, where each step is an
        import: of this module, then of each module of the tree the chain passes through (what
        ``compat`` binds ``hijax`` to), or one of a package's submodules; the name itself once it
        leaves the tree (jax's modules). None where a step is anything else, or bound twice."""
        head, *parts = dotted.split(".")
        return self.module_through(scope.lookup(head), parts)

    def module_through(self, found: list[tuple], parts: list[str]) -> str | None:
        """``module_read`` from the bindings of a chain's head (``found``) on."""
        for _ in range(_MODULE_STEPS):
            if len(found) != 1 or found[0][0] != "import":
                return None
            name = found[0][1]
            self.answers.touched.add(name)  # a cached answer rests on it, found or not
            summary = self.summary(name) if parts else None
            if summary is None:
                return ".".join([name, *parts])
            found = summary.scope.bindings.get(parts[0], [])
            if not found and self.find(f"{name}.{parts[0]}") is not None:
                found = [("import", f"{name}.{parts[0]}")]  # a submodule the package does not bind
            parts = parts[1:]
        return None

    def module_name(self, path: Path, root: Path | None = None) -> str:
        return self.index.module_name(path, root)

    def own_root_first(self, summary: ModuleSummary) -> None:
        self.index.own_root_first(summary)

    def assignment_line(self, module: str, name: str) -> tuple[Path | None, int]:
        return self.index.assignment_line(module, name)

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
            module = ".".join(parts[:cut])
            self.answers.touched.add(module)  # a cached answer rests on it, found or not
            summary = self.first_summary(module)
            if summary is not None:
                return self.classes_of_name(summary.scope, ".".join(parts[cut:]), depth + 1)
        return []

    def runtime_base(self, info: ClassInfo) -> tuple[str, str, str] | None:
        """(module, name, base) where the way to one of ``info``'s bases goes
        through a name bound when the code runs (what a call returns, an
        element of a tuple, an attribute of a namespace): which class that
        is cannot be known here; a class of the tree on the way is followed through its own
        bases. None: every way is followed, or leaves the tree."""
        return self.bound_at_run(info.module, info.scope, info.bases)

    def bound_at_run(self, module: str, scope: Scope, bases: list[str | None]) -> tuple[str, str, str] | None:
        """``runtime_base`` of the dotted ``bases`` named in ``scope`` of ``module``."""
        stack = [(module, scope, base, None) for base in reversed(bases) if base]
        seen: set[tuple[int, str]] = set()
        while stack and len(seen) < _RUNTIME_STEPS:
            module, scope, dotted, via = stack.pop()
            if (id(scope), dotted) in seen:
                continue
            seen.add((id(scope), dotted))
            head, _, rest = dotted.partition(".")
            bindings = scope.lookup(head)
            if not bindings and head in _RUNTIME_BUILTINS:  # ``__import__(...).Base``, seen through the call
                return (*via, dotted) if via else (module, head, dotted)
            for binding in reversed(bindings):
                if binding[0] == "value" and len(binding) == 3 and not binding[1]:
                    return module, head, dotted
                if binding[0] == "value" and len(binding) == 3:
                    stack += [
                        (module, binding[2], f"{ref}.{rest}" if rest else ref, (module, head)) for ref in binding[1]
                    ]
                elif binding[0] == "import" and len(binding) == 2:
                    stack += self._runtime_leads(f"{binding[1]}.{rest}" if rest else binding[1], via)
                elif binding[0] == "class" and not rest:  # a class of the tree: its own bases, in turn
                    parent = binding[1]
                    stack += [(parent.module, parent.scope, base, via) for base in reversed(parent.bases) if base]
        return None

    def _runtime_leads(self, name: str, via) -> list[tuple]:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            self.answers.touched.add(".".join(parts[:cut]))  # a cached answer rests on it, found or not
            summary = self.first_summary(".".join(parts[:cut]))
            if summary is not None:
                return [(summary.module, summary.scope, ".".join(parts[cut:]), via)]
        return []

    def modules_naming(self, word: str) -> list[ModuleSummary]:
        """Summaries of the tree's modules that may subclass a class called ``word``:
        those naming it in a class statement's bases, an import or an alias, and,
        in turn, those naming what these bind to it (``B = base.Base``, ``from
        base import Base as B``) or derive from it (a subclass's subclass in a
        third file). The tree is walked once a run; a file is searched once a
        word, and only if its bytes hold it."""
        found, words = {}, [word]
        for current in words:  # grows as names bound to the class are met
            self.answers.searched.add(current)
            for path, root, _ in self.index.naming_files(current):
                summary = self.summary(self.module_name(path, root))
                if summary is not None and summary.module not in found:
                    found[summary.module] = summary
                    words += [name for name in _bound_to(summary, current) if name not in words]
        return list(found.values())

    def marks_elsewhere(self) -> bool:
        """May a file of the tree hold a suppression that a family of this file's may
        reach (``engine.suppress_reach``)? No, only where none of the files a module of
        the run may be found in holds the bytes of one; that answer rests on them."""
        found = self.index.marked_files()
        if found is None:  # not searched: the walk is made, and what it reads is what rests
            return True
        self.answers.marks = True
        return bool(found)

    def use_elsewhere(
        self, attr: str, this_file: str, by_name: bool = False, naming: str | None = None
    ) -> tuple[Path, int] | None:
        """``calls.use_elsewhere`` in this tree: the answer rests on the files that may hold a use."""
        self.answers.used.add(attr)
        return self.index.use_elsewhere(attr, this_file, by_name, naming)


def view_of(index: Index) -> FileProject:
    """A view of the tree for the next file, its answers starting empty."""
    index.start_file()
    return FileProject(index)


class Project(FileProject):
    """A file's view over an index of its own, made from the index's
    arguments (``Index``'s, passed on as they are): a module migrated alone
    (a test, the codemod's files, stdin). A run makes one ``Index`` and a
    view a file (``view_of``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(Index(*args, **kwargs))


# Builtins whose value is known only when the code runs: a base named through one
# (the summary reads ``__import__("m").Base`` as ``__import__.Base``) is undecidable.
_RUNTIME_BUILTINS = frozenset({"__import__", "getattr", "vars", "globals", "locals", "type", "eval"})
_RUNTIME_STEPS = 200  # names followed looking for one: a cycle of broken code ends there


def _bound_to(summary: ModuleSummary, word: str) -> list[str]:
    """Names ``summary`` binds to something called ``word`` (an alias, an
    import under another name) or to a class deriving from it."""
    names = [
        name
        for scope in [summary.scope, *(info.body for info in summary.every_class if info.body)]
        for name, bindings in scope.bindings.items()
        if name != word and any(_names_word(binding, word) for binding in bindings)
    ]
    names += [
        info.qualname.rsplit(".", 1)[-1]
        for info in summary.every_class
        if any(base and base.rsplit(".", 1)[-1] == word for base in info.bases)
    ]
    return list(dict.fromkeys(names))


def _names_word(binding: tuple, word: str) -> bool:
    if binding[0] == "import":
        return binding[1].rsplit(".", 1)[-1] == word
    return binding[0] == "value" and any(ref.rsplit(".", 1)[-1] == word for ref in binding[1])
