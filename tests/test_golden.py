"""Golden cases: exact output, output parses, and a second run changes nothing.

Regenerate expected outputs for review with ``HIJAX_REGENERATE=1 pytest
tests/test_golden.py`` and read the resulting ``git diff golden/``: each case
is rewritten with what the run gives now, then checked as written, and a
regeneration keeps every check the case made (its ``# findings`` section, even
empty; a case listing none gets its findings listed).
"""

from __future__ import annotations

import copy
import functools
import os
from dataclasses import replace

import libcst as cst
import pytest
from hijax_migrate.cli import build_parser
from hijax_migrate.command.session import options_of
from hijax_migrate.command.usage import settings_from
from hijax_migrate.core.versions import OLDEST_TARGET, format_version, parse_version
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options

from golden import FINDINGS_MARK, GOLDEN, Case, all_cases, finding_lines, migrated, read_case, write_case

DEFAULT_FLAGS = ["--target-jax", "0.10"]


def options_for(flags: list[str]) -> Options:
    """The header's flags, read exactly as the command line reads them.

    A target before the first release there is to migrate to (0.8.0) is a
    usage error on the command line; the library takes it, and the cases just
    before the 0.8.1 gate use it that way. (Read once a process for each
    list of flags: a case's tests ask again, at each target; each caller
    gets its own copy.)"""
    return copy.copy(_read_flags(tuple(flags)))


@functools.cache
def _read_flags(flags: tuple[str, ...]) -> Options:
    settings = settings_from(build_parser().parse_args([*DEFAULT_FLAGS, *flags, "x.py"]))
    wanted = parse_version(settings.target_jax)
    if wanted < OLDEST_TARGET:
        return replace(options_of(replace(settings, target_jax=format_version(OLDEST_TARGET)))[0], target=wanted)
    return options_of(settings)[0]


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: p.stem)
def test_golden(path, tmp_path):
    case = read_case(path)
    options = options_for(case.flags)
    result = migrated(case.source, path.name, options, options.extra_bases)  # as with no project given
    if os.environ.get("HIJAX_REGENERATE"):
        write_case(case, result.code, result.report.findings)
        case = regenerated_from(case, read_case(path))  # the file as written, checked below like any other
    assert result.code == case.expected
    if case.findings is not None:
        assert finding_lines(result.report.findings) == case.findings
    cst.parse_module(result.code)
    again = migrated(result.code, path.name, options, options.extra_bases)
    assert again.code == result.code, "a second run changed the output"
    assert not again.report.changes
    if not case.has_output:
        assert not result.report.changes
    if path.stem.endswith("_warns"):
        assert result.report.findings, "a *_warns case must report why it left code alone"
    # what HIJAX_REGENERATE would write for this (passing) case: the same file,
    # but for the findings of a case that listed none, now listed
    copy = replace(case, path=tmp_path / path.name)
    write_case(copy, result.code, result.report.findings)
    regenerated_from(case, read_case(copy.path))
    if case.findings is not None or not result.report.findings:
        assert copy.path.read_bytes() == path.read_bytes(), "regenerating an up-to-date case changed it"


def regenerated_from(case: Case, written: Case) -> Case:
    """``written``, a regeneration of ``case``: it must keep every check the case made."""
    assert (written.flags, written.source) == (case.flags, case.source), "regenerating changed the input"
    if case.findings is not None:
        assert written.findings is not None, "regenerating dropped the case's `# findings` check"
    return written


def test_regenerating_keeps_an_empty_findings_section(tmp_path):
    """An empty ``# findings`` section checks that the run reports nothing: a
    regeneration that finds nothing keeps it (it once dropped it)."""
    path = tmp_path / "case.py"
    path.write_text("x = 1\n# findings\n")
    case = read_case(path)
    assert case.findings == []
    result = migrate_source(case.source, path.name, options_for(case.flags))
    assert not result.report.findings
    write_case(case, result.code, result.report.findings)
    assert path.read_text() == "x = 1\n# findings\n"
    assert read_case(path).findings == []


def test_regenerating_lists_findings_a_case_did_not_check(tmp_path):
    """A case with no ``# findings`` section gets one where the run reports
    something: a check added, none taken away."""
    path = tmp_path / "base_external_warns.py"
    path.write_text((GOLDEN / path.name).read_text().partition(FINDINGS_MARK)[0])  # as if it listed none
    case = read_case(path)
    assert case.findings is None
    result = migrate_source(case.source, path.name, options_for(case.flags))
    write_case(case, result.code, result.report.findings)
    again = read_case(path)
    assert again.findings == finding_lines(result.report.findings) != []
    assert (again.source, again.expected) == (case.source, case.expected)


def test_there_are_enough_cases():
    assert len(all_cases()) >= 30


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: p.stem)
def test_golden_with_lone_carriage_returns(path):
    """Python ends a line at ``\\r\\n``, ``\\n`` or a lone ``\\r`` (classic Mac OS): each case
    saved with lone carriage returns migrates as it does with line feeds, line for line."""
    case = read_case(path)
    if "\r" in case.source:
        pytest.skip("the case's own line breaks are what it tests")
    options = options_for(case.flags)
    result = migrated(case.source.replace("\n", "\r"), path.name, options, options.extra_bases)
    assert result.code == case.expected.replace("\n", "\r")
    if case.findings is not None:
        assert finding_lines(result.report.findings) == case.findings


# Line boundaries of ``str.splitlines`` that end no line of Python source (the language
# reference's lexical analysis: only \n, \r\n and \r do).
NOT_PYTHON_BREAKS = ("\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: p.stem)
def test_golden_with_a_boundary_python_does_not_end_a_line_at(path):
    """A form feed (a page break, as in GNU-style modules), ``\\u2028`` and the like, in a
    comment on the case's first line, are no line breaks to Python: the case migrates and
    reports as it does without them, each line numbered and quoted as before (one of them a
    case, in turn)."""
    case = read_case(path)
    first, rest = case.source.split("\n", 1)
    if first.rstrip().endswith("\\") or "#" in first or case.expected.split("\n", 1)[0] != first:
        pytest.skip("its first line is continued, commented (a mark, perhaps) or rewritten")
    odd = NOT_PYTHON_BREAKS[all_cases().index(path) % len(NOT_PYTHON_BREAKS)]
    marked = f"{first}  # page{odd}break\n"
    options = options_for(case.flags)
    result = migrated(marked + rest, path.name, options, options.extra_bases)
    assert result.code == marked + case.expected.split("\n", 1)[1]
    if case.findings is not None:
        assert finding_lines(result.report.findings) == [line.replace(first, marked[:-1]) for line in case.findings]
