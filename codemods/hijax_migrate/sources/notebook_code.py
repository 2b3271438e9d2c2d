"""A notebook's code cells as one text, read from its JSON alone: what the
pre-filter and the size limits look at (``files``), and what a migration
reads cell by cell (``notebooks``). Imports nothing else of the package."""

from __future__ import annotations

import json


def cell_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def code_text(data: bytes) -> str | None:
    """The code cells' text, one after another; None: not a notebook (its
    migration says why)."""
    try:
        notebook = json.loads(data)
        return "\n".join(cell_source(c) for c in notebook["cells"] if c.get("cell_type") == "code")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
