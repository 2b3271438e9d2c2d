"""Files keep every byte outside the rewrite: encodings, line endings, modes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from hijax_migrate.cli import main
from hijax_migrate.context import Options
from hijax_migrate.engine import MigrationError, migrate_source
from hijax_migrate.files import FileError, read_source, write_atomic

OLD = ("from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Mul(VJPHiPrimitive):\n"
       "    def vjp_fwd(self, nzs_in, x):\n        return x, x\n\n"
       "    def vjp_bwd(self, res, g):\n        return (2 * g,)\n")


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


@pytest.mark.parametrize("data, reason", [
    (b"print 'python 2'\n", "syntax error"),
    (b"x = 1\0\n", "NUL bytes"),
    (b"# -*- coding: utf-8 -*-\nx = '\xff'\n", "cannot decode"),
])
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


def test_libcst_codemod_command_runs_the_same_migration():
    import libcst as cst
    from libcst.codemod import CodemodContext

    from hijax_migrate.codemod import HijaxMigrateCommand

    command = HijaxMigrateCommand(CodemodContext(filename="ops.py"), target_jax="0.10")
    out = command.transform_module(cst.parse_module(OLD))
    assert out.code == OLD.replace("def vjp_bwd(", "def vjp_bwd_retval(")
