"""The working directory changed for a block, and put back: Python 3.11's
``contextlib.chdir``, for 3.10 too. ``--verify`` runs the tool's session in
its copy of the project this way: the paths are named as on the command
line, relative ones read from the working folder. (A session whose paths are
all absolute needs no change of folder: ``Settings.here`` says where files
named alone import from, as the git hooks do.)"""

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
