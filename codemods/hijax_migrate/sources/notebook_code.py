"""A notebook's code cells as one text, read from its JSON alone: what the
pre-filter and the size limits look at (``files``), and what a migration
reads cell by cell (``notebooks``). Imports nothing else of the package."""

from __future__ import annotations

import json
import re


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


_ESCAPE = re.compile(rb"\\u([0-9a-fA-F]{4})")


def unescaped(data: bytes) -> bytes:
    """A notebook that is no JSON, its ``\\uXXXX`` escapes read as the
    characters they stand for (UTF-8; a lone surrogate as its code point's
    bytes): every word its code could hold, were it read, is in these bytes,
    so a file naming none of them is no candidate and is never parsed."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)).encode("utf-8", "surrogatepass"), data)
