"""Files keep every byte outside the rewrite: encodings, line endings, modes."""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from pathlib import Path

import pytest
from hijax_migrate.cli import main
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.rules.context import Options
from hijax_migrate.sources.files import FileError, nfkc, read_source, write_atomic
from hypothesis import given, settings
from hypothesis import strategies as st

OLD = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Mul(VJPHiPrimitive):\n"
    "    def vjp_fwd(self, nzs_in, x):\n        return x, x\n\n"
    "    def vjp_bwd(self, res, g):\n        return (2 * g,)\n"
)


def migrate_in_place(path: Path, *flags: str) -> int:
    return main(["--in-place", "--quiet", "--target-jax", "0.10", *flags, str(path)])


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_line_endings_survive_and_new_lines_use_them(tmp_path, newline):
    path = tmp_path / "ops.py"
    path.write_bytes(OLD.replace("\n", newline).encode())
    assert migrate_in_place(path, "--strategy", "accum") == 0
    data = path.read_bytes().decode()
    rest = data.replace(newline, "")
    assert "\n" not in rest and "\r" not in rest  # every line ends the file's way
    assert "    def vjp_bwd(self, res, g, x_acc):" + newline + "        x_acc.accum(2 * g)" + newline in data


def test_bom_and_latin1_cookie_survive(tmp_path):
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + OLD.encode())
    latin = tmp_path / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# caf\xe9\n" + OLD).encode("latin-1"))
    assert migrate_in_place(bom) == 0 and migrate_in_place(latin) == 0
    assert bom.read_bytes().startswith(b"\xef\xbb\xbffrom jax")
    assert b"# caf\xe9\n" in latin.read_bytes() and b"vjp_bwd_retval" in latin.read_bytes()


def test_permissions_kept_and_no_temporary_files_left(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    os.chmod(path, 0o751)
    assert migrate_in_place(path) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ops.py"]


def test_file_changed_on_disk_is_not_overwritten(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    source = read_source(path)
    path.write_text(OLD + "# edited meanwhile\n")
    with pytest.raises(FileError, match="changed on disk"):
        write_atomic(source, b"new")
    assert path.read_text().endswith("# edited meanwhile\n")


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"print 'python 2'\n", "syntax error"),
        (b"x = 1\0\n", "NUL bytes"),
        (b"# -*- coding: utf-8 -*-\nx = '\xff'\n", "cannot decode"),
    ],
)
def test_broken_files_are_reported_and_left_byte_identical(tmp_path, capsys, data, reason):
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_bytes(b"# vjp_bwd\n" + data)  # a candidate: named, so read
    good.write_text(OLD)
    assert migrate_in_place(tmp_path) == 3
    assert bad.read_bytes() == b"# vjp_bwd\n" + data
    assert "vjp_bwd_retval" in good.read_text()
    assert f"{bad.as_posix()}" in capsys.readouterr().err


def test_target_older_than_the_code_is_an_error():
    code = "from jax.experimental.hijax import HiPrim\n\n\nclass Op(HiPrim):\n    pass\n"
    with pytest.raises(MigrationError, match="already uses HiPrim") as error:
        migrate_source(code, options=Options(target=(0, 10, 0)))
    assert error.value.line == 4


PAIRS = "from jax.experimental.hijax import VJPHiPrimitive, vjp_from_jvp\n"
GUARDED = "try:\n    from jax.experimental.hijax import vjp_from_jvp\nexcept ImportError:\n    vjp_from_jvp = None\n"


@pytest.mark.parametrize(
    "code, target, newer, line",
    [
        (PAIRS, (0, 10, 2), "`vjp_from_jvp` (jax 0.11.1+)", 1),
        (PAIRS, (0, 11, 0), "`vjp_from_jvp` (jax 0.11.1+)", 1),
        (
            "import jax\nfrom jax._src.hijax import (\n    transpose_jvp,\n)\n",
            (0, 10, 2),
            "`transpose_jvp` (jax 0.11.0+)",
            2,
        ),
        (
            "from jax.experimental.hijax import linearize_from_jvp\n",
            (0, 10, 2),
            "`linearize_from_jvp` (jax 0.11.0+)",
            1,
        ),
        (PAIRS, (0, 11, 1), None, 0),
        (GUARDED, (0, 10, 2), None, 0),  # a version switch: right on both sides
        ("from mylib.hijax import vjp_from_jvp\n", (0, 10, 2), None, 0),
        # jax's private module had MappingSpec before the public one (jax 0.10.2's own tests import it)
        ("from jax._src.hijax import MappingSpec\n", (0, 10, 2), None, 0),
        ("from jax._src.hijax import MappingSpec\n", (0, 9, 0), "`MappingSpec` (jax 0.10.0+)", 1),
        ("from jax.experimental.hijax import MappingSpec\n", (0, 10, 2), "`MappingSpec` (jax 0.11.0+)", 1),
    ],
)
def test_imports_newer_than_the_target_are_an_error(code, target, newer, line):
    from hijax_migrate.analysis.project import Project
    from hijax_migrate.engine.triage import untouched

    options = Options(target=target)
    if newer is None:
        assert migrate_source(code, options=options).code == code
        return
    assert untouched(code, "x.py", options, Project()) is None  # never passed over
    with pytest.raises(MigrationError, match=f"imports {re.escape(newer)}, newer than the target") as error:
        migrate_source(code, options=options)
    assert error.value.line == line


def test_libcst_codemod_command_runs_the_same_migration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a file named alone: the tree is where the command runs
    import libcst as cst
    from hijax_migrate.codemod import HijaxMigrateCommand
    from libcst.codemod import CodemodContext

    command = HijaxMigrateCommand(CodemodContext(filename="ops.py"), target_jax="0.10")
    out = command.transform_module(cst.parse_module(OLD))
    assert out.code == OLD.replace("def vjp_bwd(", "def vjp_bwd_retval(")


# --- Bytes the tool did not mean to change are never changed ---


def _big5_twin() -> bytes:
    """Two bytes big5 reads as a character it writes back differently."""
    for lead in range(0xA1, 0xFA):
        for trail in range(0x40, 0xFF):
            data = bytes([lead, trail])
            try:
                if data.decode("big5").encode("big5") != data:
                    return data
            except UnicodeDecodeError:
                pass
    raise AssertionError("big5 has no such character here")


@pytest.mark.parametrize(
    "encoding, line",
    [
        ("cp932", b"# \x87\x90"),  # NEC's form of a character cp932 writes as 0x81E0
        ("big5", b"# " + _big5_twin()),
        ("utf-7", b"# caf+AOk-"),  # Python ends this shifted run without the "-"
        ("unicode_escape", b"# tab\\there"),  # decoded, the escape is gone; the newlines too
    ],
)
def test_bytes_that_would_not_survive_are_refused(tmp_path, capsys, encoding, line):
    path = tmp_path / "ops.py"
    data = f"# -*- coding: {encoding} -*-\n".encode() + line + b"\n" + OLD.encode()
    path.write_bytes(data)
    assert migrate_in_place(path) == 3
    assert path.read_bytes() == data
    assert f"{path}:" in capsys.readouterr().err  # named, with the line where bytes part


@pytest.mark.parametrize("encoding, line", [("cp932", b"# \x81\xe0"), ("utf-7", b"# a+-b")])
def test_bytes_that_survive_are_written_with_only_the_rewrite_changed(tmp_path, encoding, line):
    path = tmp_path / "ops.py"
    data = f"# -*- coding: {encoding} -*-\n".encode() + line + b"\n" + OLD.encode()
    path.write_bytes(data)
    assert migrate_in_place(path) == 0
    assert path.read_bytes() == data.replace(b"def vjp_bwd(", b"def vjp_bwd_retval(")


def test_a_cr_only_file_keeps_its_last_cr(tmp_path):
    path = tmp_path / "ops.py"
    path.write_bytes(OLD.replace("\n", "\r").encode())
    assert migrate_in_place(path) == 0
    assert path.read_bytes() == OLD.replace("\n", "\r").replace("def vjp_bwd(", "def vjp_bwd_retval(").encode()


def test_a_cr_only_file_whose_class_only_binds_a_rule_is_migrated(tmp_path):
    """Its one word is ``bound dce`` (a binding, not the comment before it): a file read by ``\\n``
    alone is one line, all of it after the first ``#``, and was passed over as nothing to fix."""
    (tmp_path / "base.py").write_text("from jax.experimental.hijax import HiPrim\n\n\nclass Base(HiPrim):\n    pass\n")
    lines = ["from base import Base", "# note", "B = Base", "", "", "def _old(self, used_outs):"]
    lines += ["    return True, True, self", "", "", "class P(B):", "    dce = _old", ""]
    user = tmp_path / "user.py"
    user.write_bytes("\r".join(lines).encode())
    assert main(["--in-place", "--quiet", "--target-jax", "0.12", "--no-cache", str(tmp_path)]) == 0
    assert user.read_bytes() == "\r".join(lines).replace("used_outs)", "used_outs, live_ins)").encode()


def test_a_file_mixing_lone_carriage_returns_and_line_feeds_is_refused_by_its_line(tmp_path, capsys):
    mixed, good = tmp_path / "mixed.py", tmp_path / "good.py"
    data = OLD.replace("\n", "\r", 3).encode()  # lines 1 to 3 end with \r, the rest with \n
    mixed.write_bytes(data)
    good.write_text(OLD)
    assert migrate_in_place(tmp_path) == 3
    assert mixed.read_bytes() == data
    assert "vjp_bwd_retval" in good.read_text()
    err = capsys.readouterr().err
    assert f"{mixed.as_posix()}:1:" in err and "lone carriage returns and with line feeds" in err
    with pytest.raises(MigrationError, match="lone carriage returns") as error:
        migrate_source(data.decode(), "mixed.py", Options())
    assert error.value.line == 1


def test_a_file_mixing_line_breaks_with_nothing_to_change_is_read_not_refused(tmp_path, capsys):
    """Its classes are read as Python reads them (a base of another file's primitive), and it
    is left as it is with no error: only a change could not come back as its lines were."""
    base = "from jax.experimental.hijax import HiPrim\r\r\rclass Base(HiPrim):\n    pass\n"
    (tmp_path / "base.py").write_bytes(base.encode())
    user = "from base import Base\n\n\ndef _old(self, used_outs):\n    return True, True, self\n\n\n"
    (tmp_path / "user.py").write_text(user + "class P(Base):\n    dce = _old\n")
    assert main(["--in-place", "--quiet", "--no-cache", "--target-jax", "0.12", str(tmp_path)]) == 0
    assert (tmp_path / "base.py").read_bytes() == base.encode()
    assert "def _old(self, used_outs, live_ins):" in (tmp_path / "user.py").read_text()
    assert "error" not in capsys.readouterr().err


# --- Metadata ---


def test_a_hard_linked_file_is_refused_not_split(tmp_path, capsys):
    path, other = tmp_path / "ops.py", tmp_path / "other_name.py"
    path.write_text(OLD)
    os.link(path, other)
    assert main(["--in-place", "--target-jax", "0.10", str(path)]) == 3
    assert "has 2 hard links" in capsys.readouterr().err
    assert path.read_text() == OLD and os.path.samefile(path, other)


def test_extended_attributes_are_copied(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    try:
        os.setxattr(path, "user.origin", b"vendored")
    except OSError as error:
        pytest.skip(f"no user extended attributes on this file system ({error.strerror})")
    assert migrate_in_place(path) == 0
    assert "vjp_bwd_retval" in path.read_text()
    assert os.getxattr(path, "user.origin") == b"vendored"


def test_setuid_setgid_and_owner_survive(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another owner needs root")
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    os.chown(path, 1234, 5678)
    os.chmod(path, 0o6755)
    assert migrate_in_place(path) == 0
    info = path.stat()
    assert "vjp_bwd_retval" in path.read_text()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 5678, 0o6755)


# --- Concurrent edits ---


def test_a_change_just_before_the_rename_is_caught(tmp_path, monkeypatch):
    """Another process appends while the temporary file is being filled."""
    from hijax_migrate.sources import files

    path = tmp_path / "ops.py"
    path.write_text(OLD)
    source = read_source(path)
    real_fsync = os.fsync

    def fsync_then_append(fd):
        real_fsync(fd)
        with open(path, "a") as other:
            other.write("# appended meanwhile\n")

    monkeypatch.setattr(files.os, "fsync", fsync_then_append)
    with pytest.raises(FileError, match="changed on disk"):
        write_atomic(source, b"new")
    assert path.read_text() == OLD + "# appended meanwhile\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ops.py"]


def test_a_concurrent_appender_loses_nothing_silently(tmp_path):
    """A real writer appends to every file while a run migrates them: each
    append is either in the file or the file is reported as changed."""
    import subprocess
    import sys

    names = [tmp_path / f"m{i}.py" for i in range(40)]
    for path in names:
        path.write_text(OLD)
    run = subprocess.Popen(
        [sys.executable, "-m", "hijax_migrate", "--in-place", "-j", "2", "--target-jax", "0.10", str(tmp_path)],
        stderr=subprocess.PIPE,
        text=True,
    )
    appended: dict[Path, list[str]] = {p: [] for p in names}
    while run.poll() is None and all(OLD == p.read_text() for p in names):
        pass  # the writer starts once the run has written its first file
    k = 0
    while run.poll() is None and k < 4000:  # bounded: growing files would slow the run
        path = names[k % len(names)]
        line = f"# append {k}\n"
        with open(path, "a") as handle:
            handle.write(line)
        appended[path].append(line)
        k += 1
    run.wait(timeout=300)
    err = run.stderr.read()
    kept = {p: set(p.read_text().splitlines(keepends=True)) for p in names}
    lost = [
        (p.name, line) for p, lines in appended.items() for line in lines if line not in kept[p] and f"{p}: " not in err
    ]
    assert lost == [], err


def test_black_keeps_a_tab_indented_file_as_the_migration_writes_it(tmp_path, capsys):
    path, plain = tmp_path / "ops.py", tmp_path / "plain.py"
    tabbed = OLD.replace("        ", "\t\t").replace("    ", "\t") + "\n\tdef other(self):\n\t\treturn  1\n"
    path.write_text(tabbed)
    plain.write_text(tabbed)
    assert migrate_in_place(path, "--black", "--strategy", "accum") == 0
    assert migrate_in_place(plain, "--strategy", "accum") == 0
    assert path.read_text() == plain.read_text() != tabbed
    assert "\t\tx_acc.accum(" in path.read_text() and path.read_text().endswith("\t\treturn  1\n")
    assert "--black not applied: the file is indented with tabs" in capsys.readouterr().err


# Around line feeds: combining marks (reordered, composed), Hangul jamo (composed),
# compatibility forms (ligatures, full width), a carriage return, a line separator.
_NFKC_MIX = "\n\n\r\u2028ae\u0301\u0323\u0345\u1100\u1161\u11a8\ufb01\uff56\u304b\u3099\u0f71\u0f72\u0f73"


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from(_NFKC_MIX) | st.characters(exclude_categories=["Cs"]), max_size=30))
def test_nfkc_a_line_at_a_time_is_nfkc_of_the_whole_text(text):
    assert nfkc(text) == unicodedata.normalize("NFKC", text)


def test_nfkc_joins_nothing_across_a_line_feed():
    for text in ["e\n\u0301", "\u1100\n\u1161", "\u0f71\n\u0f72", "a\u0323\n\u0301b", "\ufb01\r\n\uff56"]:
        assert nfkc(text) == unicodedata.normalize("NFKC", text)
