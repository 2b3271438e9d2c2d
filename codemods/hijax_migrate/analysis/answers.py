"""What one file's answers about the rest of the tree rest on, for the cache.

Made fresh for each file (``Project.start_file``) and handed back to whoever
migrates it, which stores the file's result with ``Project.dependencies`` of
it: the modules looked in (found or not), the words the tree was searched
for subclasses of, the rules it was searched for uses of; whether a cycle
of broken code was cut, or an answer rested on another file's migration
(``rules/decisions.py``): such results are never cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Answers:
    touched: set[str] = field(default_factory=set)  # modules looked in, found or not
    searched: set[str] = field(default_factory=set)  # words searched for subclasses of
    used: set[str] = field(default_factory=set)  # rules searched for uses of
    cyclic: bool = False  # a cycle was cut: the answer depends on where the walk began
    volatile: bool = False  # an answer rested on another file's migration

    @property
    def cacheable(self) -> bool:
        return not (self.cyclic or self.volatile)
