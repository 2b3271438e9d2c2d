"""Which class's rule a use of ``.attr`` can reach, as Python would decide it.

A site (``sites``) is resolved in its module's summary: ``self.attr`` in a
method of C reaches the rule the method resolution order of C, or of any
subclass of C, finds first; ``super().attr`` the rule after C in those
orders; ``Cls.attr`` the rule of Cls's order; a class picked from the
hierarchy of ``self`` or of a class (``type(self).__mro__[1].attr``, ``ROOTED``)
the rule any of those orders finds from any of its classes on. An object whose class is not
visible may be an instance of any class, so it reaches every rule whose
signature its call can bind (a value use, not called there, binds any).
What stays unknown thus affects only the rules it can reach.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from ..sources.files import as_read
from ..tree.calls import real_path
from .ast_summary import summarize_ast
from .constants import ModuleConstants, constants_of_text
from .families import Classes, ancestors, descendants, first_definer, form
from .name_refs import NameRef, name_refs
from .project import HIJAX_MODULES, FileProject
from .scopes import CLASSIC, ClassInfo, ModuleSummary
from .sites import NAME, ROOTED, SELF, SUPER, UNKNOWN, Site, sites


@dataclass(frozen=True)
class Use:
    where: str  # "line 12" in the file itself, else "path:12"
    site: Site
    owners: tuple[ClassInfo, ...] = ()  # the classes it resolves from; none: unknown (or outside the tree)

    @property
    def resolved(self) -> bool:
        return self.site.how != UNKNOWN


@dataclass(frozen=True)
class Arity:
    """The arguments a rule takes after ``self``: ``least`` to ``most`` (None: any number)."""

    least: int
    most: int | None

    def binds(self, args: int | None) -> bool:
        return args is None or (self.least <= args and (self.most is None or args <= self.most))


def resolve(project: FileProject, site: Site, summary: ModuleSummary, where: str) -> Use | None:
    """The classes a site starts from; None where it can reach no rule of the
    tree (a name of jax's own classes, ``VJPHiPrimitive.vjp_bwd``)."""
    classes = {info.qualname: info for info in summary.every_class}
    owner = classes.get(site.cls) if site.cls else None
    if site.name is None and site.how in (SELF, SUPER, ROOTED):
        return Use(where, site, (owner,)) if owner is not None else Use(where, _unknown(site))
    scope = owner.scope if owner is not None else summary.scope
    found = tuple(project.classes_of_name(scope, site.name))
    if found:
        return Use(where, site, found)
    if site.how == NAME and _from_jax(scope, site.name):
        return None
    return Use(where, _unknown(site))


def _unknown(site: Site) -> Site:
    return Site(site.line, UNKNOWN, site.cls, None, site.args)


def _from_jax(scope, dotted: str) -> bool:
    bindings = scope.lookup(dotted.partition(".")[0])
    return bool(bindings) and all(b[0] == "import" and b[1].startswith(HIJAX_MODULES) for b in bindings)


def reaches(
    project: FileProject, use: Use, target: ClassInfo, attr: str, arity: Arity, here: list[ClassInfo] | None = None
) -> bool:
    """Can ``use`` call (or hand on) ``target``'s own ``attr``? ``here``: the classes of the
    use's module, where the project may not know it (a text migrated alone)."""
    if not use.resolved:
        return arity.binds(use.site.args)
    return any(
        _is(first_definer(order, attr), target)
        for owner in use.owners
        for order in _orders(project, use.site, owner, here)
    )


def _is(found: ClassInfo | None, target: ClassInfo) -> bool:
    return found is not None and found.key == target.key


def _orders(project: FileProject, site: Site, owner: ClassInfo, known=None) -> Iterator[list[ClassInfo]]:
    """The method resolution orders the lookup of ``site`` may walk."""
    if site.how == NAME:
        yield [owner, *ancestors(project, owner)]
        return
    summary = project.first_summary(owner.module)
    here = Classes(summary.every_class if summary is not None else known or [owner])
    for cls in [owner, *descendants(project, owner, here)]:
        order = [cls, *ancestors(project, cls)]
        keys = [c.key for c in order]
        if site.how == ROOTED:  # any class of the order may be the one picked
            yield from (order[i:] for i in range(len(order)))
        else:
            yield order if site.how == SELF else order[keys.index(owner.key) + 1 :]


def classic_family(project: FileProject, info: ClassInfo) -> list[ClassInfo]:
    """``info`` and the classes joined to it by inheritance that define a value
    ``vjp_bwd``: one strategy must give them all one form (an accumulator rule
    beside an inherited ``vjp_bwd_retval`` overrides both)."""
    found, todo = {info.key: info}, [info]
    while todo:
        cls = todo.pop()
        summary = project.first_summary(cls.module)
        here = Classes(summary.every_class if summary is not None else [cls])
        for other in [*ancestors(project, cls), *descendants(project, cls, here)]:
            if other.key not in found and form(other) == CLASSIC:
                found[other.key] = other
                todo.append(other)
    return sorted(found.values(), key=lambda cls: cls.key)


def file_uses(
    project: FileProject,
    tree: ast.Module,
    summary: ModuleSummary,
    attr: str,
    shown: str,
    lines: list[int] | None = None,
) -> list[Use]:
    """The uses of ``attr`` in one module; ``shown``: how its sites are named ("": by line);
    ``lines``: where the name stands, if known (``sites``)."""
    found = (
        resolve(project, site, summary, f"{shown}:{site.line}" if shown else f"line {site.line}")
        for site in sites(tree, attr, lines)
    )
    return [use for use in found if use is not None]


def tree_uses(project: FileProject, attr: str, this_file: str) -> list[Use]:
    """The uses of ``attr`` in the other Python files of the trees holding ``this_file``."""
    files = other_files(project, attr, this_file)
    return [use for root, path in files for use in _uses_of_file(project, root, path, attr)]


def other_files(project: FileProject, word: str, this_file: str) -> Iterator[tuple]:
    """(root, path) of each other Python file of the trees holding ``this_file`` whose bytes
    hold ``word``; a cached result rests on them (``answers.used``)."""
    project.answers.used.add(word)
    this = real_path(this_file, project.roots)  # the file may be shown by a name relative to its root
    seen = {this}
    for root in project.walked:  # a file under two roots (a folder and its package root) counts once
        if not this.startswith(os.path.join(os.path.realpath(root), "")):
            continue
        for path, _ in project.index.files_holding(root, word):
            real = os.path.realpath(path)
            if path.suffix == ".py" and real not in seen:
                seen.add(real)
                yield root, path


def parsed_file(project: FileProject, root, path) -> tuple[ModuleSummary | None, ast.Module | None]:
    """(summary, tree) of another file of the tree, as found; (None, None) where ``ast``
    cannot read it."""
    data = project.reads.read(path)
    try:
        tree = _parsed(project, data.decode("utf-8", "replace") if data is not None else "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, None
    return _summary_of(project, root, path, tree), tree


def _uses_of_file(project: FileProject, root, path, attr: str) -> list[Use]:
    data = project.reads.read(path)
    read = as_read(data) if data is not None else None  # the names as Python reads them
    if read is not None and not _dotted(attr).search(read):  # the word only defined or quoted: not parsed
        return []  # (broken or not: no text there can be a use)
    try:
        tree = _parsed(project, data.decode("utf-8", "replace") if data is not None else "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # unreadable: a use there is unknown
        return [Use(f"{path}:1", Site(1, UNKNOWN, None))]
    return file_uses(
        project,
        tree,
        _summary_of(project, root, path, tree),
        attr,
        str(path),
        _lines_naming(read, attr) if read is not None else None,
    )


def _parsed(project: FileProject, text: str) -> ast.Module:
    """``ast.parse(text)`` of another file, the last kept in the view: the search for uses
    and the one for references by name both read the modules of a family's bases. Kept
    only where the parse warns of nothing: one that warns is parsed each time, as it was,
    its warnings shown (or raised, as errors) each time."""
    kept = project.other_tree
    if kept is not None and kept[0] == text:
        return kept[1]
    heard: list = []
    try:
        with warnings.catch_warnings(record=True) as heard:
            warnings.simplefilter("always")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        if not heard:
            raise  # as the parse would, warning of nothing
    if heard:  # parsed again, as it was: what it warns of is shown (or raised) again
        return ast.parse(text)
    project.other_tree = (text, tree)
    return tree


def _lines_naming(data: bytes, attr: str) -> list[int] | None:
    """The lines ``attr`` stands on, as ``ast`` numbers them (None where a lone
    carriage return or a form feed could make the count differ)."""
    if b"\r" in data or b"\f" in data:
        return None
    return sorted({data.count(b"\n", 0, found.start()) + 1 for found in re.finditer(re.escape(attr.encode()), data)})


@functools.cache
def _dotted(attr: str) -> re.Pattern:
    """``.attr`` as Python may write it: the dot and the name apart by spaces,
    a backslash line break, or (in brackets) line breaks and comments. A
    comment runs to its line's end: a line of ``#`` matches one way, not 2**n."""
    return re.compile(rb"\.(?:[ \t\f\r\n]|\\\r?\n|#[^\r\n]*[\r\n])*" + re.escape(attr.encode()) + rb"\b")


def _summary_of(project: FileProject, root, path, tree: ast.Module) -> ModuleSummary:
    """The project's summary of the file (its names resolved as the project
    does), or, where its module name finds another file, one of its own."""
    names = project.reads.packages.module_names(path, root)
    real = os.path.realpath(path)
    for name in names:
        found = project.find(name)
        if found is not None and os.path.realpath(found) == real and project.first_summary(name) is not None:
            return project.first_summary(name)
    return summarize_ast(tree, names[0] if names else "", path.name == "__init__.py")[0]


# -- references by name (``name_refs``): ``getattr(cls, NAME)``, ``vars(cls)["vjp_bwd"]``...


@dataclass(frozen=True)
class NamedUse:
    """A reference by name, where it stands, and the classes its object may be."""

    where: str
    ref: NameRef
    uses: tuple[Use, ...]  # one a site resolved (none: each site is one of jax's own classes)
    here: tuple[ClassInfo, ...] = ()  # the classes of its module


def reaches_by_name(project: FileProject, named: NamedUse, target: ClassInfo, attr: str) -> bool:
    """Can ``named`` reach ``target``'s own ``attr``? A key that may be any name reaches it
    only from an object whose class is known (``getattr(o, k)`` of unknown ``o`` and ``k``
    stands in most libraries, and is no reference to a rule)."""
    names = named.ref.names
    if names is not None and attr not in names:
        return False
    if names is not None and any(not use.resolved for use in named.uses):
        return True
    return any(
        use.resolved and reaches(project, use, target, attr, Arity(0, None), list(named.here)) for use in named.uses
    )


def file_named_uses(
    project: FileProject, tree: ast.Module, summary: ModuleSummary, source: str | None, shown: str, origin=None
) -> list[NamedUse]:
    """The references by name of one module; ``shown``: how its lines are named ("": by line)."""
    constants = ModuleConstants.of(
        tree, imported=imported_constant(project), module=summary.module, is_package=_is_package(project, summary)
    )
    found = []
    for ref in name_refs(tree, constants, source):
        line = origin(ref.line) if origin is not None else ref.line
        where = f"{shown}:{line}" if shown else f"line {line}"
        uses = (resolve(project, site, summary, where) for site in ref.sites)
        found.append(NamedUse(where, ref, tuple(use for use in uses if use is not None), tuple(summary.every_class)))
    return found


def _is_package(project: FileProject, summary: ModuleSummary) -> bool:
    path = project.find(summary.module) if summary.module else None
    return path is not None and path.name == "__init__.py"


def imported_constant(project: FileProject):
    """How a module's constants follow ``from m import NAME`` into the tree's modules."""

    def imported(module: str, name: str, depth: int, what: str):
        project.answers.touched.add(module)  # a cached answer rests on it, found or not
        path = project.find(module)
        text = _text(project, path) if path is not None else None
        if text is None:
            return None
        constants = constants_of_text(text, module, path.name == "__init__.py", imported)
        return constants.name(name, (), depth + 1, what) if constants is not None else None

    return imported


def _text(project: FileProject, path) -> str | None:
    data = project.reads.read(path)
    return data.decode("utf-8", "replace") if data is not None else None


def tree_named_uses(project: FileProject, family: list[ClassInfo], this_file: str, memo: dict) -> list[NamedUse]:
    """The references by name in other files of the tree that may reach ``family``: the
    modules of its classes and of their ancestors (``self``/``cls`` in a base, its
    ``__init_subclass__``), and the files naming one of its classes (importing it);
    ``memo``: each file's, found once (for one file's migration). Not jax's own hijax
    modules, in a tree that is jax: what they reach by name is the API's dispatch, which
    the rules model (jax 0.12's ``hijax.py``, 69 kB, parsed for nothing)."""
    this = real_path(this_file, project.roots)
    paths = {}
    for info in [*family, *(a for member in family for a in ancestors(project, member))]:
        if info.module in HIJAX_MODULES:
            continue
        path = project.find(info.module) if info.module else None
        if path is not None:
            paths.setdefault(os.path.realpath(path), (path, None))
    for info in family:
        word = info.qualname.rsplit(".", 1)[-1]
        project.answers.searched.add(word)  # a cached result rests on the files naming it
        for path, root, _ in project.index.naming_files(word):
            paths.setdefault(os.path.realpath(path), (path, root))
    found = []
    for real, (path, root) in sorted(paths.items()):
        if real != this:
            if real not in memo:
                memo[real] = _named_uses_of_file(project, path, root)
            found += memo[real]
    return found


def _named_uses_of_file(project: FileProject, path, root) -> list[NamedUse]:
    text = _text(project, path)
    try:
        tree = _parsed(project, text if text is not None else "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # unreadable: not a reference we can tell
        return []
    root = root if root is not None else project.reads.packages.package_root(path)
    return file_named_uses(project, tree, _summary_of(project, root, path, tree), text, str(path))


def shown_reference(named: NamedUse) -> str:
    """Where a reference by name stands and what it is, for a finding."""
    unknown = ", a name not known before the code runs" if named.ref.names is None else ""
    return f"{named.where} (`{named.ref.form}`{unknown})"
