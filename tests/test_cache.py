"""The cache across runs: hits, misses when anything a result rests on
changed (another file's base included), and never a failed run for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hijax_migrate.cli import main
from hijax_migrate.rules.context import Options
from hijax_migrate.run import runner
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from test_project import OLD_RULE, write

BASE = "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Base(VJPHiPrimitive):\n    pass\n"
LEAF = f"from pkg.base import Base\n\nclass Leaf(Base):\n{OLD_RULE}"


def migrate(root: Path, cache: Path | None, in_place: bool = False) -> dict[str, tuple]:
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    outcomes = run(jobs, Options(target=(0, 10, 0)), in_place=in_place, workers=1, cache_dir=cache)
    return {
        o.file: (o.diff, [c.action for c in o.changes], [f.message for f in o.findings], o.primitives, o.error)
        for o in outcomes
    }


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    write(
        root,
        {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/leaf.py": LEAF, "pkg/other.py": f"class Tape:\n{OLD_RULE}"},
    )
    return root


def no_migration(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("migrated, though cached")

    monkeypatch.setattr(runner, "migrate_document", refuse)


def test_second_run_is_read_from_the_cache(tree, tmp_path, monkeypatch):
    first = migrate(tree, tmp_path / "cache")
    assert first["pkg/leaf.py"][0] and first["pkg/leaf.py"][3] == 1
    no_migration(monkeypatch)
    assert migrate(tree, tmp_path / "cache") == first


def test_a_base_changed_in_another_file_is_a_miss(tree, tmp_path):
    cache = tmp_path / "cache"
    assert migrate(tree, cache)["pkg/leaf.py"][0]
    (tree / "pkg/base.py").write_text("class Base:\n    pass\n")  # no primitive any more
    assert migrate(tree, cache)["pkg/leaf.py"][:4] == ("", [], [], 0)
    (tree / "pkg/base.py").write_text(BASE)
    assert migrate(tree, cache)["pkg/leaf.py"][0]


def test_a_base_module_that_appears_is_a_miss(tmp_path):
    root, cache = tmp_path / "tree", tmp_path / "cache"
    # The base's module is not in the tree: undecidable, a warning.
    write(root, {"pkg/__init__.py": "", "pkg/leaf.py": LEAF.replace("pkg.base", "pkg.bases.core")})
    before = migrate(root, cache)["pkg/leaf.py"]
    assert not before[0] and before[2]
    write(root, {"pkg/bases/__init__.py": "", "pkg/bases/core.py": BASE})
    assert migrate(root, cache)["pkg/leaf.py"][0]


def test_a_base_two_modules_away_changed_is_a_miss(tree, tmp_path):
    cache = tmp_path / "cache"
    write(
        tree,
        {
            "pkg/mid.py": "from pkg.base import Base\n\nclass Mid(Base):\n    pass\n",
            "pkg/leaf.py": LEAF.replace("pkg.base import Base", "pkg.mid import Mid as Base"),
        },
    )
    assert migrate(tree, cache)["pkg/leaf.py"][0]
    (tree / "pkg/base.py").write_text("class Base:\n    pass\n")
    assert not migrate(tree, cache)["pkg/leaf.py"][0]


def test_a_subclass_that_appears_elsewhere_is_a_miss(tree, tmp_path):
    """A rename is decided with the whole family in view: a subclass with an
    accumulator rule, added in a new file, turns the cached rename into
    accumulator writes (a rename would make it define both rules)."""
    cache = tmp_path / "cache"
    assert "vjp_bwd_retval" in migrate(tree, cache)["pkg/leaf.py"][0]
    write(
        tree,
        {
            "pkg/sub/__init__.py": "",
            "pkg/sub/acc.py": (
                "from pkg.leaf import Leaf\n\nclass Acc(Leaf):\n"
                "    def vjp_bwd(self, res, g, x_acc):\n        x_acc.accum(g)\n"
            ),
        },
    )
    after = migrate(tree, cache)["pkg/leaf.py"][0]
    assert after and "vjp_bwd_retval" not in after and ".accum(" in after


def test_options_are_part_of_the_key(tree, tmp_path):
    cache = tmp_path / "cache"
    jobs = [Job(p, p.relative_to(tree).as_posix(), tree) for p in walk(tree)]
    old = run(jobs, Options(target=(0, 10, 0)), in_place=False, workers=1, cache_dir=cache)
    new = run(jobs, Options(target=(0, 10, 0), strategy="accum"), in_place=False, workers=1, cache_dir=cache)
    leaf = {o.file: o.diff for o in old}["pkg/leaf.py"], {o.file: o.diff for o in new}["pkg/leaf.py"]
    assert "vjp_bwd_retval" in leaf[0] and "vjp_bwd_retval" not in leaf[1]


def test_corrupt_entries_are_misses(tree, tmp_path):
    cache = tmp_path / "cache"
    first = migrate(tree, cache)
    entries = [p for p in cache.rglob("*") if p.is_file()]
    assert entries
    for number, entry in enumerate(entries):
        entry.write_bytes([b"", b"\x00\xff garbage", b'{"deps": 3}', b"[]"][number % 4])
    assert migrate(tree, cache) == first


def test_an_unwritable_cache_never_fails_a_run(tree, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    expected = migrate(tree, None)
    assert migrate(tree, blocker / "cache") == expected  # cannot be created: no cache
    assert migrate(tree, blocker / "cache") == expected


def test_in_place_writes_even_when_the_change_is_cached(tree, tmp_path):
    cache = tmp_path / "cache"
    assert migrate(tree, cache)["pkg/leaf.py"][0]
    migrate(tree, cache, in_place=True)
    assert "vjp_bwd_retval" in (tree / "pkg/leaf.py").read_text()
    assert not migrate(tree, cache).get("pkg/leaf.py", ("",))[0]  # at 0.10, no word of a rule left


def test_no_cache_flag_keeps_nothing(tree, tmp_path, monkeypatch, capsys):
    cache = tmp_path / "user-cache"
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(cache))
    monkeypatch.chdir(tree)
    assert main(["--check", "-q", "--target-jax", "0.10", "--no-cache", "."]) == 1
    assert not cache.exists()
    assert main(["--check", "-q", "--target-jax", "0.10", "."]) == 1
    assert any(p.is_file() for p in cache.rglob("*"))
    assert capsys.readouterr().out.split() == ["pkg/leaf.py"] * 2
