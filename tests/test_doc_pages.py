"""The README is read in three minutes and docs/ holds the rest: its size,
its two commands, links that lead somewhere, and a page of refusals that
holds every message the tool's source can print."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PACKAGE = ROOT / "codemods" / "hijax_migrate"
# Written for other issues (--recover, --verify) at the same time as these pages:
# linked already, checked by their own tests once they land.
ELSEWHERE = {"safety.md", "verify.md"}
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_is_short():
    assert len(README.read_text().splitlines()) <= 250


def test_the_readmes_two_commands_stay_as_they_were():
    lines = README.read_text().splitlines()
    assert "hijax-migrate path/to/repo             # dry run: prints a diff, writes nothing" in lines
    assert 'pip install -e ".[test]" && pytest     # installs jax 0.10.2 (on Python 3.11) and pre-commit' in lines


def test_the_readme_has_what_a_newcomer_looks_for():
    text = README.read_text()
    for heading in (
        "## Install",
        "## Quick start",
        "## In CI",
        "## With pre-commit",
        "## Rules",
        "## Exit codes",
        "## Running the tests",
        "## Reporting a bug",
    ):
        assert f"\n{heading}\n" in text, heading
    assert "<owner>" not in text and "Segmentation fault" in text and "skip" in text


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text(), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def links() -> list[tuple[Path, str]]:
    pages = [README, ROOT / "ARCHITECTURE.md", *sorted(DOCS.glob("*.md"))]
    return [
        (page, target)
        for page in pages
        for target in LINK.findall(page.read_text())
        if not target.startswith(("http://", "https://"))
    ]


@pytest.mark.parametrize("page, target", links(), ids=lambda v: v.name if isinstance(v, Path) else v)
def test_every_link_leads_somewhere(page, target):
    path, _, anchor = target.partition("#")
    goal = (page.parent / path).resolve() if path else page
    if goal.name in ELSEWHERE and goal.parent == DOCS and not goal.exists():
        pytest.skip(f"{goal.name} comes with another issue")
    assert goal.exists(), f"{page.name}: {target}"
    if anchor:
        assert anchor in anchors(goal), f"{page.name}: {target}"


def test_every_page_is_in_the_index_and_the_readme_leads_to_the_index_or_the_page():
    index = (DOCS / "index.md").read_text()
    readme = README.read_text()
    for page in DOCS.glob("*.md"):
        if page.name != "index.md":
            assert f"]({page.name})" in index, page.name
            assert f"](docs/{page.name})" in readme or "](docs/index.md)" in readme, page.name
    assert {"safety.md", "verify.md"} <= set(re.findall(r"\]\(([\w-]+\.md)\)", index))


RAISED = {"UsageError", "MigrationError", "SourceError", "FileError", "tool_bug", "ValueError", "GitError"}


def messages() -> list[str]:
    """Every message the tool's source raises or sets for a person to read:
    usage errors, files it refuses, its own bugs, values refused."""
    found = [
        text
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        for value in _messages_of(node)
        if (text := _longest_literal(value))
    ]
    return sorted(set(found))


def _messages_of(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in RAISED and node.args:
        return [node.args[0]]  # raise UsageError("...")
    if isinstance(node, ast.Assign):  # outcome.error = "...", CRASHED = "..."
        names = [getattr(target, "attr", None) or getattr(target, "id", None) for target in node.targets]
        return [node.value] if names in (["error"], ["CRASHED"]) else []
    if isinstance(node, ast.FunctionDef) and node.name == "bug_report":
        return [n.value for n in ast.walk(node) if isinstance(n, ast.Return)]
    return []


def _longest_literal(node: ast.AST) -> str:
    """The longest piece of a message the source writes out (an f-string's
    text between its fields), which the page must quote."""
    pieces = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    words = [piece.strip(" :;,.()`'\"") for piece in pieces]
    best = max(words, key=len, default="")
    return best if len(best) >= 8 else ""


@pytest.mark.parametrize("message", messages())
def test_the_refusals_page_holds_every_message(message):
    page = (DOCS / "refusals.md").read_text().replace("``", "`")
    assert message in page, f"add {message!r} to docs/refusals.md, with the fix a person applies"


def test_messages_are_found():
    """The search above finds the messages it should (a rename must not empty it)."""
    found = messages()
    assert len(found) > 40
    assert any("no such file or directory" in m for m in found) and any("syntax error" in m for m in found)
