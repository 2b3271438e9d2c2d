"""The README's rule reference, rendered from the registry (tests keep them equal)."""

from __future__ import annotations

from ..rules.registry import all_rules

BEGIN, END = "<!-- rules:begin -->", "<!-- rules:end -->"


def rules_markdown() -> str:
    parts = []
    for rule in sorted(all_rules(), key=lambda r: r.code):
        parts.append(f"### {rule.code} `{rule.name}` (jax {rule.release})\n\n{rule.summary}\n\n"
                     f"Before:\n\n```python\n{rule.before}```\n\nAfter:\n\n```python\n{rule.after}```\n")
    return "\n".join(parts)


def readme_section(readme: str) -> str:
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return readme[start:end].strip("\n")
