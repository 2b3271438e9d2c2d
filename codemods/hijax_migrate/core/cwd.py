"""The working directory changed for a block, and put back: Python 3.11's
``contextlib.chdir``, for 3.10 too (the hooks and ``--verify`` run the
tool's session from inside another tree: files named alone import from
where the tool runs)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


@contextlib.contextmanager
def working_in(folder: Path):
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)
