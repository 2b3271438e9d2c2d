"""Running the tool with one of its streams on a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path


def on_a_terminal(args: list[str], cwd: Path, stream: str = "stdout", env: dict | None = None) -> str:
    """What the tool wrote to ``stream`` ("stdout" or "stderr") when that is a terminal."""
    master, slave = pty.openpty()
    streams = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, stream: slave}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hijax_migrate", *args],
        cwd=cwd,
        env={**os.environ, "COLUMNS": "100", **(env or {})},
        **streams,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait()
    os.close(master)
    return b"".join(chunks).decode(errors="replace")
