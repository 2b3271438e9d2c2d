"""The rule reference (docs/rules.md), the README's table of rules and
``hijax-migrate rule CODE``, rendered from the registry (tests keep the
documents equal to them)."""

from __future__ import annotations

from ..rules.registry import all_rules

BEGIN, END = "<!-- rules:begin -->", "<!-- rules:end -->"
TABLE_BEGIN, TABLE_END = "<!-- rules-table:begin -->", "<!-- rules-table:end -->"


def _sorted():
    return sorted(all_rules(), key=lambda r: r.code)


def rule_markdown(rule) -> str:
    return (
        f"## {rule.code} `{rule.name}` (jax {rule.release})\n\n{rule.summary}\n\n"
        f"Before:\n\n```python\n{rule.before}```\n\nAfter:\n\n```python\n{rule.after}```\n"
    )


def rules_markdown() -> str:
    return "\n".join(rule_markdown(rule) for rule in _sorted())


def anchor(rule) -> str:
    """GitHub's anchor of the rule's heading on docs/rules.md."""
    heading = f"{rule.code} {rule.name} (jax {rule.release})".lower()
    return "".join(c for c in heading.replace(" ", "-") if c.isalnum() or c in "-_")


def rules_table() -> str:
    """One line a rule, for the README."""
    rows = [
        f"| [{r.code}](docs/rules.md#{anchor(r)}) | `{r.name}` | {r.release} "
        f"| {r.summary.split('. ')[0].rstrip('.')}. |"
        for r in _sorted()
    ]
    return "\n".join(["| code | name | jax | what it does |", "|---|---|---|---|", *rows])


def section(text: str, begin: str = BEGIN, end: str = END) -> str:
    start, stop = text.index(begin) + len(begin), text.index(end)
    return text[start:stop].strip("\n")


def readme_section(readme: str) -> str:  # the name the tests knew first
    return section(readme)
