"""Suppressions across the files of a tree: a family is never split.

A class a comment leaves alone keeps every byte; every class of its family
(a base and every subclass, in any file) is left alone with it, each named
in a finding; every other class is migrated. What a suppression leaves
failing under the target is an error, and the summary names it."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from hijax_migrate.core.model import ERROR, Options
from hijax_migrate.core.versions import parse_version
from hijax_migrate.output.report import as_json, summary
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

IMPORT = "from jax.experimental.hijax import VJPHiPrimitive\n"
MARKS = {
    "skip": "  # hijax-migrate: skip",
    "noqa": "  # noqa: HJX001",
    "noqa-list": "  # noqa: E501, HJX001",
    "noqa-cased": "  # NOQA:hjx001",
    "skip-cased": "  # HIJAX-MIGRATE: skip",
}


def value_class(name: str, base: str, mark: str = "", call_super: bool = False) -> str:
    body = (
        "        gx, gy = super().vjp_bwd(res, g)\n        return (gx, gy)\n"
        if call_super
        else "        return (g, g)\n"
    )
    return f"\n\nclass {name}({base}):{mark}\n    def vjp_bwd(self, res, g):\n{body}"


def migrated_tree(root: Path, target: str = "0.10", strategy: str = "auto"):
    """The tree migrated in place; its outcomes."""
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    options = Options(target=parse_version(target), strategy=strategy)
    return run(jobs, options, in_place=True, workers=1)


def class_text(code: str, name: str) -> str:
    node = next(n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.ClassDef) and n.name == name)
    return "".join(code.splitlines(keepends=True)[node.lineno - 1 : node.end_lineno])


def class_line(code: str, name: str) -> int:
    return next(n.lineno for n in ast.walk(ast.parse(code)) if isinstance(n, ast.ClassDef) and n.name == name)


def two_files(tmp_path: Path, side: str, mark: str) -> dict[str, str]:
    """base.py: Base; sub.py: Sub(Base), whose rule calls Base's, and Other, of no family."""
    on_base, on_sub = (mark, "") if side == "base" else ("", mark)
    files = {
        "base.py": ("# hijax-migrate: skip-file\n" if on_base == "file" else "")
        + IMPORT
        + value_class("Base", "VJPHiPrimitive", "" if on_base == "file" else on_base),
        "sub.py": ("# hijax-migrate: skip-file\n" if on_sub == "file" else "")
        + "from base import Base\n"
        + IMPORT
        + value_class("Sub", "Base", "" if on_sub == "file" else on_sub, call_super=True)
        + ("" if on_sub == "file" else value_class("Other", "VJPHiPrimitive")),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return files


@pytest.mark.parametrize("strategy", ["auto", "accum"])
@pytest.mark.parametrize("target", ["0.10", "0.12"])
@pytest.mark.parametrize("mark", [*MARKS.values(), "file"], ids=[*MARKS, "skip-file"])
@pytest.mark.parametrize("side", ["base", "sub"])
def test_a_suppression_on_either_side_leaves_the_whole_family_alone(tmp_path, side, mark, target, strategy):
    before = two_files(tmp_path, side, mark)
    outcomes = migrated_tree(tmp_path, target, strategy)
    after = {name: (tmp_path / name).read_text() for name in before}
    for file, name in (("base.py", "Base"), ("sub.py", "Sub")):
        assert class_text(after[file], name) == class_text(before[file], name), (file, name)
    if mark != "file" or side == "base":
        assert class_text(after["sub.py"], "Other") != class_text(before["sub.py"], "Other")  # migrated
    errors = {(o.file, f.line) for o in outcomes for f in o.findings if f.severity == ERROR}
    assert {
        ("base.py", class_line(before["base.py"], "Base")),
        ("sub.py", class_line(before["sub.py"], "Sub")),
    } <= errors
    text = summary(outcomes, 2, target, True)
    places = f"base.py:{class_line(before['base.py'], 'Base')}, sub.py:{class_line(before['sub.py'], 'Sub')}"
    assert f"left failing under the target by a suppression: {places}" in text or mark == "file"
    assert set(places.split(", ")) <= set(
        json.loads(as_json(outcomes, 2, target))["summary"]["left_failing_by_suppressions"]
    )
    compile(after["base.py"], "base.py", "exec") and compile(after["sub.py"], "sub.py", "exec")


@pytest.mark.parametrize("side", ["base", "sub"])
def test_another_tool_s_noqa_leaves_no_family_alone(tmp_path, side):
    """A ``noqa`` naming no HJX code is ruff's or flake8's: the family is migrated, whichever file holds it."""
    before = two_files(tmp_path, side, "  # noqa: E501, F401")
    migrated_tree(tmp_path)
    after = {name: (tmp_path / name).read_text() for name in before}
    assert "vjp_bwd_retval" in class_text(after["base.py"], "Base") or "accum" in class_text(after["base.py"], "Base")
    assert class_text(after["sub.py"], "Sub") != class_text(before["sub.py"], "Sub")


def test_each_class_left_alone_with_a_family_is_named_with_the_suppression(tmp_path):
    """Base needs nothing and is told nothing; Sub, left alone with it, keeps a value
    rule that fails under the target: an error on it names Base's comment."""
    (tmp_path / "base.py").write_text(
        IMPORT + "\n\nclass Base(VJPHiPrimitive):  # hijax-migrate: skip\n    def vjp_fwd(self, nzs_in, x):\n"
        "        return x, None\n"
    )
    (tmp_path / "sub.py").write_text("from base import Base\n" + value_class("Sub", "Base"))
    outcomes = migrated_tree(tmp_path)
    findings = {o.file: [(f.line, f.severity, f.message) for f in o.findings if f.severity == ERROR] for o in outcomes}
    assert (tmp_path / "sub.py").read_text() == "from base import Base\n" + value_class("Sub", "Base")
    assert "with `Base`, which a comment at base.py:4 leaves alone" in findings["sub.py"][0][2]
    assert not findings.get("base.py")  # Base itself needs nothing


def test_the_old_base_imported_under_try_is_bound_for_both_there(tmp_path):
    code = (
        "try:\n    from jax.experimental.hijax import VJPHiPrimitive\nexcept ImportError:\n    raise\n"
        + value_class("Kept", "VJPHiPrimitive", MARKS["skip"])
        + value_class("Moved", "VJPHiPrimitive")
    )
    (tmp_path / "ops.py").write_text(code)
    migrated_tree(tmp_path, "0.12")
    new = (tmp_path / "ops.py").read_text()
    assert new.startswith("try:\n    from jax.experimental.hijax import HiPrim, HiPrim as VJPHiPrimitive\n")
    assert class_text(new, "Kept") == class_text(code, "Kept") and "class Moved(HiPrim):" in new


def test_a_name_that_cannot_be_bound_again_refuses_the_file_naming_both(tmp_path):
    """The old base imported in a function: the classes there read it as a local the
    migration renames, and no module-level alias reaches it: the file stays as it is."""
    code = (
        "def make():\n    from jax.experimental.hijax import VJPHiPrimitive\n\n"
        "    class Kept(VJPHiPrimitive):  # hijax-migrate: skip\n        pass\n\n"
        "    class Moved(VJPHiPrimitive):\n        def vjp_bwd(self, res, g):\n            return (g,)\n"
    )
    (tmp_path / "ops.py").write_text(code)
    outcomes = migrated_tree(tmp_path, "0.12")
    assert (tmp_path / "ops.py").read_text() == code
    (error,) = [f for o in outcomes for f in o.findings if f.severity == ERROR]
    assert error.line == 4 and "`make.<locals>.Kept`" in error.message and "reads `VJPHiPrimitive`" in error.message
    assert "`from jax.experimental.hijax import HiPrim as VJPHiPrimitive`" in error.message


# -- random families across files, suppressions on random members


@st.composite
def trees(draw):
    """Up to 4 files of up to 3 classes each; each class's base is VJPHiPrimitive or a
    class of an earlier file (or earlier in its own); each has a value rule; marks at random."""
    files, names = [], []
    for index in range(draw(st.integers(1, 4))):
        classes = []
        for _ in range(draw(st.integers(1, 3))):
            name = f"C{len(names)}"
            base = draw(st.sampled_from(["VJPHiPrimitive", *names]))
            mark = draw(st.sampled_from(["", "", "", *MARKS]))
            classes.append((name, base, mark, base != "VJPHiPrimitive" and draw(st.booleans())))
            names.append(name)
        files.append((f"m{index}", classes, draw(st.sampled_from([False, False, False, True]))))
    return files, draw(st.sampled_from(["0.10", "0.12"])), draw(st.sampled_from(["auto", "accum"]))


def tree_text(files) -> dict[str, str]:
    where = {name: module for module, classes, _ in files for name, *_ in classes}
    texts = {}
    for module, classes, skip_file in files:
        bases = sorted({base for _, base, _, _ in classes if base in where and where[base] != module})
        text = ("# hijax-migrate: skip-file\n" if skip_file else "") + IMPORT
        text += "".join(f"from {where[base]} import {base}\n" for base in bases)
        for name, base, mark, call_super in classes:
            text += value_class(name, base, MARKS.get(mark, ""), call_super)
        texts[f"{module}.py"] = text
    return texts


def families(files) -> dict[str, str]:
    root = {name: name for _, classes, _ in files for name, *_ in classes}

    def find(name):
        while root[name] != name:
            name = root[name]
        return name

    for _, classes, _ in files:
        for name, base, _, _ in classes:
            if base in root:
                root[find(name)] = find(base)
    return {name: find(name) for name in root}


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(trees())
def test_suppressions_on_random_members_never_split_a_family(tmp_path_factory, drawn):
    files, target, strategy = drawn
    root = tmp_path_factory.mktemp("tree")
    texts = tree_text(files)
    for name, text in texts.items():
        (root / name).write_text(text)
    outcomes = migrated_tree(root, target, strategy)
    after = {name: (root / name).read_text() for name in texts}
    family = families(files)
    marked = {name for _, classes, skip_file in files for name, _, mark, _ in classes if mark or skip_file}
    left = {name for name in family if family[name] in {family[m] for m in marked}}
    errors = {(o.file, f.line) for o in outcomes for f in o.findings if f.severity == ERROR}
    for module, classes, _ in files:
        file = f"{module}.py"
        compile(after[file], file, "exec")
        for name, *_ in classes:
            kept = class_text(after[file], name) == class_text(texts[file], name)
            line = class_line(texts[file], name)
            if name in left:
                assert kept, (name, texts)
                assert (file, line) in errors, (name, texts)  # its value rule fails under the target: said
            else:
                assert not kept or (file, line) in errors, (name, texts)
    for root_name in set(family.values()):
        members = [n for n in family if family[n] == root_name]
        states = {
            class_text(after[f"{m}.py"], n) == class_text(texts[f"{m}.py"], n)
            for m, classes, _ in files
            for n, *_ in classes
            if n in members
        }
        assert len(states) == 1, (members, texts)  # a family is migrated whole or not at all
    shutil.rmtree(root)


# Bytes a mark is made of, in any case, and what may stand between or around them.
_MARK_PIECES = st.sampled_from(
    ["hijax-migrate:", "HIJAX-Migrate:", "hijax-migrate", "noqa:", "NoQA:", "noqa", "hjx", "HJX", "hJx", " ", "\n"]
    + ["#", "x", "\u0130", "\u212a", "\u00e9", "\r", ": ", "HJX001"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_MARK_PIECES, max_size=8), st.sampled_from(["utf-8", "latin-1"]))
def test_the_byte_test_for_marks_is_the_pattern_that_ignores_case(pieces, encoding):
    """``may_mark`` over lowered bytes answers as ``MAY_MARK`` over the bytes themselves
    (a pattern of bytes ignores the case of ASCII letters alone, as ``bytes.lower`` lowers)."""
    import re

    from hijax_migrate.sources.mark_bytes import MAY_MARK, may_mark

    data = "".join(pieces).encode(encoding, errors="replace")
    assert may_mark(data) == (re.search(MAY_MARK.encode(), data) is not None)


def three_files(tmp_path: Path, mark: str = "") -> None:
    """base.py: Base; sub.py: Sub(Base); sibling.py: Sibling(Base), which only a walk of
    Base's family finds from sub.py (sub.py's own analysis never reads it)."""
    (tmp_path / "base.py").write_text(IMPORT + value_class("Base", "VJPHiPrimitive"))
    (tmp_path / "sub.py").write_text("from base import Base\n" + value_class("Sub", "Base"))
    (tmp_path / "sibling.py").write_text("from base import Base\n" + value_class("Sibling", "Base", mark))


def test_no_family_is_walked_where_no_file_of_the_tree_may_hold_a_mark(tmp_path, monkeypatch):
    """The walk looks for marks in other files (``suppress_reach``): where no file
    holds the bytes of one, it would find none, and is not made; the outcomes are
    those of a walk (made where a mark-like text, another tool's, is in the tree)."""
    from hijax_migrate.engine import suppress

    walks = []
    reached = suppress.reached
    monkeypatch.setattr(suppress, "reached", lambda *args: walks.append(args[2]) or reached(*args))
    three_files(tmp_path)
    unmarked = [(o.file, o.diff, o.findings) for o in migrated_tree(tmp_path)]
    assert walks == [] and len([d for _, d, _ in unmarked if d]) == 3
    like = "  # NOQA: E501, hjx-like text of another tool's"  # the bytes a mark needs, and no mark
    three_files(tmp_path, like)
    walked = [(o.file, o.diff.replace(like, ""), o.findings) for o in migrated_tree(tmp_path)]
    assert set(walks) == {"base", "sibling", "sub"} and walked == unmarked


def test_a_mark_added_to_a_family_reaches_a_cached_result(tmp_path, monkeypatch, capsys):
    """sub.py's result, cached while no file of the tree held a mark: a mark added to
    sibling.py (of its family) leaves sub.py alone in the next run, as a run without
    the cache does (what the result rests on: ``test_project_cache``)."""
    from hijax_migrate.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path / ".cache"))
    (tmp_path / "tree").mkdir()
    three_files(tmp_path / "tree")
    flags = ["--check", "--target-jax", "0.10", "-j1", "--output-format", "json", "tree"]

    def changed(*more: str) -> list[str]:
        main([*flags, *more])
        return sorted(change["file"] for change in json.loads(capsys.readouterr().out)["changes"])

    assert changed() == ["tree/base.py", "tree/sibling.py", "tree/sub.py"]
    three_files(tmp_path / "tree", MARKS["noqa"])
    assert changed() == changed("--no-cache") == []
