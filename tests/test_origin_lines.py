"""Origins: a line kept through rewrites is read back as its line in the input."""

from __future__ import annotations

from hijax_migrate.engine.origin_lines import Origins
from hypothesis import given, settings
from hypothesis import strategies as st


@st.composite
def rewrites(draw):
    """An input of distinct lines and rewrites of it: lines dropped, added, changed."""
    size = draw(st.integers(0, 40))
    lines = [f"line {i}\n" for i in range(size)]
    texts, current, fresh = ["".join(lines)], list(lines), 0
    for _ in range(draw(st.integers(1, 3))):
        edited = []
        for line in current:
            action = draw(st.sampled_from(("keep", "keep", "keep", "drop", "change", "insert")))
            if action == "insert":
                edited += [f"new {fresh}\n", line]
            elif action == "change":
                edited.append(f"new {fresh}\n")
            elif action == "keep":
                edited.append(line)
            fresh += 1
        if draw(st.booleans()):
            edited.append(f"new {fresh}\n")
            fresh += 1
        texts.append("".join(edited))
        current = edited
    return texts


@settings(max_examples=300, deadline=None)
@given(rewrites())
def test_kept_lines_map_to_their_input_line_and_others_stay_inside_it(texts):
    origins = Origins(texts[0])
    for text in texts[1:]:
        origins.follow(text)
    size = len(texts[0].splitlines())
    for number, line in enumerate(texts[-1].splitlines(True), 1):
        mapped = origins.line(number)
        if line.startswith("line "):  # kept from the input: exactly where it stood
            assert mapped == int(line.split()[1]) + 1
        else:
            assert 1 <= mapped <= max(size, 1) or size == 0


def test_without_a_rewrite_lines_are_their_own():
    origins = Origins("a\nb\n")
    assert [origins.line(n) for n in (0, 1, 2, 7)] == [0, 1, 2, 7]
