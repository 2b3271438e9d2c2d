"""Lines of a rewritten text read as lines of the file.

Rules run one after another on the text the previous one wrote: a rule after
a rewrite that shrank the file (0.11.0's helpers made pairs above) would name
the line in that text, not where the code stands in the file (FINDINGS N11).
The engine gives each rule's primitive map the way back through the rewrites
before it (``PrimitiveMap.line``).
"""

from __future__ import annotations

from ..core.line_breaks import lines_kept
from ..core.linediff import _Matcher


class Origins:
    """For each line of the current text, the line of the input it stands for
    (worked out when a line is first asked for: a rewrite no later rule
    reports on costs no diff)."""

    def __init__(self, code: str):
        self._texts = [code]  # the input, then each rewrite not yet followed
        self._of: list[int] | None = None  # 1-based, [0] unused; None: the input itself

    def follow(self, new: str) -> None:
        """``new``, a rewrite of the current text, is now current."""
        self._texts.append(new)

    def line(self, line: int) -> int:
        while len(self._texts) > 1:
            step = _step(lines_kept(self._texts[0]), lines_kept(self._texts[1]))
            self._of = step if self._of is None else [self._back(at) for at in step]
            del self._texts[0]
        return self._back(line)

    def _back(self, line: int) -> int:
        if self._of is None or not 0 < line < len(self._of):
            return line
        return self._of[line]


def _step(old: list[str], new: list[str]) -> list[int]:
    """Line of ``new`` -> line of ``old``: a line kept, its own; a line of a
    rewritten block, the old block's line at the same offset (its last past
    the end); an inserted line, the old line after it (the last, at the end)."""
    of, last = [0], max(len(old) - 1, 0)
    for _, i1, i2, j1, j2 in _Matcher(old, new).get_opcodes():
        of += [min(i1 + k, max(i2 - 1, i1), last) + 1 for k in range(j2 - j1)]
    return of
