"""``Packages.real``: a folder's ``resolve()``, worked out from its parent's.

A generated tree of folders and links (absolute and relative, to folders and
to each other, dangling, in a loop), and every path a walk or a job may
name inside it (through links, with ``..``, not there at all): each answers
as ``Path.resolve()`` does, asked in any order.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hijax_migrate.tree.modules import Packages
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(os.name != "posix", reason="links as POSIX makes them; elsewhere resolve() answers")

NAMES = ("a", "b", "c")
# a tree: folders (a path of names), then links (a path of names -> a target: a path
# of names from the top, or one relative to the link's folder, "..": up)
folders = st.lists(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3), max_size=6)
links = st.lists(
    st.tuples(
        st.lists(st.sampled_from(NAMES + ("l",)), min_size=1, max_size=3),
        st.booleans(),  # absolute
        st.lists(st.sampled_from(NAMES + ("l", "..")), max_size=3),
    ),
    max_size=4,
)
asked = st.lists(st.lists(st.sampled_from(NAMES + ("l", "..", "gone")), max_size=5), min_size=1, max_size=8)


def _build(top: Path, dirs, made_links) -> None:
    for parts in dirs:
        (top.joinpath(*parts)).mkdir(parents=True, exist_ok=True)
    for parts, absolute, target in made_links:
        where = top.joinpath(*parts)
        if not where.parent.is_dir() or os.path.lexists(where):
            continue
        to = top.joinpath(*target) if absolute else Path(*target) if target else Path(".")
        os.symlink(to, where)


def _answer(ask, folder: Path):
    """What ``ask(folder)`` gives, or the kind of error it raises (a loop of links: RuntimeError)."""
    try:
        return ask(folder)
    except (OSError, RuntimeError) as error:
        return type(error)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dirs=folders, made_links=links, paths=asked)
@example(dirs=[], made_links=[(["a"], False, ["a", ".."])], paths=[["a"], ["a", "a"]])  # resolves, then loops
def test_real_is_resolve(tmp_path_factory, dirs, made_links, paths):
    top = tmp_path_factory.mktemp("tree")
    _build(top, dirs, made_links)
    packages = Packages()
    for parts in paths:
        folder = top.joinpath(*parts)
        assert _answer(packages.real, folder) == _answer(Path.resolve, folder), folder


def test_a_link_to_a_folder_and_a_loop(tmp_path):
    (tmp_path / "real" / "pkg").mkdir(parents=True)
    os.symlink(tmp_path / "real", tmp_path / "link")
    os.symlink("loop", tmp_path / "loop")  # a link to itself
    packages = Packages()
    assert packages.real(tmp_path / "link" / "pkg") == tmp_path.resolve() / "real" / "pkg"
    assert packages.real(tmp_path / "link" / ".." / "real") == (tmp_path / "link" / ".." / "real").resolve()
    assert _answer(packages.real, tmp_path / "loop" / "x") == _answer(Path.resolve, tmp_path / "loop" / "x")
    assert packages.real(Path("relative")) == Path("relative").resolve()
