"""The floors the tool is held to: what its design cannot go below.

    python benchmarks/floor.py FILE...            # each file parsed, with its metadata
    python benchmarks/floor.py --tree DIR         # the tool's own run over DIR, each file
                                                  # that needs libcst only parsed so
    python benchmarks/floor.py --parse-only DIR   # the tool's own run over DIR, triage
                                                  # only CPython's parse of each candidate
    python benchmarks/floor.py --resolve-only DIR # the same, and each class's kind decided

A migration needing libcst (issue 30): a libcst parse with the metadata the
rules need (scopes, positions), in one process. With ``--tree`` the tool runs
as ``--check --target-jax TARGET`` does (walk, pre-filter, triage, workers),
but the migration of a file triage sends to libcst is replaced by that parse:
the floor of a run over a tree. With ``--parse-only`` triage itself is
replaced by ``ast``'s parse of the candidate, which every triage makes first
(issue 39): the start-up, the walk, the pre-filter and the parse of each
candidate on the workers, the floor of a cold check by any design that reads
each candidate with ``ast`` before deciding on it. With ``--resolve-only``
triage is its first step: the parse and summary of each candidate, and the
kind of each class it holds (a primitive or not), which reads the modules
its bases come from (jax 0.12's ``core.py``, 163 kB, for most of its tree's
classes): the floor of any design that decides a file by what its classes are.
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


def _parse_only_triage(code: str, path: str, *args, **kwargs):
    """Triage reduced to its first step: the candidate parsed, nothing decided or reported."""
    from hijax_migrate.analysis.ast_summary import parse_ast
    from hijax_migrate.core.model import FileReport

    try:
        parse_ast(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    return FileReport(path), None


def _resolve_only_triage(code: str, path: str, options, project, module: str = ""):
    """Triage reduced to the kinds of the candidate's classes: its parse, its summary,
    and the modules its bases resolve in; nothing else decided or reported."""
    from hijax_migrate.core.model import FileReport
    from hijax_migrate.engine import triage

    triage._classes(code, path, options, project, module, install=True)  # the step every triage starts with
    return FileReport(path), None


_FLOORS = {"--parse-only": _parse_only_triage, "--resolve-only": _resolve_only_triage}


def main(argv: list[str]) -> int:
    if argv[:1] and argv[0] in _FLOORS:
        from hijax_migrate.cli import main as tool
        from hijax_migrate.engine import triage

        triage.triage_of = _FLOORS[argv[0]]  # read by the runner as each file is triaged (workers: forked)
        return tool(["--check", "-q", *argv[2:], argv[1]])
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
