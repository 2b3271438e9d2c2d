"""Jupyter notebooks: the code cells are migrated, everything else is kept.

The JSON is written back the way it was written: the tool finds the
indentation, key order and escaping that reproduce the file byte for byte,
and refuses a notebook it cannot reproduce rather than reformat it. Outputs,
execution counts, metadata and Markdown cells are never touched.
"""

from __future__ import annotations

import json

from ..core.errors import MigrationError
from ..core.model import FileReport
from .cells import Cell, migrate_cells
from .notebook_code import cell_source


def _layout(text: str, notebook) -> dict | None:
    """``json.dumps`` arguments that give back ``text`` exactly, if any do."""
    for indent in (1, 2, 4, None):
        for ensure_ascii in (False, True):
            for sort_keys in (False, True):
                layout = {"indent": indent, "ensure_ascii": ensure_ascii, "sort_keys": sort_keys}
                dumped = json.dumps(notebook, **layout)
                if text in (dumped, dumped + "\n"):
                    return layout | {"newline": text.endswith("\n")}
    return None


def _is_python(notebook: dict) -> bool:
    meta = notebook.get("metadata") or {}
    language = (meta.get("kernelspec") or {}).get("language") or (meta.get("language_info") or {}).get("name")
    return language in (None, "python")


def _set_source(cell: dict, code: str) -> None:
    cell["source"] = code.splitlines(keepends=True) if isinstance(cell.get("source"), list) else code


def migrate_notebook(text: str, path: str, migrate, words):
    """``migrate(code) -> engine.Result``; returns (new text, report)."""
    try:
        notebook = json.loads(text)
        code_cells = [c for c in notebook["cells"] if c.get("cell_type") == "code"]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise MigrationError(f"not a notebook: {error}") from error
    if not _is_python(notebook):
        return text, FileReport(path)
    layout = _layout(text, notebook)
    if layout is None:
        raise MigrationError(
            "notebook JSON in a layout the tool cannot reproduce byte for byte; "
            "left unchanged (re-save it from Jupyter and run again)"
        )
    numbers = {id(c): n for n, c in enumerate(notebook["cells"], 1)}
    cells = [Cell(cell_source(c), f"cell {numbers[id(c)]}", number=numbers[id(c)]) for c in code_cells]
    texts, report = migrate_cells(cells, migrate, path, words)
    if texts == [cell.code for cell in cells]:
        return text, report
    for cell, code in zip(code_cells, texts):
        _set_source(cell, code)
    newline = layout.pop("newline")
    return json.dumps(notebook, **layout) + ("\n" if newline else ""), report


def cell_diff(name: str, old: str, new: str) -> str:
    """A notebook's diff as code, cell by cell (``nb.ipynb:cell 3``), as ruff
    and nbQA show one, not its escaped JSON; any other file's as it is."""
    from ..core.linediff import file_diff

    if not name.endswith(".ipynb"):
        return file_diff(name, old, new)
    try:
        before, after = (json.loads(text)["cells"] for text in (old, new))
    except (ValueError, KeyError, TypeError):
        return file_diff(name, old, new)
    if len(before) != len(after):  # never by this tool: the JSON says what changed
        return file_diff(name, old, new)
    return "".join(
        file_diff(f"{name}:cell {number}", *_lines(cell_source(a), cell_source(b)))
        for number, (a, b) in enumerate(zip(before, after), 1)
        if cell_source(a) != cell_source(b)
    )


def _lines(old: str, new: str) -> tuple[str, str]:
    """A cell's last line ends without a newline as a rule: no marker for that."""
    both = not old.endswith("\n") and not new.endswith("\n")
    return (old + "\n", new + "\n") if both else (old, new)
