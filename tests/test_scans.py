"""What the tree holds, remembered across runs by stat: never a stale answer."""

from __future__ import annotations

import os
import time

import pytest
from hijax_migrate.engine.triage import every_word
from hijax_migrate.tree import scans as scans_module
from hijax_migrate.tree.scans import Scans

WORDS = every_word()

PLAIN = "def helper(x):\n    return x\n"
PRIMITIVE = "def vjp_bwd(x):\n    return x\n"  # same size as PLAIN


@pytest.fixture
def reads(monkeypatch):
    """The files actually read for the candidate words."""
    read = []

    def file_words(path, words):
        read.append(path.name)
        return frozenset({b"vjp_bwd"} & words) if b"vjp_bwd" in path.read_bytes() else frozenset()

    monkeypatch.setattr(scans_module, "file_words", file_words)
    return read


@pytest.fixture(autouse=True)
def short_tick(monkeypatch):
    """A file is settled 50 ms after its last change, not 2 s: the tests wait that long."""
    monkeypatch.setattr(scans_module, "_RACY_NS", 50_000_000)


def _age(path):
    time.sleep(0.1)


def test_an_unchanged_file_is_not_read_again(tmp_path, reads):
    source = tmp_path / "tree" / "plain.py"
    source.parent.mkdir()
    source.write_text(PLAIN)
    _age(source)
    first = Scans(tmp_path / "cache", (source.parent,))
    assert not first.is_candidate(source, WORDS)
    first.save()
    again = Scans(tmp_path / "cache", (source.parent,))
    assert not again.is_candidate(source, WORDS)
    assert reads == ["plain.py"]


def test_the_words_named_are_remembered_for_any_selection_of_rules(tmp_path, reads):
    source = tmp_path / "prim.py"
    source.write_text(PRIMITIVE)
    _age(source)
    first = Scans(tmp_path / "cache", (tmp_path,))
    assert first.is_candidate(source, frozenset({b"vjp_bwd", b"def dce"}))
    first.save()
    again = Scans(tmp_path / "cache", (tmp_path,))
    assert not again.is_candidate(source, frozenset({b"def dce"}))  # a run of other rules: not read again
    assert reads == ["prim.py"]
    assert again.is_candidate(source, WORDS)  # more words than were looked for: read for those
    again.save()
    assert Scans(tmp_path / "cache", (tmp_path,)).is_candidate(source, frozenset({b"vjp_bwd", b"QDD"}))
    assert reads == ["prim.py", "prim.py"]


def test_a_rewrite_with_the_same_size_and_mtime_is_seen(tmp_path, reads):
    source = tmp_path / "plain.py"
    source.write_text(PLAIN)
    _age(source)
    first = Scans(tmp_path / "cache", (tmp_path,))
    assert not first.is_candidate(source, WORDS)
    first.save()
    mtime = source.stat().st_mtime_ns
    time.sleep(0.01)  # ctime moves on with the write; mtime is set back
    source.write_text(PRIMITIVE)
    os.utime(source, ns=(mtime, mtime))
    assert Scans(tmp_path / "cache", (tmp_path,)).is_candidate(source, WORDS)


def test_a_file_changed_just_before_the_run_is_read_again(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(scans_module, "_RACY_NS", 3600 * 10**9)  # however busy the machine
    source = tmp_path / "plain.py"
    source.write_text(PLAIN)  # racy: within the timestamp tick
    first = Scans(tmp_path / "cache", (tmp_path,))
    assert not first.is_candidate(source, WORDS)
    first.save()
    assert not Scans(tmp_path / "cache", (tmp_path,)).is_candidate(source, WORDS)
    assert reads == ["plain.py", "plain.py"]


def test_subclass_names_are_remembered_with_the_digest(tmp_path):
    source = tmp_path / "plain.py"
    source.write_text(PLAIN)
    _age(source)
    first = Scans(tmp_path / "cache", (tmp_path,))
    assert first.names(source, lambda path: (["Base"], "d1")) == (["Base"], "d1")
    first.save()
    assert Scans(tmp_path / "cache", (tmp_path,)).names(source, lambda path: pytest.fail("read")) == (["Base"], "d1")


@pytest.mark.parametrize("record", ["{not json", "[1, 2]", '{"x": 3}', ""])
def test_a_corrupt_record_is_no_record(tmp_path, reads, record):
    source = tmp_path / "plain.py"
    source.write_text(PRIMITIVE)
    _age(source)
    scans = Scans(tmp_path / "cache", (tmp_path,))
    scans.path.parent.mkdir(parents=True)
    scans.path.write_text(record)
    again = Scans(tmp_path / "cache", (tmp_path,))
    assert again.is_candidate(source, WORDS)
    again.save()


def test_an_unwritable_cache_costs_nothing_but_speed(tmp_path, reads):
    (tmp_path / "cache").write_text("a file where the folder should be")
    source = tmp_path / "plain.py"
    source.write_text(PRIMITIVE)
    scans = Scans(tmp_path / "cache", (tmp_path,))
    assert scans.is_candidate(source, WORDS)
    scans.save()


def test_special_and_missing_files_are_candidates(tmp_path, reads):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    scans = Scans(None, (tmp_path,))
    assert scans.is_candidate(fifo, WORDS) and scans.is_candidate(tmp_path / "gone.py", WORDS)
    assert reads == []


@pytest.mark.parametrize(
    "entry",
    [
        {"asked": ["vjp_bwd"], "named": 3},
        {"asked": "vjp_bwd", "named": []},
        {"named": []},
        {"asked": ["vjp_bwd"], "named": [None]},
    ],
)
def test_a_corrupt_word_list_is_no_word_list(entry):
    """Never "searched, named nothing" from half a record: that would pass over a file."""
    assert scans_module._searched(entry) == (frozenset(), frozenset())
    assert scans_module._searched({"asked": ["vjp_bwd"], "named": ["vjp_bwd", "QDD"]}) == ({b"vjp_bwd"}, {b"vjp_bwd"})
