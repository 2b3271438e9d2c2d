"""Errors that name a file's problem, with the line where there is one, and the
command line's own."""


class SourceError(Exception):
    """A file the tool will not rewrite; it is left byte-identical."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line  # 0 where there is no line to name


class MigrationError(SourceError):
    """Source the tool will not rewrite: a syntax error, a target older than the code."""


def tool_bug(what: str, line: int) -> MigrationError:
    """A post-condition the rewrite failed: a bug in the tool, the file left as it is (exit 3)."""
    return MigrationError(f"internal error: {what}; file left unchanged, please report this", line)


class UsageError(Exception):
    """The command line or the configuration asks for something the tool cannot do (exit 2)."""
