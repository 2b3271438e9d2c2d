"""The floor a migration needing libcst is held to (issue 30): a libcst parse
with the metadata the rules need (scopes, positions), in one process.

    python benchmarks/floor.py FILE...     # each file parsed, with its metadata
    python benchmarks/floor.py --tree DIR  # the tool's own run over DIR, each file
                                           # that needs libcst only parsed so

With ``--tree`` the tool runs as ``--check --target-jax TARGET`` does (walk,
pre-filter, triage, workers), but the migration of a file triage sends to
libcst is replaced by that parse: the floor of a run over a tree.
"""

from __future__ import annotations

import sys
from pathlib import Path


def parse_with_metadata(code: str) -> None:
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    wrapper.resolve_many([ScopeProvider, PositionProvider])


def _floor_migration(code: str, path: str = "<string>", *args, **kwargs):
    from hijax_migrate.core.model import FileReport, Result

    parse_with_metadata(code)
    return Result(code, FileReport(path))


def main(argv: list[str]) -> int:
    if argv[:1] != ["--tree"]:
        for name in argv:
            parse_with_metadata(Path(name).read_text(encoding="utf-8"))
        return 0
    from hijax_migrate.cli import main as tool
    from hijax_migrate.engine import engine

    engine.migrate_source = _floor_migration  # read by the runner (and inherited by its forked workers)
    return tool(["--check", "-q", *argv[2:], argv[1]])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
