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

from pathlib import Path

from ..tree.class_links import Links, closure, file_bytes


def related(top: Path, names: list[str], sources: list[str]) -> list[str]:
    """``names`` and the files of ``sources`` (relative to ``top``) that hold
    their classes' bases and subclasses, transitively, or use a class of
    theirs or of a subclass by name. A sibling (another subclass of a base)
    is not: its verdict rests on the base, which did not change."""
    links = Links({path: file_bytes(top / path) for path in sources})
    down = closure(set(names), links.below)
    up = closure(set(names), links.above)
    return sorted(down | up | links.users(down))
