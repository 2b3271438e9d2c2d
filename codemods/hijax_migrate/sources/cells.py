"""Code in cells (notebook cells, Markdown fences), migrated as one module.

The cells are joined, each after a marker statement, so that a subclass in
one cell sees its base in another; the result is split back at the markers.
IPython line magics and shell escapes (``%time``, ``!pip``) are masked as
placeholder statements and restored, and so is the first line of a cell
magic whose body is Python (``%%time``). A cell that still does not parse
(another cell magic, a doctest, broken code) is left exactly as it is, with
a warning when it names hijax; a name imported elsewhere that such a cell or a
masked line uses is never renamed: the document is then left as it is, with
an error naming the cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..core.errors import MigrationError
from ..core.line_breaks import lines_kept
from ..core.model import FileReport, Finding
from .files import is_candidate_text

_MARKER = "__hijax_migrate_cell__({})\n"
_MARKER_LINE = re.compile(r"^__hijax_migrate_cell__\((\d+)\)\n", re.M)
_MAGIC = re.compile(r"^([ \t]*)([%!].*)$")
_MASK = "__hijax_migrate_magic__({})"
_MASK_LINE = re.compile(r"__hijax_migrate_magic__\((\d+)\)")
# Cell magics that run their body as Python, in the notebook's namespace.
_PYTHON_CELL_MAGIC = re.compile(r"\s*%%(?:time|timeit|capture|prun)\b")
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Cell:
    code: str
    where: str  # how a person finds it: "cell 3", "line 12"
    first_line: int = 0  # its first line in the document, where lines mean something there
    number: int = 0  # a notebook's cell number, for machine reports


def _mask(code: str, magics: list[str]) -> str:
    lines = lines_kept(code)
    for index, line in enumerate(lines):
        match = _MAGIC.match(line.rstrip("\r\n"))
        if match:
            magics.append(match.group(2))
            ending = line[len(line.rstrip("\r\n")) :]
            lines[index] = f"{match.group(1)}{_MASK.format(len(magics) - 1)}{ending}"
    return "".join(lines)


def _unmask(code: str, magics: list[str]) -> str:
    return _MASK_LINE.sub(lambda m: magics[int(m.group(1))], code)


def _parses(code: str) -> str | None:
    """None if ``code`` parses alone, else why not."""
    from .parse import problem

    error = problem(code)
    if error is None:
        return None
    return f"{error} (line {error.line})" if error.line else str(error)


@dataclass
class _Joined:
    """The cells as one module, and what it takes to split it back."""

    parts: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # each cell's first line in the module
    usable: list[bool] = field(default_factory=list)  # parsed, so part of the module
    magics: list[str] = field(default_factory=list)  # masked lines, by mask number
    magic_cells: list[int] = field(default_factory=list)  # the cell of each masked line
    lines: int = 0

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.lines += text.count("\n")


def _prepare(cell: Cell, magics: list[str]) -> tuple[str, str | None]:
    """The cell's code with magics masked, and why it cannot be used (or None)."""
    if cell.code.lstrip().startswith("%%") and not _PYTHON_CELL_MAGIC.match(cell.code):
        return cell.code, "a cell magic (%%): not Python"
    code = _mask(cell.code, magics)
    return code, _parses(code)


def _join(cells: list[Cell], report: FileReport, words) -> _Joined:
    joined = _Joined()
    for index, cell in enumerate(cells):
        code, problem = _prepare(cell, joined.magics)
        joined.magic_cells += [index] * (len(joined.magics) - len(joined.magic_cells))
        if problem is not None and is_candidate_text(cell.code.encode(), words):
            report.findings.append(
                Finding(report.file, cell.first_line, f"{cell.where}: left as it is: {problem}", cell=cell.number)
            )
        joined.usable.append(problem is None)
        joined.add(_MARKER.format(index))
        joined.starts.append(joined.lines + 1)
        if problem is None:
            joined.add(code if code.endswith("\n") else code + "\n")
    return joined


def migrate_cells(cells: list[Cell], migrate, report_file: str, words) -> tuple[list[str], FileReport]:
    """``migrate(code) -> engine.Result`` over the joined cells; the new code
    of each cell, and the report with each line named by its cell. A cell
    that cannot be used is reported where it names one of ``words`` (every
    rule's)."""
    report = FileReport(report_file)
    joined = _join(cells, report, words)
    if not any(joined.usable):
        return [cell.code for cell in cells], report
    try:
        result = migrate("".join(joined.parts))
    except MigrationError as error:  # named where it stands: the document's line, or the cell's
        if not error.line:
            raise
        at, prefix = _where(error.line, cells, joined.starts)
        raise MigrationError(prefix + str(error), at["line"]) from error
    _check_opaque("".join(joined.parts), result.code, cells, joined)
    texts = _split(result.code, cells, joined.usable, joined.magics)
    _relocate(result.report, report, cells, joined.starts)
    report.primitives = result.report.primitives
    return texts, report


def _check_opaque(old: str, new: str, cells: list[Cell], joined: _Joined) -> None:
    """Text the rewrite cannot see (cells left as they are, masked lines) must
    not use a name the rewrite renamed: it would be unbound when that text runs."""
    if old == new:
        return
    gone = {w for w in _imported(old) if len(re.findall(rf"\b{w}\b", new)) < len(re.findall(rf"\b{w}\b", old))}
    opaque = [(cells[i], cells[i].code, "is not Python") for i, usable in enumerate(joined.usable) if not usable]
    opaque += [
        (cells[i], line, f"has a magic line `{line.strip()}`") for i, line in zip(joined.magic_cells, joined.magics)
    ]
    for cell, text, what in opaque:
        used = sorted(gone & set(_WORD.findall(text)))
        if used:
            raise MigrationError(
                f"{cell.where} {what} that uses `{used[0]}`, which the migration renames where it "
                "is imported: the document is left as it is; rename it there by hand, or migrate "
                "the document by hand",
                cell.first_line,
            )


def _imported(code: str) -> set[str]:
    """Names the code binds by import (every word of an import where ``ast`` cannot read it)."""
    import ast

    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(_WORD.findall(code))
    return {
        (alias.asname or alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }


def _split(code: str, cells: list[Cell], usable: list[bool], magics: list[str]) -> list[str]:
    markers = list(_MARKER_LINE.finditer(code))
    if [int(m.group(1)) for m in markers] != list(range(len(cells))):
        raise MigrationError(
            "internal error: the rewrite could not be split back into cells; left unchanged, please report this"
        )
    ends = [m.start() for m in markers[1:]] + [len(code)]
    bodies = [code[marker.end() : end] for marker, end in zip(markers, ends)]
    head = code[: markers[0].start()]  # imports a rule added at the very top
    home = _import_home(head, bodies, cells, usable)
    texts = []
    for index, body in enumerate(bodies):
        text = (head if index == home else "") + body
        original = cells[index].code
        if not usable[index] or text == (original if original.endswith("\n") else original + "\n"):
            texts.append(original)
            continue
        text = _unmask(text, magics)
        texts.append(text if original.endswith("\n") else text.removesuffix("\n"))
    return texts


def _import_home(head: str, bodies: list[str], cells: list[Cell], usable: list[bool]) -> int:
    """The cell an added import goes to: the first changed cell that uses a name
    it binds (else the first changed cell, else the first Python cell)."""
    changed = [i for i, body in enumerate(bodies) if usable[i] and body.rstrip("\n") != cells[i].code.rstrip("\n")]
    names = {name for match in _BOUND.findall(head) for name in match if name}
    for index in changed:
        if any(re.search(rf"\b{re.escape(name)}\b", bodies[index]) for name in names):
            return index
    return changed[0] if changed else usable.index(True)


_BOUND = re.compile(r"^(?:import [\w.]+ as (\w+)|import (\w+)|from [\w.]+ import (\w+))", re.M)


def _where(line: int, cells: list[Cell], starts: list[int]) -> tuple[dict, str]:
    """A line of the joined cells as the document names it: its own line, or
    a notebook cell's number and line (then also said in the message)."""
    index = max((i for i, start in enumerate(starts) if start <= line), default=0)
    offset = line - starts[index]
    cell = cells[index]
    if cell.first_line:  # lines of the document itself
        return {"line": cell.first_line + offset}, ""
    return {"line": 0, "cell": cell.number, "cell_line": offset + 1}, f"{cell.where}, line {offset + 1}: "


def _relocate(found: FileReport, report: FileReport, cells: list[Cell], starts: list[int]) -> None:
    def where(line: int) -> tuple[dict, str]:
        return _where(line, cells, starts)

    for change in found.changes:
        at, prefix = where(change.line)
        report.changes.append(replace(change, file=report.file, action=prefix + change.action, **at))
    for finding in found.findings:
        at, prefix = where(finding.line)
        report.findings.append(replace(finding, file=report.file, message=prefix + finding.message, **at))
