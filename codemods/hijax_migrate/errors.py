"""Errors that name a file's problem, with the line where there is one."""


class SourceError(Exception):
    """A file the tool will not rewrite; it is left byte-identical."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line  # 0 where there is no line to name


class MigrationError(SourceError):
    """Source the tool will not rewrite: a syntax error, a target older than the code."""
