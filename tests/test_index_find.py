"""Where the index finds a module (``Index.find``): as Python's import system would
look, a folder's listing read once and each name found in it still asked of the disk."""

from __future__ import annotations

import os
from pathlib import Path

from hijax_migrate.analysis.index import Index
from hypothesis import event, given, settings
from hypothesis import strategies as st

_NAMES = ["a", "b", "pkg", "x.py"]


def _looked_up(roots: tuple[Path, ...], dotted: str) -> Path | None:
    """The file a module would be, asked of the disk alone."""
    rel = os.path.join(*dotted.split("."))
    for base in roots:
        for path in (os.path.join(base, rel + ".py"), os.path.join(base, rel, "__init__.py")):
            if os.path.isfile(path):
                return Path(path)
    return None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_NAMES), min_size=1, max_size=3), max_size=8),
    st.lists(st.lists(st.sampled_from(["a", "b", "pkg", "x", "py"]), min_size=1, max_size=3), min_size=1, max_size=6),
)
def test_a_module_is_found_where_the_disk_has_it(tmp_path_factory, made, asked):
    """Files (``a.py``), packages (``pkg/__init__.py``) and a folder named like a
    module (``x.py/``), under two roots: each name is found as the disk says."""
    top = tmp_path_factory.mktemp("tree")
    roots = (top / "one", top / "two")
    for number, parts in enumerate(made):
        root = roots[number % 2]
        path = root.joinpath(*parts)
        if parts[-1] == "x.py":
            path.mkdir(parents=True, exist_ok=True)  # a folder, not a module
        elif not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            (path.with_suffix(".py") if number % 3 else path / "__init__.py").parent.mkdir(parents=True, exist_ok=True)
            target = path.with_suffix(".py") if number % 3 else path / "__init__.py"
            if not target.exists() and not target.is_dir():
                target.write_text("")
    index = Index(roots=roots)
    for parts in asked:
        dotted = ".".join(parts)
        found = index.find(dotted)
        assert found == _looked_up(roots, dotted), dotted
        if found is not None:
            event("found")
