"""Files linked through their classes, read by name from their bytes: one
defines a class, another subclasses it or names it. An in-place run writes
each connected group as one unit (a family is never left half-migrated);
a git hook checks the files a change links to. Imports are not resolved:
two classes of one name link their files, a superset that costs a larger
unit or check, never a missed file.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..core.brackets import closing, ended_early, generic_arguments
from ..core.line_breaks import as_line_feeds

# Searched from its literal start (a pattern anchored at each line is tried at
# every line of every file: 0.7 s for a 3,000-file tree); the line before it is then
# checked to be indentation, as ``^[ \t\f]*`` would. Between tokens, Python's blanks
# (a form feed too) and a line continued; a name may have letters beyond ASCII.
_WS = rb"(?:[ \t\f]|\\\r?\n)"
_NAME_BYTES = rb"(?:\w|[\x80-\xff])+"
_CLASS = re.compile(rb"class" + _WS + rb"+(" + _NAME_BYTES + rb")" + _WS + rb"*(?:\(([^)]*)\))?")
_KEYWORD = re.compile(rb"class" + _WS)
_NAME = re.compile(_NAME_BYTES)


def file_bytes(path) -> bytes:
    """A file's bytes, for ``Links``; none where it cannot be read (it then links nothing)."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def classes(data: bytes) -> list[tuple[bytes, set[bytes]]]:
    """Each class defined (at any depth): its name and every name in its bases."""
    found, end, data = [], 0, as_line_feeds(data)  # a line starts after a lone \r too
    for keyword in _KEYWORD.finditer(data):
        at = keyword.start()
        if at < end or data[data.rfind(b"\n", 0, at) + 1 : at].strip(b" \t\f"):
            continue  # inside the last class's bases, or not at a line's start
        match = _CLASS.match(data, at)
        if match:
            bases, end = _bases(data, match)
            generic = generic_arguments(data, at)  # ``class A[T](Base):``
            found.append((match.group(1), set(_NAME.findall(bases if generic is None else generic))))
    return found


def _bases(data: bytes, match: re.Match) -> tuple[bytes, int]:
    """A class's argument list, and where it ends: past the first ``)``, or, where that may
    be inside a string or a comment (``brackets.ended_early``), where Python ends it (not
    sure: every name to the file's end, a superset; the classes after it still read)."""
    if match.group(2) is None or not ended_early(match.group(2)):
        return match.group(2) or b"", match.end()
    opening = match.start(2) - 1
    end = closing(data, opening)
    return data[opening:end], end if end is not None else match.end()


class Links:
    """The classes of a set of files (key -> bytes), and who defines and extends each name."""

    def __init__(self, texts: dict):
        self.texts = texts
        self.classes = {key: classes(data) for key, data in texts.items()}
        self.defines, self.extends = defaultdict(set), defaultdict(set)
        for key, found in self.classes.items():
            for name, bases in found:
                self.defines[name].add(key)
                for base in bases:
                    self.extends[base].add(key)

    def below(self, key) -> set:
        """The files of its classes' direct subclasses."""
        return {f for name, _ in self.classes.get(key, ()) for f in self.extends[name]}

    def above(self, key) -> set:
        """The files of its classes' direct bases."""
        return {f for _, bases in self.classes.get(key, ()) for base in bases for f in self.defines[base]}

    def users(self, keys: set) -> set:
        """The files naming a class that ``keys`` define, as a whole word: one
        search of each file for those names (splitting every file of a tree
        into its words took a hook 2 s)."""
        names = sorted({name for key in keys for name, _ in self.classes.get(key, ())})
        if not names:
            return set()
        named = re.compile(rb"(?<!\w)(?:" + b"|".join(map(re.escape, names)) + rb")(?!\w)")
        return {
            key
            for key, data in self.texts.items()  # a substring first: most files name none
            if any(name in data for name in names) and named.search(data)
        }


def closure(start: set, linked) -> set:
    """``start`` and whatever ``linked`` leads to from it, transitively."""
    found, frontier = set(start), sorted(start)
    while frontier:
        new = linked(frontier.pop()) - found
        found |= new
        frontier += sorted(new)
    return found


def groups(texts: dict, wanted: list) -> list[list]:
    """``wanted`` (keys of ``texts``, or others, alone) in groups: files
    linked through bases and subclasses across every file of ``texts``, and
    a wanted file with the files of the classes it names (a call of a rule
    renamed there); each group in the order of ``wanted``."""
    links, parent = Links(texts), {}

    def root(key):
        while parent.get(key, key) != key:
            parent[key] = key = parent.get(parent[key], parent[key])
        return key

    def join(keys) -> None:
        keys = sorted(keys, key=str)
        for other in keys[1:]:
            parent[root(other)] = root(keys[0])

    for name, definers in links.defines.items():  # files defining one name are linked by a subclass only
        if links.extends.get(name):
            join(definers | links.extends[name])
    for key in wanted:  # the classes it names but does not define
        words = set(_NAME.findall(texts.get(key, b""))) & links.defines.keys()
        words -= {name for name, _ in links.classes.get(key, ())}
        join({key, *(f for word in words for f in links.defines[word])})
    found: dict = {}
    for key in wanted:
        found.setdefault(root(key), []).append(key)
    return list(found.values())
