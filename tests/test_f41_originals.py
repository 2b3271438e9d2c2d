"""A family whose originals cannot be kept aside is refused whole (issue 41).

An in-place run keeps each file's original in a folder of its own before any
write. Where that fails for one file of a family (a write error there,
``ulimit -f``, a full TMPDIR), no file of the family is written: each is
reported, the one that failed with its reason.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import faults
from hijax_migrate.cli import main
from hijax_migrate.sources.originals import Originals


def family(root: Path, padding: int = 0) -> dict[str, bytes]:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    files = faults.family_files(0)
    files["pkg/base0.py"] += "#" * padding + "\n" if padding else ""
    for name, text in files.items():
        (root / name).write_text(text)
    return {name: (root / name).read_bytes() for name in files}


def test_an_original_that_cannot_be_kept_refuses_its_whole_family(tmp_path, monkeypatch, capsys):
    before = family(tmp_path)
    keep = Originals.keep

    def failing(self, path, raw):
        if Path(path).name == "sub0.py":  # a write error in the originals' folder, for this file only
            return Originals(tmp_path / "no-such-folder")._put(tmp_path / "no-such-folder" / "slot", raw)
        return keep(self, path, raw)

    monkeypatch.setattr(Originals, "keep", failing)
    monkeypatch.chdir(tmp_path)
    code = main(["--no-cache", "--target-jax", "0.10", "-q", "-j", "1", "--in-place", "pkg"])
    said = capsys.readouterr().err
    assert code == 3
    assert {name: (tmp_path / name).read_bytes() for name in before} == before, "no file of the family is written"
    assert "keeping the text as found" in said and "left as it was" in said
    assert "Traceback" not in said


def test_ulimit_f_refuses_the_whole_family(tmp_path):
    before = family(tmp_path, padding=6000)  # base0.py alone is over the limit

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = subprocess.run(
        [*faults.TOOL, "--in-place", "-j", "1", "pkg"],
        cwd=tmp_path,
        env=faults.env(),
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=limited,
    )
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert {name: (tmp_path / name).read_bytes() for name in before} == before, done.stderr
    assert "not written" in done.stderr


def test_the_originals_a_killed_run_left_are_removed_by_the_next(tmp_path, monkeypatch):
    """A run killed (SIGKILL) leaves its folder; the next in-place run removes those whose
    process is gone and that nothing touched for an hour, never a live run's."""
    import os
    import tempfile

    from hijax_migrate.sources import originals

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)
    folders = {
        "dead, old": tmp_path / f"hijax-migrate-originals-{dead}-a1",
        "dead, fresh": tmp_path / f"hijax-migrate-originals-{dead}-b2",
        "alive, old": tmp_path / f"hijax-migrate-originals-{os.getpid()}-c3",
        "no process id": tmp_path / "hijax-migrate-originals-d4_x",
    }
    for name, folder in folders.items():
        folder.mkdir()
        (folder / "kept").write_bytes(b"original")
        if "fresh" not in name:
            os.utime(folder, (0, 0))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    started = Originals.start()
    assert started.folder.parent == tmp_path
    assert started.folder.name.startswith(f"hijax-migrate-originals-{os.getpid()}-")
    assert [name for name, folder in folders.items() if not folder.exists()] == ["dead, old"]
    started.finish()
    assert originals._alive(os.getpid()) and not originals._alive(dead)
