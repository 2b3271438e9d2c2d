"""What one file's answers about the rest of the tree rest on, for the cache.

Made fresh with each file's view of the tree (``Index.file``), and carried
by the file's ``Result`` to the cache, which stores the result with
``Index.dependencies`` of them: the modules looked in (found or not), the
words the tree was searched for subclasses of, the rules it was searched for
uses of, whether it was searched for files that may hold a suppression;
whether a module was seen as a text not on disk (the file's own rewrites), a
cycle of broken code was cut, or an answer rested on another file's
migration (``rules/decisions.py``): such results are never cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Answers:
    touched: set[str] = field(default_factory=set)  # modules looked in, found or not
    searched: set[str] = field(default_factory=set)  # words searched for subclasses of
    used: set[str] = field(default_factory=set)  # rules searched for uses of
    marks: bool = False  # the tree was searched for files that may hold a suppression
    rewritten: set[str] = field(default_factory=set)  # modules seen as a text not on disk (the file's rewrites)
    cyclic: bool = False  # a cycle was cut: the answer depends on where the walk began
    volatile: bool = False  # an answer rested on another file's migration

    @property
    def cacheable(self) -> bool:
        return not (self.cyclic or self.volatile)
