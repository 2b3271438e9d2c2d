"""``--verify CMD``: the migration proved with the project's own tests before a
byte of it is written.

The migration is made in a scratch copy (`scratch.py`); CMD runs in the
original and in the copy (`invocation.py`, `process.py`), each test's outcome
is read (`outcomes.py`, from the probes in `probes/` that CMD's pytest or
unittest loads) and compared (`compare.py`), then reported (`report.py`).
`flow.py` runs the whole. Imports `command/` (the session that migrates the
copy) and everything below it; nothing below imports it.
"""
