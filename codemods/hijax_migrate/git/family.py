"""The files a hook must check for a change: the changed files, and the
files of their class families across the tree, bases and subclasses (a base
made a primitive puts each unchanged subclass file in question), and the
files that use one of their classes by name (a rule renamed is renamed at
its calls).

Read from the checked tree's bytes, by name, without resolving imports: two
classes of one name count as one family. A superset is safe here, where
missing a file lets through a commit that ``--check .`` fails.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

_CLASS = re.compile(rb"^[ \t]*class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?", re.MULTILINE)
_NAME = re.compile(rb"\w+")


def related(top: Path, names: list[str], sources: list[str]) -> list[str]:
    """``names`` and the files of ``sources`` (relative to ``top``) that hold
    their classes' bases and subclasses, transitively, or use a class of
    theirs or of a subclass by name. A sibling (another subclass of a base)
    is not: its verdict rests on the base, which did not change."""
    texts = {path: _read(top / path) for path in sources}
    classes = {path: _classes(data) for path, data in texts.items()}
    defines, extends = defaultdict(set), defaultdict(set)
    for path, found in classes.items():
        for name, bases in found:
            defines[name].add(path)
            for base in bases:
                extends[base].add(path)
    down = _closure(set(names), lambda path: {f for name, _ in classes.get(path, ()) for f in extends[name]})
    up = _closure(set(names), lambda path: {f for _, bases in classes.get(path, ()) for b in bases for f in defines[b]})
    named = {name for path in down for name, _ in classes.get(path, ())}
    return sorted(down | up | _users(texts, named))


def _closure(start: set[str], linked) -> set[str]:
    found, frontier = set(start), sorted(start)
    while frontier:
        new = linked(frontier.pop()) - found
        found |= new
        frontier += sorted(new)
    return found


def _users(texts: dict[str, bytes], named: set[bytes]) -> set[str]:
    if not named:
        return set()
    pattern = re.compile(rb"\b(?:" + b"|".join(map(re.escape, sorted(named))) + rb")\b")
    return {path for path, data in texts.items() if pattern.search(data)}


def _classes(data: bytes) -> list[tuple[bytes, set[bytes]]]:
    """Each class defined (at any depth): its name and every name in its bases."""
    return [(match.group(1), set(_NAME.findall(match.group(2) or b""))) for match in _CLASS.finditer(data)]


def _read(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""
