"""The tree being migrated, as a run finds it: which module is which file,
each module's summary as on disk, which files name what, the searches of the
tree, and the kinds of classes worked out so far.

One a run (``Run``'s), read-mostly: given all it holds at its construction
(the search roots, the run's reads of the tree, the stat record, how its
searches for subclasses go, the decider of cross-file questions), and filled
as the run goes only with memos of what it finds. A file sees it through a
view of its own, made fresh by ``project.view_of`` (a ``FileProject``): the file's
rewrites and what its answers rest on stay there, and go with it.

A module is looked up on disk, from a few search roots (the folders the run
was given and the roots of their packages), and summarised the first time a
chain runs through it: a run over a large tree reads and parses only the
files that matter, and sees the whole tree even when it migrates only a few
files of it (``--changed-since``).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import SourceError
from ..sources.files import read_source
from ..tree import calls, holders
from ..tree.cache import MARKED, SEARCHED, USED, digest
from ..tree.reads import TreeReads
from .answers import Answers
from .ast_summary import binding_line, parse_ast, summarize_ast
from .naming import names_in
from .scopes import ClassInfo, Kind, ModuleSummary, Scope

SEARCH_PASSES = 2  # searches for subclasses made by a pass of the tree, where the run is over few files
RULE_WORD = "vjp_bwd"  # the rules' name: a search of the tree for uses looks for it first
# The rules whose uses the tree is searched for (a rename, a new parameter: HJX001, HJX002,
# HJX010), learnt and looked for together: one read of each file answers them all.
RULES_SEARCHED = (RULE_WORD, "vjp_fwd", "dce")
_LIKELY = 8  # a word expected and never asked costs a substring test a file of the tree


class Index:
    """``reads``: the run's reads of the tree (its own, where none is given),
    shared with the indexes made to decide on other files; ``walked``: the
    folders searches of the tree walk (None: the roots); ``scans``: the stat
    record (what files name, remembered across runs; None: none);
    ``search_passes``: how many searches for subclasses are passes of the tree
    before one index of every file's names answers the rest (0: a run over
    many candidates, decided before it is made); ``decider``: the run's
    ``rules.decisions.Decider`` (None: the engine makes one a migration),
    carried for the engine, never asked here."""

    def __init__(
        self,
        extra_bases: tuple[str, ...] = (),
        roots: tuple[Path, ...] = (),
        reads: TreeReads | None = None,
        walked: tuple[Path, ...] | None = None,
        decider=None,
        scans=None,
        search_passes: int = SEARCH_PASSES,
    ):
        self.extra_bases = frozenset(extra_bases)
        self.roots = roots  # where imports resolve from
        self.walked = roots if walked is None else walked
        self.reads = reads if reads is not None else TreeReads()
        self.decider = decider
        self.scans = scans
        self.search_passes = search_passes
        # Modules as found: summarised from disk, or the first summary a file gave
        # of its own module (before any rewrite); and what each rests on, for the
        # cache: (its file, digest of the text summarised), None for text not on disk.
        self._summaries: dict[str, ModuleSummary | None] = {}
        self.loaded: dict[str, tuple[Path, str] | None] = {}
        self._naming: dict[str, list[tuple[Path, Path, str]]] = {}  # see modules_naming
        self._names_index: dict[str, dict[Path, Path]] | None = None
        self._module_names: dict[tuple[Path, Path | None], str] = {}  # see module_name
        self._locals: dict[tuple[Path, str], str | None] = {}  # see _local_module
        self._files: dict[str, Path | None] = {}  # see find: a run's tree keeps its modules
        self._listings: dict[str, frozenset[str] | None] = {}  # folder -> its names (``_listed``)
        self._rooted: dict[tuple[Path, str], str | None] = {}  # see _from_root
        self.module_readers: dict[tuple[str, str], object] = {}  # (file, name) -> module_reads.Readers
        self._search: holders.Holders | None = None
        # Kinds of classes, keyed by the ClassInfo itself (hashed by identity), never by
        # id(): a replaced summary's objects may be freed and their ids reused. Worked
        # out by the files' views; dropped at the next file once one rewrote a summary.
        self.class_kinds: dict[ClassInfo, Kind] = {}
        self.class_deps: dict[ClassInfo, frozenset[str]] = {}
        self._stale = False

    def start_file(self) -> None:
        """The next file's view is about to be made (``project.view_of``). A
        file is decided on the others as they were, never on what the migration
        of one done earlier in this process made of them: the order files are
        done in (a worker gets some of them, in any order) cannot change an answer."""
        if self._stale:  # kinds worked out while a file's rewrite was in view
            self.class_kinds, self.class_deps, self._stale = {}, {}, False

    def rewritten(self) -> None:
        """A file's view holds a summary other than its module's as found: the
        kinds worked out from now on may rest on it, until the next file."""
        self._stale = True

    def found(self, module: str) -> ModuleSummary | None:
        """``module``'s summary as found, if one was made (never looked up here)."""
        return self._summaries.get(module)

    def adopt(self, summary: ModuleSummary, text: str | None) -> bool:
        """``summary`` as its module's as found, where none was (the first a file
        gives of its own module is of its text before any rewrite); ``text``, the
        text on disk it summarises (None: unknown yet). Whether it is the one."""
        module = summary.module
        if self._summaries.get(module) is None:
            self._summaries[module] = summary
        elif self._summaries[module] is not summary:
            return False
        if text is not None:
            self.loaded[module] = self.resting_on(module, text)
        return True

    def resting_on(self, module: str, text: str) -> tuple[Path, str] | None:
        """What an answer on ``module``'s summary of ``text`` rests on, for the cache."""
        path = self.find(module)
        return (path, digest(text)) if path is not None else None

    def dependencies(self, answers: Answers, own: str = "") -> list[list] | None:
        """What a file's ``answers`` rest on, for the cache: [module, file, digest]
        for each module looked in but ``own`` (file and digest None: not found),
        then the searches; None if one was not on disk, or they are not cacheable."""
        deps = []
        for module in sorted(answers.touched - {own, ""}):
            if module in answers.rewritten:
                return None
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
        deps += [[MARKED, "", self.marks_digest()]] if answers.marks else []
        return deps if answers.cacheable else None

    def summary(self, module: str) -> ModuleSummary | None:
        if module not in self._summaries:
            self._summaries[module] = self._load(module)
        return self._summaries[module]

    def find(self, module: str) -> Path | None:
        """The file of ``module``: under its package root if the name carries
        one (see ``module_name``), else under the first search root that has it.
        Looked for once a run: a run writes files over, never adds or takes one."""
        if module not in self._files:
            self._files[module] = self._find(module)
        return self._files[module]

    def _find(self, module: str) -> Path | None:
        root, dotted = _unmarked(module)
        parts = dotted.split(".")
        if all(part and part not in (".", "..") and "/" not in part and os.sep not in part for part in parts):
            rel = os.path.join(*parts)  # plain names: joined as strings, as ``Path`` would (it costs 10 times more)
            for base in (root,) if root is not None else self.roots:
                for path in (os.path.join(base, rel + ".py"), os.path.join(base, rel, "__init__.py")):
                    if self._listed(path) and os.path.isfile(path):
                        return Path(path)
            return None
        rel = Path(*dotted.split(".")) if dotted else None
        for base in (root,) if root is not None else self.roots:
            for path in (base / rel.with_name(rel.name + ".py"), base / rel / "__init__.py") if rel else ():
                if os.path.isfile(path):  # an unreadable folder on the way: not there
                    return path
        return None

    def _listed(self, path: str) -> bool:
        """Is ``path``'s name in its folder's listing? The listing read once a folder: a
        module's imports ask for many names in one folder, and most are not there."""
        folder, name = os.path.split(path)
        if folder not in self._listings:
            try:
                self._listings[folder] = frozenset(os.listdir(folder))
            except (FileNotFoundError, NotADirectoryError):  # an import from outside the tree
                self._listings[folder] = frozenset()
            except OSError:  # a folder that cannot be listed may still be searched: the file says
                self._listings[folder] = None
        names = self._listings[folder]
        return names is None or name in names

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
                if any(binding[0] == "import" for binding in bindings):  # the others stay as they are
                    scope.bindings[name] = [self._from_root(root, binding) for binding in bindings]

    def _from_root(self, root: Path, binding: tuple) -> tuple:
        if binding[0] != "import" or len(binding) > 2:
            return binding
        key = (root, binding[1])
        if key not in self._rooted:  # modules import the same names: each resolved once
            self._rooted[key] = self._rooted_name(root, binding[1])
        local = self._rooted[key]
        return binding if local is None else ("import", local)

    def _rooted_name(self, root: Path, name: str) -> str | None:
        if _unmarked(name)[0] is not None:
            return None
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            local = self._local_module(root, ".".join(parts[:cut]))
            if local is not None:
                return ".".join([local, *parts[cut:]])
        return None

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
        text_digest, is_package = digest(text), path.stem == "__init__"
        self.loaded[module] = (path, text_digest)
        # a pure function of what the key names: another worker of the run may have made it
        key = digest("\0".join(("summary", module, str(is_package), text_digest)))
        summary = self.reads.shared.fact(key, lambda: _summarize(text, module, is_package))
        if summary is not None:  # its imports resolved in this index, never in the shared one
            self.own_root_first(summary)
        return summary

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
        return digest("\n".join(f"{path}:{data}" for path, _, data in self.naming_files(word)))

    def naming_files(self, word: str) -> list[tuple[Path, Path, str]]:
        """(file, its search root, digest of its bytes) of each file naming
        ``word`` in a class statement's bases or an import, once a run: of
        the files whose bytes hold it."""
        if word not in self._naming:
            if self._names_index is None and len(self._naming) < self.search_passes:
                self.search.expect(self._likely_searches())
                found = {path: root for root in self.walked for path, _ in self.search.files(root, word)}
            else:
                found = self.name_index().get(word, {})
            self._naming[word] = [
                (path, root, facts[1])
                for path, root in found.items()
                if (facts := self.names_of(path)) is not None and word in facts[0]
            ]
        return self._naming[word]

    def searching(self, words: set[str]) -> None:
        """A search for the subclasses of each of ``words`` (at least) is about to
        begin (a walk of a module's families): where they outnumber the passes of
        the tree left, the index of names, which would answer the rest, answers
        them all, and no pass is made that it would make useless."""
        if len(self._naming) + len(words - self._naming.keys()) > self.search_passes:
            self.name_index()

    def name_index(self) -> dict[str, dict[Path, Path]]:
        """name -> {file: its search root} of each file of the tree naming it in
        a class statement's bases or an import, built once a run: a tree with
        many primitives asks for the subclasses of each, and a pass of the tree
        a name would read every file again for each."""
        if self._names_index is None:
            files = {
                path: root for root in self.walked for path in (self.reads.tree_files(root) if root.is_dir() else [])
            }
            self._names_index = {}
            for path, root in files.items():
                facts = self.names_of(path)
                for name in facts[0] if facts is not None else ():
                    self._names_index.setdefault(name, {})[path] = root
        return self._names_index

    def names_of(self, path: Path) -> tuple[list[str], str] | None:
        """The names ``path`` may subclass or import, and the digest of its bytes."""
        return names_of(path, self.scans, self.reads)

    def _likely_searches(self) -> list[str]:
        """The words this run is likely to search the tree for: the rules'
        name, and the names of a few primitives it has met (a rename of their
        rule looks for their subclasses, HJX001's decision for the files that
        import them and may reach their rules by a name), while such searches
        are passes of the tree: the index answers the rest."""
        if self._names_index is not None or len(self._naming) >= self.search_passes:
            return list(RULES_SEARCHED)
        met = self.class_kinds.items()
        names = sorted({info.qualname.rsplit(".", 1)[-1] for info, kind in met if kind.is_primitive})
        return [*RULES_SEARCHED, *names[:_LIKELY]]

    def files_holding(self, root: Path, word: str) -> list[tuple[Path, str]]:
        """``search.files(root, word)``: the run's likely searches are looked for in the same
        read of each file."""
        self.search.expect(self._likely_searches())
        return self.search.files(root, word)

    def use_elsewhere(
        self, attr: str, this_file: str, by_name: bool = False, naming: str | None = None
    ) -> tuple[Path, int] | None:
        """``calls.use_elsewhere`` in this tree."""
        self.search.expect(self._likely_searches())
        return calls.use_elsewhere(self.walked, attr, this_file, by_name, naming, self.search)

    def uses_digest(self, attr: str) -> str:
        return calls.uses_digest(self.walked, attr, self.search)

    def marked_files(self) -> list[tuple[Path, str]] | None:
        """(file, digest of its bytes) of each file of the tree whose bytes may hold a
        suppression (``holders.MARKS``); None where a module may be found outside the
        folders searched (an import root above them), whose marks no search sees."""
        if not all(any(root == top or top in root.parents for top in self.walked) for root in self.roots):
            return None
        self.search.expect(self._likely_searches())  # the same read of each file answers those after
        return [found for root in self.walked if root.is_dir() for found in self.search.files(root, holders.MARKS)]

    def marks_digest(self) -> str:
        """What an answer that no other file's suppression reaches rests on: ``marked_files``."""
        found = self.marked_files()
        return digest("\n".join(f"{path}:{data}" for path, data in found) if found is not None else "(unsearched)")

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
        """The files holding each word searched for, found once an index (a run)."""
        if self._search is None:
            self._search = holders.Holders(self.scans, self.reads)
        return self._search


def names_of(path: Path, scans, reads: TreeReads) -> tuple[list[str], str] | None:
    """The names ``path`` may subclass or import, and the digest of its bytes
    (``scans``: the stat record, remembering them across runs; None: none)."""

    def read(path: Path) -> tuple[list[str], str] | None:
        data = reads.read(path)
        return names_in(data) if data is not None else None

    return scans.names(path, read) if scans is not None else read(path)


def learn(path: Path, scans, reads: TreeReads) -> None:
    """What the searches of a whole tree first ask of ``path``, learnt for the
    stat record while the run reads the tree to find its candidates (a
    worker's, which the parent hears of), before any class is met: the names
    it may subclass (the subclass index), whether it holds the rules'
    name (the search for uses reads only the files that hold it), and whether
    it may hold a suppression (a migration asks, ``FileProject.marks_elsewhere``)."""
    names_of(path, scans, reads)
    if scans is not None:
        scans.holding(path, [*RULES_SEARCHED, holders.MARKS], reads.read)


def _summarize(text: str, module: str, is_package: bool) -> ModuleSummary | None:
    try:
        # not kept (``trees_kept``): the tree of the file in hand stays, for its migration
        return summarize_ast(parse_ast(text, keep=False), module, is_package)[0]
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
