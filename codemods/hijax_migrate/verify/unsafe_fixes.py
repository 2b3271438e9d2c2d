"""``--unsafe-fixes --verify CMD``: the unsafe fixes proposed in the copy,
each family's kept only where CMD shows nothing broken with it (``keep``).

The tool first migrates the copy with its unsafe fixes, from the text as
found (a family's files together, as ``--in-place --unsafe-fixes`` would),
then, put back, safely: the files the two write otherwise hold the fixes,
and the others are the safe migration's. They are grouped as an in-place run
groups its units (``tree.class_links``: files whose classes
link by name, a superset of a family), so that no family is kept half
renamed. CMD's after run over the safe migration is the reference; the runs
``keep.decide`` asks for write some groups' files over it, and the copy is
left with the kept groups' files, which the comparison and ``--in-place``
then take as the migration's.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.model import Outcome
from ..tree.class_links import Links, closure, file_bytes
from . import invocation, keep, process
from . import outcomes as reading


@dataclass
class Proposed:
    """The unsafe run's files: by group key, the project paths; each path's bytes with the
    fix and in the safe migration; the unsafe run's outcome of each (by its name)."""

    groups: dict[str, list[Path]]
    fixed: dict[Path, bytes]
    safe: dict[Path, bytes]
    original: dict[Path, bytes]  # in the project, before the runs (a file edited meanwhile is not written)
    outcomes: dict[Path, Outcome] = field(default_factory=dict)


def proposed(safe_run, unsafe_run) -> Proposed | None:
    """The fixes: the files the unsafe run (``unsafe_run``, a ``Migrated`` of the copy as found)
    wrote otherwise than the safe run (``safe_run``, of the same text), grouped. None: none."""
    safe = {path: safe_run.new.get(path, unsafe_run.old[path]) for path in unsafe_run.new}
    fixed = {path: data for path, data in unsafe_run.new.items() if data != safe[path]}
    if not fixed:
        return None
    names = {name: path for name, path in unsafe_run.paths.items() if path in fixed}
    named = {path: outcome for outcome in unsafe_run.outcomes if (path := names.get(outcome.file))}
    return Proposed(_grouped(names), fixed, safe, dict(unsafe_run.old), named)


def _grouped(paths: dict[str, Path]) -> dict[str, list[Path]]:
    """The changed files in groups linked through their classes, each keyed by its files' names."""
    texts = {name: file_bytes(path) for name, path in paths.items() if path.suffix == ".py"}
    links, left, groups = Links(texts), sorted(paths), {}
    while left:
        found = closure({left[0]}, lambda name: (links.above(name) | links.below(name)) & set(paths))
        groups[", ".join(sorted(found))] = [paths[name] for name in sorted(found)]
        left = [name for name in left if name not in found]
    return groups


@dataclass
class Kept:
    decisions: list[keep.Decision]
    groups: dict[str, list[Path]]
    after: reading.Outcomes  # CMD's, with the kept groups' fixes written


def kept(plan, copy, fixes: Proposed, base: reading.Outcomes, say) -> Kept:
    """Each group's decision (``keep.decide``) from runs of CMD's after side in the copy;
    the copy left with the kept groups' fixes over the safe migration."""
    count, seen = itertools.count(1), {}

    def run(keys: frozenset[str]) -> reading.Outcomes:
        if keys not in seen:
            _write(copy.inside, fixes, keys)
            say(f"verify: running CMD after the migration with the unsafe fixes of {_named(keys)}")
            seen[keys] = _after_run(plan, copy, f"unsafe-{next(count)}")
        return seen[keys]

    decisions = keep.decide(list(fixes.groups), run, base)
    chosen = keep.kept(decisions)
    after = run(chosen) if chosen else base
    _write(copy.inside, fixes, chosen)
    return Kept(decisions, fixes.groups, after)


def _write(inside, fixes: Proposed, keys: frozenset[str]) -> None:
    """The copy's files of every group: with the fixes for ``keys``, else as migrated safely."""
    for key, paths in fixes.groups.items():
        for path in paths:
            inside(path).write_bytes(fixes.fixed[path] if key in keys else fixes.safe[path])


def _after_run(plan, copy, name: str) -> reading.Outcomes:
    results = copy.top / f"{name}.jsonl"
    side = invocation.side("after", plan.command, plan.root, copy.tree, results, plan.python)
    return reading.read(results, process.run(side, copy.top / f"{name}.log", plan.timeout))


def _named(keys: frozenset[str]) -> str:
    return "; ".join(sorted(keys)) or "none"


def merged(migrated, fixes: Proposed, found: Kept):
    """``migrated`` (the safe run's ``Migrated``) with the kept groups' files as the
    unsafe run wrote them: their bytes, and its outcomes of them (which say so); the
    dropped ones' refusals carry no fix any more (the report says why it was dropped)."""
    paths = {path for key in keep.kept(found.decisions) for path in found.groups[key]}
    named = {fixes.outcomes[path].file: path for path in paths if path in fixes.outcomes}
    outcomes = [fixes.outcomes[named[o.file]] if o.file in named else _unfixed(o) for o in migrated.outcomes]
    return replace(
        migrated,
        outcomes=outcomes,
        paths={**migrated.paths, **named},
        new={**migrated.new, **{path: fixes.fixed[path] for path in paths}},
        old={**migrated.old, **{path: fixes.original[path] for path in paths}},
    )


def _unfixed(outcome: Outcome) -> Outcome:
    findings = [replace(f, fix=None) if f.fix is not None else f for f in outcome.findings]
    return replace(outcome, findings=findings)
