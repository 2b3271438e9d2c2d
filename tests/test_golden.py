"""Golden cases: exact output, output parses, and a second run changes nothing.

Regenerate expected outputs for review with ``HIJAX_REGENERATE=1 pytest
tests/test_golden.py`` and read the resulting ``git diff golden/``.
"""

from __future__ import annotations

import os
from dataclasses import replace

import libcst as cst
import pytest

from golden import all_cases, finding_lines, read_case, write_case
from hijax_migrate.cli import build_parser
from hijax_migrate.command.session import options_from_args
from hijax_migrate.core.versions import OLDEST_TARGET, format_version, parse_version
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options

DEFAULT_FLAGS = ["--target-jax", "0.10"]


def options_for(flags: list[str]) -> Options:
    """The header's flags, read exactly as the command line reads them.

    A target before the first release there is to migrate to (0.8.0) is a
    usage error on the command line; the library takes it, and the cases just
    before the 0.8.1 gate use it that way."""
    args = build_parser().parse_args([*DEFAULT_FLAGS, *flags, "x.py"])
    wanted = parse_version(args.target_jax)
    if wanted < OLDEST_TARGET:
        args.target_jax = format_version(OLDEST_TARGET)
        return replace(options_from_args(args)[0], target=wanted)
    return options_from_args(args)[0]


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: p.stem)
def test_golden(path):
    case = read_case(path)
    options = options_for(case.flags)
    result = migrate_source(case.source, path.name, options)
    if os.environ.get("HIJAX_REGENERATE"):
        write_case(case, result.code, result.report.findings)
        pytest.skip("regenerated")
    assert result.code == case.expected
    if case.findings is not None:
        assert finding_lines(result.report.findings) == case.findings
    cst.parse_module(result.code)
    again = migrate_source(result.code, path.name, options)
    assert again.code == result.code, "a second run changed the output"
    assert not again.report.changes
    if not case.has_output:
        assert not result.report.changes
    if path.stem.endswith("_warns"):
        assert result.report.findings, "a *_warns case must report why it left code alone"


def test_there_are_enough_cases():
    assert len(all_cases()) >= 30
