"""The line of a ``try``'s ``finally`` (``rule_sight.finally_line``), read from the text
``ast`` parsed, as libcst's positions give it: ``try`` statements drawn in every layout
of their blocks (handlers, ``else``, one-line blocks, comments and blank lines between,
a ``finally`` nested in another's block)."""

from __future__ import annotations

import ast
import random

import libcst as cst
import pytest
from hijax_migrate.analysis.fixture_classes import lines_of
from hijax_migrate.rules.rule_sight import TRIES, finally_line
from libcst.metadata import MetadataWrapper, PositionProvider

FILLERS = ["", "# finally: a comment\n", "\n", "    # indented comment\n"]


def _block(rng: random.Random, depth: int) -> str:
    """A block's body, indented one level: a statement, a one-liner, or a nested try."""
    if depth < 2 and rng.random() < 0.3:
        return _indent(_try(rng, depth + 1))
    return _indent(rng.choice(["pass\n", "x = 1\n", "s = 'finally:'\n", "f(\n    1,\n)\n"]))


def _indent(text: str) -> str:
    return "".join("    " + line if line.strip() else line for line in text.splitlines(True))


def _try(rng: random.Random, depth: int = 0) -> str:
    one_line = lambda: rng.random() < 0.2  # noqa: E731
    parts = ["try: pass\n" if one_line() else "try:\n" + _block(rng, depth)]
    for _ in range(rng.randint(0, 2)):
        parts.append(rng.choice(FILLERS) + ("except E: pass\n" if one_line() else "except E:\n" + _block(rng, depth)))
    if len(parts) > 1 and rng.random() < 0.5:
        parts.append(rng.choice(FILLERS) + "else:\n" + _block(rng, depth))
    parts.append(rng.choice(FILLERS) + ("finally: pass\n" if one_line() else "finally :\n" + _block(rng, depth)))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(200))
def test_finally_lines_are_libcsts(seed):
    code = _try(random.Random(seed))
    tree = ast.parse(code)
    ours = sorted(finally_line(node, lines_of(code)) for node in ast.walk(tree) if isinstance(node, TRIES))
    wrapper = MetadataWrapper(cst.parse_module(code))
    positions = wrapper.resolve(PositionProvider)
    theirs = sorted(positions[node].start.line for node in positions if isinstance(node, cst.Finally))
    assert ours == theirs, code
