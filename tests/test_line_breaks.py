"""Python ends a physical line at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (the language
reference's lexical analysis): a tree whose files end their lines with lone carriage
returns (classic Mac OS), all or some of them, migrates as it does with line feeds,
file for file and finding for finding, each file keeping its own breaks. A file that
mixes lone carriage returns with line feeds is refused, by its line (``test_files``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from family_cases import JAX_012_TREES, TREES
from hijax_migrate.cli import main
from hijax_migrate.core.line_breaks import as_line_feeds, fed, line_number, lone_returns, mixed
from hypothesis import given, settings
from hypothesis import strategies as st

LAYOUTS = {
    "all": lambda n: True,
    "every other file": lambda n: n % 2 == 0,
}


def _migrated(root: Path, files: dict[str, str], returns, target: str, capsys) -> tuple[dict, str]:
    for n, (name, text) in enumerate(sorted(files.items())):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((text.replace("\n", "\r") if returns(n) else text).encode())
    code = main(["--in-place", "--no-cache", "-j", "1", "--target-jax", target, str(root)])
    said = capsys.readouterr().err.replace(str(root), "ROOT")
    return {name: (root / name).read_bytes() for name in files}, f"{code}\n{said}"


@pytest.mark.parametrize("target", ["0.10", "0.12"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", TREES + JAX_012_TREES, ids=lambda c: c.name)
def test_a_tree_with_lone_carriage_returns_migrates_as_with_line_feeds(tmp_path, capsys, case, layout, target):
    fed, fed_said = _migrated(tmp_path / "fed", case.files, lambda n: False, target, capsys)
    returned, said = _migrated(tmp_path / "returned", case.files, LAYOUTS[layout], target, capsys)
    assert said.replace("returned", "fed") == fed_said
    for n, name in enumerate(sorted(case.files)):
        expected = fed[name].replace(b"\n", b"\r") if LAYOUTS[layout](n) else fed[name]
        assert returned[name] == expected, name


_PIECES = [b"x = 1", b"# c", b"", b"'a", b"\\", b"(", b"caf\xc3\xa9"]


def _line_of(data: bytes, at: int) -> int:
    """The line holding offset ``at``, read as Python's tokenizer reads lines: a line ends
    after ``\\r\\n``, ``\\n`` or a lone ``\\r``; a break not wholly before ``at`` ends no line yet."""
    line, i = 1, 0
    while i < at:
        size = 2 if data[i : i + 2] == b"\r\n" else 1 if data[i] in b"\r\n" else 0
        line += size > 0 and i + size <= at
        i += size or 1
    return line


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from([b"\n", b"\r\n", b"\r"])), max_size=8))
def test_lines_are_counted_as_python_counts_them(lines):
    data = b"".join(piece + brk for piece, brk in lines)
    fed = as_line_feeds(data)
    assert len(fed) == len(data) and b"\r" not in fed.replace(b"\r\n", b"")
    assert [line_number(data, at) for at in range(len(data) + 1)] == [_line_of(data, at) for at in range(len(data) + 1)]
    text = data.decode()
    lone = [i for i in range(len(data)) if data[i : i + 1] == b"\r" and data[i + 1 : i + 2] != b"\n"]
    assert lone_returns(text) == bool(lone)
    assert mixed(text) == (_line_of(data, lone[0]) if lone and b"\n" in data else None)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_coding_cookie_is_looked_for_in_pythons_first_two_lines(newline):
    """Only there (PEP 263): with lone carriage returns the whole file was the first line, and
    ``encoding=latin`` further down read as a cookie, decoding UTF-8 text as Latin-1."""
    from hijax_migrate.sources.files import declared_encoding, decode

    utf8 = newline.join(["#!/usr/bin/env python", "# caf\u00e9", "x = open(f, encoding=latin)", ""]).encode()
    assert declared_encoding(utf8) == "utf-8"
    assert decode(Path("m.py"), utf8).text == fed(utf8.decode())
    latin = newline.join(["#!/usr/bin/env python", "# -*- coding: latin-1 -*-", 'x = "caf\u00e9"', ""])
    assert decode(Path("m.py"), latin.encode("latin-1")).text == fed(latin)
