"""difflib's unified diff, byte for byte, in time that grows with the size.

difflib finds the longest matching block, then recurses on each side; each
search scans every line of its range, so a big module with a change every
few lines costs its length times its number of changes (a 1 MiB module,
2,600 changes: 10 s). The blocks are the same here, found otherwise: the
runs of matching lines (on one diagonal, as difflib counts them, popular
lines aside) are listed once, and each range takes the best of a heap of
them, keyed as difflib breaks ties: longest, then first in the first
sequence, then in the second. A run that reaches outside a range is cut to
it on the way; cutting only ever makes a run rank lower, so the first run
found whole at the top of the heap is the best. The smaller side of each
split gets a heap of its own, the larger keeps its parent's.
"""

from __future__ import annotations

import bisect
import difflib
import heapq
import os

from .line_breaks import lines_kept


def unified_diff(a: list[str], b: list[str], fromfile: str, tofile: str, n: int = 3):
    """The lines ``difflib.unified_diff(a, b, fromfile, tofile)`` yields."""
    started = False
    for group in _Matcher(a, b).get_grouped_opcodes(n):
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in a[i1:i2])
                continue
            if tag in ("replace", "delete"):
                yield from ("-" + line for line in a[i1:i2])
            if tag in ("replace", "insert"):
                yield from ("+" + line for line in b[j1:j2])


def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return f"{start + 1}"
    return f"{start + 1 if length else start},{length}"


class _Matcher(difflib.SequenceMatcher):
    def __init__(self, a: list[str], b: list[str]):
        super().__init__(None, a, b)

    def get_matching_blocks(self):
        if self.matching_blocks is not None:
            return self.matching_blocks
        runs = sorted(self._runs())  # (first i, last i, j - i)
        starts, longest = [r[0] for r in runs], max((e - s + 1 for s, e, _ in runs), default=0)
        heap = [(s - e - 1, s, d, e) for s, e, d in runs]
        heapq.heapify(heap)
        found, queue = [], [(0, len(self.a), 0, len(self.b), heap)]
        while queue:
            alo, ahi, blo, bhi, heap = queue.pop()
            i, j, k = self._longest(alo, ahi, blo, bhi, heap)
            if not k:
                continue
            found.append((i, j, k))
            sides = [box for box in ((alo, i, blo, j), (i + k, ahi, j + k, bhi)) if box[0] < box[1] and box[2] < box[3]]
            sides.sort(key=lambda box: box[1] - box[0])
            for box in sides[:-1]:  # the smaller: its own heap, of the runs that may reach into it
                lo, hi = bisect.bisect_left(starts, box[0] - longest), bisect.bisect_left(starts, box[1])
                own = [(s - e - 1, s, d, e) for s, e, d in runs[lo:hi]]
                heapq.heapify(own)
                queue.append((*box, own))
            queue.extend((*box, heap) for box in sides[-1:])
        self.matching_blocks = _merged(sorted(found), len(self.a), len(self.b))
        return self.matching_blocks

    def _runs(self):
        """Each maximal run of matches on one diagonal, over lines ``b2j`` holds."""
        b2j, previous, last = self.b2j, {}, -1
        for i, line in enumerate(self.a):
            current = {j: previous.pop(j - 1, i) for j in b2j.get(line, ())}
            yield from ((s, i - 1, j - i + 1) for j, s in previous.items())
            previous, last = current, i
        yield from ((s, last, j - last) for j, s in previous.items())

    def _longest(self, alo: int, ahi: int, blo: int, bhi: int, heap: list) -> tuple[int, int, int]:
        """``find_longest_match(alo, ahi, blo, bhi)``, from the heap of runs."""
        besti, bestj, bestsize = alo, blo, 0
        while heap:
            _, s, d, e = heap[0]
            first, end = max(s, alo, blo - d), min(e, ahi - 1, bhi - 1 - d)
            if end < first:
                heapq.heappop(heap)
            elif (first, end) != (s, e):
                heapq.heapreplace(heap, (first - end - 1, first, d, end))
            else:
                besti, bestj, bestsize = s, s + d, e - s + 1
                break
        return self._extended(alo, ahi, blo, bhi, besti, bestj, bestsize)

    def _extended(self, alo, ahi, blo, bhi, besti, bestj, bestsize):
        """difflib's last step: the block grows over equal lines the runs left out."""
        a, b, junk = self.a, self.b, self.bjunk
        for is_junk in (False, True):
            while besti > alo and bestj > blo and (b[bestj - 1] in junk) == is_junk and a[besti - 1] == b[bestj - 1]:
                besti, bestj, bestsize = besti - 1, bestj - 1, bestsize + 1
            while (
                besti + bestsize < ahi
                and bestj + bestsize < bhi
                and (b[bestj + bestsize] in junk) == is_junk
                and a[besti + bestsize] == b[bestj + bestsize]
            ):
                bestsize += 1
        return besti, bestj, bestsize


def _merged(blocks: list[tuple[int, int, int]], la: int, lb: int) -> list:
    """Adjacent blocks as one, and the closing (la, lb, 0), as difflib gives them."""
    out, (i1, j1, k1) = [], (0, 0, 0)
    for i2, j2, k2 in blocks:
        if i1 + k1 == i2 and j1 + k1 == j2:
            k1 += k2
        else:
            if k1:
                out.append((i1, j1, k1))
            i1, j1, k1 = i2, j2, k2
    if k1:
        out.append((i1, j1, k1))
    out.append((la, lb, 0))
    return [difflib.Match._make(block) for block in out]


def _from_here(name: str) -> str:
    if not os.path.isabs(name):
        return name
    try:
        here = os.path.relpath(name)
    except ValueError:  # another drive
        return name
    return name if here.startswith(os.pardir) else here


def file_diff(name: str, old: str, new: str) -> str:
    """A file's diff as git shows it: ``a/``/``b/`` names, a note where a side ends without a newline.
    A path given absolute is named from the current folder where it is inside
    it, as ruff names it; elsewhere by its own name on both sides, as black and
    ``diff -u`` write it (never ``a/`` and the absolute path)."""
    name = _from_here(name)
    before, after = (name, name) if os.path.isabs(name) else (f"a/{name}", f"b/{name}")
    lines = unified_diff(lines_kept(old), lines_kept(new), before, after)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
