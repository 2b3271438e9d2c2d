"""The tree being migrated: which module is which file, and which classes
are hijax primitives, following subclass chains from module to module.

A module is looked up on disk, from a few search roots (the folders the run
was given and the roots of their packages), and summarised the first time a
chain runs through it: a run over a large tree reads and parses only the
files that matter, and sees the whole tree even when it migrates only a few
files of it (``--changed-since``).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from ..core.errors import SourceError
from ..sources.files import declared_encoding, python_name, read_source
from ..tree import calls, holders
from ..tree.cache import SEARCHED, USED, digest
from ..tree.reads import TreeReads
from .answers import Answers
from .ast_summary import binding_line, parse_ast, summarize_ast
from .chains import HIJAX_MODULES, Resolver  # noqa: F401 (HIJAX_MODULES: re-exported)
from .scopes import ClassInfo, Kind, ModuleSummary, Scope


class Project(Resolver):
    """A run's index of the tree, and the answers of the file in hand.

    Per run, given at construction: ``reads``, the run's reads of the tree
    (its own, where none is given), shared with the projects made to decide
    on other files; ``scans``, the stat record (what files name, remembered
    across runs; None: none); ``search_passes``, how many searches for
    subclasses are passes of the tree before one index answers the rest
    (``search_by_index``: the runner's one switch, for a run over many
    candidates); ``decider``, the run's ``rules.decisions.Decider`` (None:
    the engine makes one a migration), carried for the engine, never asked
    here. Filled as the run goes, as memos: modules' summaries as found,
    searches, kinds. Per file: ``answers`` (``start_file``), and the file's
    own summaries as its migration rewrites them, put back at the next file."""

    def __init__(self, extra_bases: tuple[str, ...] = (), roots: tuple[Path, ...] = (),
                 reads: TreeReads | None = None, walked: tuple[Path, ...] | None = None,
                 decider=None, scans=None, search_passes: int = 2):
        self.roots = roots  # where imports resolve from
        self.walked = roots if walked is None else walked  # the folders searches of the tree walk
        self.reads = reads if reads is not None else TreeReads()
        self._summaries: dict[str, ModuleSummary | None] = {}
        self._first: dict[str, ModuleSummary | None] = {}  # as the run found them
        self._naming: dict[str, list[tuple[Path, Path, str]]] = {}  # see modules_naming
        self._names_index: dict[str, dict[Path, Path]] | None = None
        self._module_names: dict[tuple[Path, Path | None], str] = {}  # see module_name
        self._locals: dict[tuple[Path, str], str | None] = {}  # see _local_module
        self.search_passes = search_passes  # searches for subclasses made by a pass of the tree each
        self.scans = scans  # a scans.Scans: what files name, remembered across runs
        self._search: holders.Holders | None = None
        self.mros: dict[ClassInfo, list[ClassInfo]] = {}  # families._mro's, while no summary changes
        # Keyed by the ClassInfo itself (hashed by identity), never by id():
        # a replaced summary's objects may be freed and their ids reused.
        self._class_kinds: dict[ClassInfo, Kind] = {}
        self._class_deps: dict[ClassInfo, frozenset[str]] = {}
        self.extra_bases = frozenset(extra_bases)
        # What answers rest on, for the cache: module -> (its file, digest of
        # the text summarised), None for a summary of text not on disk; the rest
        # is each file's own (``answers``, made fresh by ``start_file``).
        self.loaded: dict[str, tuple[Path, str] | None] = {}
        self._first_loaded: dict[str, object] = {}  # ``loaded`` of each module as the run found it
        self.start_file()
        self.decider = decider

    def search_by_index(self) -> None:
        """A run over many candidates asks for the subclasses of many classes:
        one index of every file's names answers them all (``name_index``),
        where a pass of the tree a name would read each file again and again.
        Said by the runner once the candidates are known, before any search."""
        self.search_passes = 0

    def start_file(self) -> Answers:
        """Answers from now on are for another file: what they rest on starts
        empty (the ``Answers`` returned, the file's own), and the tree is as
        found again. A file is decided on the others as they were, never on
        what the migration of one done earlier in this process made of them:
        the order files are done in (a worker gets some of them, in any
        order) cannot change an answer."""
        self.answers = Answers()
        rewritten = [module for module, first in self._first.items() if self._summaries.get(module) is not first]
        if rewritten:  # what was worked out from their rewrites goes with them
            self._summaries.update((module, self._first[module]) for module in rewritten)
            for module in rewritten:  # and an answer rests on the file as found again, which a cache may keep
                first = self._first_loaded.get(module, _ABSENT)
                if first is _ABSENT:
                    self.loaded.pop(module, None)
                else:
                    self.loaded[module] = first
            self.mros, self._class_kinds, self._class_deps = {}, {}, {}
        return self.answers

    def add_summary(self, summary: ModuleSummary, text: str | None = None) -> None:
        """Use ``summary`` for its module: of ``text`` as on disk, or of a
        rewritten text (None), which no cached result may rest on."""
        self._first.setdefault(summary.module, self._summaries.get(summary.module) or summary)
        self.mros = {}
        self.own_root_first(summary)
        self._summaries[summary.module] = summary
        path = self.find(summary.module) if text is not None else None
        loaded = (path, digest(text)) if path is not None else None
        # what an answer on the module as found rests on, for ``start_file`` to put back
        self._first_loaded.setdefault(summary.module, loaded if text is not None
                                      else self.loaded.get(summary.module, _ABSENT))
        self.loaded[summary.module] = loaded

    def dependencies(self, answers: Answers, own: str = "") -> list[list] | None:
        """What a file's ``answers`` rest on, for the cache: [module, file, digest]
        for each module looked in but ``own`` (file and digest None: not found),
        then the searches; None if one was not on disk, or they are not cacheable."""
        deps = []
        for module in sorted(answers.touched - {own, ""}):
            if module in self.loaded:
                if self.loaded[module] is None:
                    return None
                path, text_digest = self.loaded[module]
                deps.append([module, str(path), text_digest])
            elif self._summaries.get(module) is None:
                deps.append([module, None, None])
            else:
                return None
        deps += [[SEARCHED, word, self.naming_digest(word)] for word in sorted(answers.searched)]
        deps += [[USED, attr, self.uses_digest(attr)] for attr in sorted(answers.used)]
        return deps if answers.cacheable else None

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
        """The file of ``module``: under its package root if the name carries
        one (see ``module_name``), else under the first search root that has it."""
        root, dotted = _unmarked(module)
        rel = Path(*dotted.split(".")) if dotted else None
        for base in (root,) if root is not None else self.roots:
            for path in (base / rel.with_name(rel.name + ".py"), base / rel / "__init__.py") if rel else ():
                if os.path.isfile(path):  # an unreadable folder on the way: not there
                    return path
        return None

    def module_name(self, path: Path, root: Path | None = None) -> str:
        """The name the project knows a file by: dotted from its package root
        (the nearest folder above it without ``__init__.py``), as Python
        imports it; marked with that root where the name alone finds another
        file, or none (two roots of a monorepo holding the same package): a
        relative import in one then never resolves into the other."""
        key = (path, root)
        if key not in self._module_names:
            names = self.reads.packages.module_names(path, root)
            dotted = names[0] if names else ""
            found = self.find(dotted) if dotted else path
            if found is not None and _same_file(found, path):
                self._module_names[key] = dotted
            else:
                self._module_names[key] = _marked(self.reads.packages.package_root(path), dotted)
        return self._module_names[key]

    def own_root_first(self, summary: ModuleSummary) -> None:
        """Absolute imports of ``summary``'s module resolved as Python running
        it would: from its own package root first, where the name is there."""
        path = self.find(summary.module) if summary.module else None
        if path is None:
            return
        root = self.reads.packages.package_root(path)
        scopes = {id(scope): scope for scope in _scopes_of(summary)}
        for scope in scopes.values():
            for name, bindings in scope.bindings.items():
                scope.bindings[name] = [self._from_root(root, binding) for binding in bindings]

    def _from_root(self, root: Path, binding: tuple) -> tuple:
        if binding[0] != "import" or len(binding) > 2 or _unmarked(binding[1])[0] is not None:
            return binding
        parts = binding[1].split(".")
        for cut in range(len(parts), 0, -1):
            local = self._local_module(root, ".".join(parts[:cut]))
            if local is not None:
                return ("import", ".".join([local, *parts[cut:]]))
        return binding

    def _local_module(self, root: Path, dotted: str) -> str | None:
        """The name of ``root``'s module ``dotted``, if ``root`` has it."""
        if (root, dotted) not in self._locals:
            path = self.find(_marked(root, dotted))
            self._locals[root, dotted] = self.module_name(path) if path is not None else None
        return self._locals[root, dotted]

    def _load(self, module: str) -> ModuleSummary | None:
        path = self.find(module) if module else None
        if path is None:
            return None
        try:  # a base module that cannot be read leaves its classes undecided
            text = read_source(path, as_found=self.reads.originals).text
        except SourceError:
            return None
        self.loaded[module] = (path, digest(text))
        summary = _summarize(text, module, path.stem == "__init__")
        if summary is not None:
            self.own_root_first(summary)
        return summary

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
        is cannot be known here. None: every way is followed, or leaves the tree."""
        stack = [(info.module, info.scope, base, None) for base in reversed(info.bases) if base]
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
                    stack += [(module, binding[2], f"{ref}.{rest}" if rest else ref, (module, head))
                              for ref in binding[1]]
                elif binding[0] == "import" and len(binding) == 2:
                    stack += self._runtime_leads(f"{binding[1]}.{rest}" if rest else binding[1], via)
        return None

    def _runtime_leads(self, name: str, via) -> list[tuple]:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            self.answers.touched.add(".".join(parts[:cut]))  # a cached answer rests on it, found or not
            summary = self.first_summary(".".join(parts[:cut]))
            if summary is not None:
                return [(summary.module, summary.scope, ".".join(parts[cut:]), via)]
        return []

    def assignment_line(self, module: str, name: str) -> tuple[Path | None, int]:
        """The file of ``module`` and the line of its first statement binding
        ``name`` (0: not found)."""
        path = self.find(module)
        try:
            text = read_source(path, as_found=self.reads.originals).text if path else None
        except SourceError:
            text = None
        return path, binding_line(text, name) if text is not None else 0

    def naming_digest(self, word: str) -> str:
        """What a search for subclasses of ``word`` rests on: the files naming it, and their texts."""
        return digest("\n".join(f"{path}:{data}" for path, _, data in self._naming_files(word)))

    def _naming_files(self, word: str) -> list[tuple[Path, Path, str]]:
        """(file, its search root, digest of its bytes) of each file naming
        ``word`` in a class statement's bases or an import, once a run: of
        the files whose bytes hold it."""
        if word not in self._naming:
            if len(self._naming) < self.search_passes:
                self.search.expect(self._likely_searches())
                found = {path: root for root in self.walked for path, _ in self.search.files(root, word)}
            else:
                found = self.name_index().get(word, {})
            self._naming[word] = [(path, root, facts[1]) for path, root in found.items()
                                  if (facts := self.names_of(path)) is not None and word in facts[0]]
        return self._naming[word]

    def name_index(self) -> dict[str, dict[Path, Path]]:
        """name -> {file: its search root} of each file of the tree naming it in
        a class statement's bases or an import, built once a run: a tree with
        many primitives asks for the subclasses of each, and a pass of the tree
        a name would read every file again for each."""
        if self._names_index is None:
            files = {path: root for root in self.walked
                     for path in (self.reads.tree_files(root) if root.is_dir() else [])}
            self._names_index = {}
            for path, root in files.items():
                facts = self.names_of(path)
                for name in facts[0] if facts is not None else ():
                    self._names_index.setdefault(name, {})[path] = root
        return self._names_index

    def names_of(self, path: Path) -> tuple[list[str], str] | None:
        """The names ``path`` may subclass or import, and the digest of its bytes."""
        def read(path: Path) -> tuple[list[str], str] | None:
            data = self.reads.read(path)
            return _names_in(data) if data is not None else None

        return self.scans.names(path, read) if self.scans is not None else read(path)

    def learn(self, path: Path) -> None:
        """What the searches of a whole tree ask of ``path``, learnt for the stat
        record (a worker's, which the parent hears of): the names it may
        subclass (the subclass index), and which likely words it holds (the
        search for uses reads only the files that hold them)."""
        self.names_of(path)
        if self.scans is not None:
            self.scans.holding(path, self._likely_searches(), self.reads.read)

    def _likely_searches(self) -> list[str]:
        """The words this run is likely to search the tree for: the rules'
        name, and the names of a few primitives of the old API it has met (a
        rename of their rule looks for their subclasses), while such searches
        are passes of the tree: the index answers the rest."""
        if len(self._naming) >= self.search_passes:
            return ["vjp_bwd"]
        names = sorted({info.qualname.rsplit(".", 1)[-1] for info, kind in self._class_kinds.items()
                        if kind.is_primitive and kind is not Kind.HIPRIM})
        return ["vjp_bwd", *names[:_LIKELY]]

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
            for path, root, _ in self._naming_files(current):
                summary = self.summary(self.module_name(path, root))
                if summary is not None and summary.module not in found:
                    found[summary.module] = summary
                    words += [name for name in _bound_to(summary, current) if name not in words]
        return list(found.values())

    def use_elsewhere(self, attr: str, this_file: str, by_name: bool = False,
                      naming: str | None = None) -> tuple[Path, int] | None:
        """``calls.use_elsewhere`` in this tree: the answer rests on the files that may hold a use."""
        self.answers.used.add(attr)
        self.search.expect(self._likely_searches())
        return calls.use_elsewhere(self.walked, attr, this_file, by_name, naming, self.search)

    def uses_digest(self, attr: str) -> str:
        return calls.uses_digest(self.walked, attr, self.search)

    def prefetch_searches(self) -> None:
        """A serial run about to import libcst: its likely searches of the
        tree are made meanwhile by a forked child (``prefetch``), which walks
        the tree too where the run has not (a fork costs 2 ms; a walk of
        3,000 files, 20 to 30)."""
        if self.search_passes and any(root.is_dir() for root in self.walked):
            likely = self._likely_searches()
            self.search.expect(likely)
            self.search.prefetch(self.walked, likely[0])

    def close(self) -> None:
        """The run's end: a child still making a pass no search asked for is stopped."""
        if self._search is not None:
            self._search.close()

    @property
    def search(self) -> holders.Holders:
        """The files holding each word searched for, found once a project (a run)."""
        if self._search is None or self._search.scans is not self.scans:
            self._search = holders.Holders(self.scans, self.reads)
        return self._search


# Builtins whose value is known only when the code runs: a base named through one
# (the summary reads ``__import__("m").Base`` as ``__import__.Base``) is undecidable.
_RUNTIME_BUILTINS = frozenset({"__import__", "getattr", "vars", "globals", "locals", "type", "eval"})
_RUNTIME_STEPS = 200  # names followed looking for one: a cycle of broken code ends there
_ABSENT = object()  # a module ``loaded`` had no entry for
_LIKELY = 8  # a word expected and never asked costs a substring test a file of the tree

# Names in the bases of class statements, names imported, and names a plain
# name is bound to (``B = base.Base``): generously (a word too many costs a
# summary; one missed, a subclass unseen). A superset of what Python reads as
# a class statement: ``class`` anywhere a word starts (after a form feed, on
# a line continued by a backslash, inside a string), whitespace, comments and
# continuations between its tokens, calls and brackets among its bases; a
# class's name may be any identifier, with type parameters; an import may go
# on past a backslash.
_NAME = rb"(?:\w|[\x80-\xff])+"
_WS = rb"(?:[ \t\f]|\\(?:\r\n|\r|\n))"
_STARTS = rb"(?<![\w\x80-\xff.])"
_IN_BRACKETS = rb"\(((?:[^)#]|#[^\n]*)*)\)"
_BASES = rb"\(([\s\S]{0,4000}?)\)" + _WS + rb"*:"  # up to the colon: nested calls, strings, comments
_VALUE = rb"[\w\x80-\xff][\w\x80-\xff.\[\] \t\f]*"  # what a summary follows: names, attributes, subscripts
_NAMES_THAT_SUBCLASS = re.compile(
    _STARTS + rb"(?:class" + _WS + rb"+" + _NAME + _WS + rb"*(?:\[[^\n]*?\]" + _WS + rb"*)?(?:" + _BASES
    + rb"|" + _IN_BRACKETS + rb")"
    + rb"|import" + _WS + rb"+(?:" + _IN_BRACKETS + rb"|((?:[^\n\\]|\\[\s\S])*)))"
    + rb"|^[ \t\f]*(?:[\w\x80-\xff]+[ \t\f]*(?::[^=\n]*)?=(?!=)[ \t\f]*)+(" + _VALUE + rb")(?=(?:#[^\n]*)?\r?$)",
    re.MULTILINE)
_BOUND_TO = re.compile(rb"=[ \t\f]*" + _VALUE + rb"(?:#[^\n]*)?\r?$", re.MULTILINE)  # where such lines may be
_WORD = re.compile(rb"[A-Za-z_]\w*")
_NON_ASCII_WORD = re.compile(rb"(?:[A-Za-z_]|[\x80-\xff])(?:\w|[\x80-\xff])*[\x80-\xff](?:\w|[\x80-\xff])*")
_KEYWORDS = (b"class", b"import")


def _names_in(data: bytes) -> tuple[list[str], str]:
    """The names a file's bytes may subclass, import or alias, and their digest."""
    parts = []
    for start in _starts(data):  # only where a keyword or a binding may start: ^ alone is slow
        match = _NAMES_THAT_SUBCLASS.match(data, start)
        if match:
            parts += [part for part in match.groups() if part]
    words = {w.decode() for part in parts for w in _WORD.findall(part)}
    words.update(_non_ascii(data, [w for part in parts for w in _NON_ASCII_WORD.findall(part)]))
    return sorted(words), hashlib.sha256(data).hexdigest()


def _starts(data: bytes) -> list[int]:
    """Where each keyword stands, and where each line that may bind a name to
    a name starts: found by ``bytes.find`` and a pattern starting with a byte,
    many times faster than a pattern with alternatives tried at every byte."""
    starts = set()
    for keyword in _KEYWORDS:
        at = data.find(keyword)
        while at != -1:
            starts.add(at)
            at = data.find(keyword, at + len(keyword))
    starts.update(data.rfind(b"\n", 0, found.start()) + 1 for found in _BOUND_TO.finditer(data))
    return sorted(starts)


def _non_ascii(data: bytes, found: list[bytes]) -> set[str]:
    """Names with letters beyond ASCII, as Python reads them: decoded as the
    file declares, NFKC-normalised (``ﬁx`` names ``fix``)."""
    if not found:
        return set()
    encoding = declared_encoding(data)
    return {python_name(w.decode(encoding, "replace")) for w in found}


def _bound_to(summary: ModuleSummary, word: str) -> list[str]:
    """Names ``summary`` binds to something called ``word`` (an alias, an
    import under another name) or to a class deriving from it."""
    names = [name for scope in [summary.scope, *(info.body for info in summary.every_class if info.body)]
             for name, bindings in scope.bindings.items()
             if name != word and any(_names_word(binding, word) for binding in bindings)]
    names += [info.qualname.rsplit(".", 1)[-1] for info in summary.every_class
              if any(base and base.rsplit(".", 1)[-1] == word for base in info.bases)]
    return list(dict.fromkeys(names))


def _names_word(binding: tuple, word: str) -> bool:
    if binding[0] == "import":
        return binding[1].rsplit(".", 1)[-1] == word
    return binding[0] == "value" and any(ref.rsplit(".", 1)[-1] == word for ref in binding[1])


def _summarize(text: str, module: str, is_package: bool) -> ModuleSummary | None:
    try:
        return summarize_ast(parse_ast(text), module, is_package)[0]
    except (SyntaxError, RecursionError, MemoryError):
        pass  # newer syntax than this Python's, or broken: libcst decides
    from ..sources.parse import parse
    from .summary import summarize

    try:
        return summarize(parse(text), module, is_package)
    except SourceError:
        return None


def _scopes_of(summary: ModuleSummary) -> list[Scope]:
    """Every scope of ``summary`` a binding is looked up in."""
    found = [summary.scope]
    for info in summary.every_class:
        scope = info.scope
        while scope is not None:
            found.append(scope)
            scope = scope.parent
        found += [info.body] if info.body is not None else []
    return found


# A module of a package root that is not the first search root holding its
# name is known as ``<root>:<dotted name>``, the root's path with its dots
# (and percent signs) escaped: dotted operations on the name keep the mark on
# its first part, which no Python name can hold.
def _marked(root: Path, dotted: str) -> str:
    return f"{os.fspath(root).replace('%', '%25').replace('.', '%2E')}:{dotted}"


def _unmarked(module: str) -> tuple[Path | None, str]:
    """(package root, dotted name) of a marked name; (None, module) of another."""
    head, dot, rest = module.partition(".")
    if ":" not in head:
        return None, module
    mark, _, first = head.rpartition(":")
    return Path(mark.replace("%2E", ".").replace("%25", "%")), first + dot + rest


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one == other or os.path.samefile(one, other)
    except OSError:
        return False
