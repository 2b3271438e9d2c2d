"""Fault injection with real files on disk: every kind of bad input in one
tree, run through the real command. Each bad file is named with its reason
(and line), left byte-identical; the good ones are migrated; exit code 3."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fresh_runs import FORKER
from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import MAX_BYTES, MAX_READ, walk
from hijax_migrate.sources.parse import MAX_WORDS

OLD = (
    "from jax.experimental.hijax import VJPHiPrimitive\n\n\nclass Mul(VJPHiPrimitive):\n"
    "    def vjp_fwd(self, nzs_in, x):\n        return x, x\n\n"
    "    def vjp_bwd(self, res, g):\n        return (g,)\n"
)
# Without the capabilities that let root read anything, a mode-000 file is
# unreadable to root too.
AS_UNPRIVILEGED = (
    ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    if os.geteuid() == 0 and shutil.which("setpriv")
    else []
)

# name -> (bytes, what stderr must say about it, or None for "not reported")
BAD = {
    "py2.py": (b"# vjp_bwd\nprint 'python 2'\n", "py2.py:2: syntax error"),
    "nul.py": (b"# vjp_bwd\nx = 1\0\n", "nul.py: contains NUL bytes"),
    "latin.py": (b"# -*- coding: utf-8 -*-\n# vjp_bwd\nx = '\xff'\n", "latin.py:3: cannot decode"),
    "deep_brackets.py": (
        b"# vjp_bwd\nx = " + b"(" * 3000 + b"1" + b")" * 3000 + b"\n",
        "deep_brackets.py:2: too deeply nested",
    ),
    "deep_blocks.py": (
        b"# vjp_bwd\n" + b"".join(b"    " * i + b"if x:\n" for i in range(120)) + b"    " * 120 + b"pass\n",
        "deep_blocks.py:102: too deeply nested",
    ),
    "empty.py": (b"", None),
    "unreadable.py": (b"# vjp_bwd\n", "unreadable.py: cannot read: Permission denied"),
    # under the size limit, but more words and symbols than libcst's tree can hold in about 1 GB
    "dense.py": (
        (OLD + "DATA = [" + "0, " * (MAX_WORDS // 2) + "]\n").encode(),
        f"dense.py: too large to migrate (over {MAX_WORDS:,} words and symbols",
    ),
}


def build(root: Path) -> None:
    (root / "good.py").write_text(OLD)
    (root / "pkg").mkdir()
    (root / "pkg" / "good2.py").write_text(OLD)
    for name, (data, _) in BAD.items():
        (root / name).write_bytes(data)
    (root / "unreadable.py").chmod(0)
    # over libcst's budget with a primitive to migrate: refused; with nothing to migrate (the fast
    # triage, on Python's parser, tells): no error (jax's own docs hold a 2.3 MB notebook as code)
    (root / "huge.py").write_bytes(OLD.encode() + b"x = 1\n" * (MAX_BYTES // 6 + 1))
    (root / "huge_idle.py").write_bytes(b"# vjp_bwd\n" + b"x = 1\n" * (MAX_BYTES // 6 + 1))
    (root / "too_big_to_read.py").write_bytes(b"# vjp_bwd\n" + b"x = 1\n" * (MAX_READ // 6 + 1))
    (root / "dangling.py").symlink_to(root / "gone.py")
    (root / "self_loop.py").symlink_to(root / "self_loop.py")
    (root / "pkg" / "back").symlink_to(root)  # a directory loop
    os.mkfifo(root / "fifo.py")  # reading it would block for ever


def test_a_tree_of_broken_files(tmp_path):
    if os.geteuid() == 0 and not AS_UNPRIVILEGED:
        pytest.skip("running as root without setpriv: root reads a mode-000 file")
    root = tmp_path / "tree"
    root.mkdir()
    build(root)
    before = {
        p: p.read_bytes()
        for p in root.rglob("*.py")
        if p.is_file() and not p.is_symlink() and p.name not in ("unreadable.py", "fifo.py")
    }
    done = subprocess.run(
        [*AS_UNPRIVILEGED, sys.executable, "-m", "hijax_migrate", "--in-place", "--target-jax", "0.10", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr
    for name, (_, said) in BAD.items():
        if said:
            assert f"error: {root / said}" in done.stderr or f"error: {root}/{said}" in done.stderr, name
        else:
            assert name not in done.stderr
    assert "huge_idle.py" not in done.stderr
    for name, reason in [
        ("huge.py", "too large to migrate"),
        ("too_big_to_read.py", "too large to read"),
        ("dangling.py", "No such file"),
        ("self_loop.py", "Too many levels of symbolic links"),
        ("fifo.py", "not a regular file"),
    ]:
        assert f"{root}/{name}: cannot read: {reason}" in done.stderr or f"{root}/{name}: {reason}" in done.stderr
    for path, data in before.items():
        if path.name.startswith("good"):
            assert b"def vjp_bwd_retval(self, res, g):" in path.read_bytes()
        else:
            assert path.read_bytes() == data, path.name
    (root / "unreadable.py").chmod(0o644)
    assert (root / "unreadable.py").read_bytes() == BAD["unreadable.py"][0]
    assert sorted(p.name for p in root.iterdir() if p.name.endswith(".hijax-tmp")) == []


def test_walk_through_a_directory_loop_finds_each_file_once(tmp_path):
    build(tmp_path)
    found = [p.relative_to(tmp_path).as_posix() for p in walk(tmp_path)]
    assert len(found) == len(set(found))
    assert "pkg/good2.py" in found and not any(f.startswith("pkg/back/") for f in found)


def test_file_deleted_during_the_run_is_reported(tmp_path):
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(OLD)
    jobs = [Job(p, p.name, tmp_path) for p in walk(tmp_path)]
    (tmp_path / "b.py").unlink()  # found by the walk, gone before it is read
    outcomes = run(jobs, Options(target=(0, 10, 0)), in_place=True, workers=1)
    assert [(o.file, bool(o.written), o.error) for o in outcomes] == [
        ("a.py", True, ""),
        ("b.py", False, "cannot read: No such file or directory"),
        ("c.py", True, ""),
    ]


def test_file_replaced_by_a_directory_during_the_run(tmp_path):
    (tmp_path / "a.py").write_text(OLD)
    jobs = [Job(p, p.name, tmp_path) for p in walk(tmp_path)]
    (tmp_path / "a.py").unlink()
    (tmp_path / "a.py").mkdir()
    (outcome,) = run(jobs, Options(target=(0, 10, 0)), in_place=True, workers=1)
    assert outcome.error == "not a regular file" and not outcome.written


@pytest.mark.parametrize(
    "name, data",
    [
        (
            "tabs_formfeed_no_newline.py",
            b"from jax.experimental.hijax import VJPHiPrimitive\n\x0c\nclass Mul(VJPHiPrimitive):\n"
            b"\tdef vjp_fwd(self, nzs_in, x):\n\t\treturn x, x  # keep\t\x0c\n\n"
            b"\tdef vjp_bwd(self, res, g):\n\t\treturn (2 * g,)",
        ),
        (
            "mixed_endings.py",
            b"from jax.experimental.hijax import VJPHiPrimitive\r\n\r\nclass Mul(VJPHiPrimitive):\n"
            b"    def vjp_fwd(self, nzs_in, x):\r\n        return x, x\n\n"
            b"    def vjp_bwd(self, res, g):\r\n        return (2 * g,)\r\n# end\n",
        ),
    ],
)
def test_whitespace_oddities_survive_outside_the_rewrite(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    done = FORKER.module(
        "hijax_migrate",
        ["--in-place", "-q", "--strategy", "accum", "--target-jax", "0.10", str(path)],
        tmp_path,
        text=False,
    )
    assert done.returncode == 0, done.stderr
    out = path.read_bytes()
    head, _, _ = data.partition(b"def vjp_bwd")
    assert out.startswith(head)  # every byte before the rewritten method, as it was
    newline = b"\r\n" if data.startswith(b"from jax.experimental.hijax import VJPHiPrimitive\r\n") else b"\n"
    indent = b"\t\t" if b"\tdef" in data else b"        "
    assert newline + indent + b"x_acc.accum(2 * g)" + newline + indent + b"return None" in out
    assert out.endswith(b"return None" if not data.endswith(b"\n") else b"# end\n")


def with_rule(monkeypatch, transformer: type, code: str, name: str) -> None:
    """``transformer`` as one more rule, run after the real ones (for this test only)."""
    from hijax_migrate.rules import registry
    from hijax_migrate.rules.base import Rule

    transformer.rule = Rule(code, name, (0, 1, 0), "test", "", "", transformer, needs=("vjp_bwd", "vjp_bwd_retval"))
    monkeypatch.setattr(registry, "_LOADED", [*registry.all_rules(), transformer.rule])


def test_a_rewrite_that_would_not_parse_is_refused_as_a_bug(tmp_path, capsys, monkeypatch):
    import libcst as cst
    from hijax_migrate.cli import main
    from hijax_migrate.rules.context import RuleTransformer

    class Broken(RuleTransformer):  # writes `1.real`: not Python
        def leave_Return(self, original_node, updated_node):
            self.changed(0, None, "broke it")
            return updated_node.with_changes(value=cst.Attribute(cst.Integer("1"), cst.Name("real")))

    with_rule(monkeypatch, Broken, "HJX999", "broken-on-purpose")
    path = tmp_path / "ops.py"
    path.write_text(OLD)
    code = main(["--in-place", "-q", "-j", "1", "--select", "HJX999", "--target-jax", "0.10", str(path)])
    assert code == 3 and path.read_text() == OLD
    assert "internal error: the rewrite does not parse" in capsys.readouterr().err


def test_where_python_cannot_compile_the_input_libcst_checks_the_rewrite_parses(tmp_path, capsys, monkeypatch):
    """An input CPython refuses to compile (a duplicate argument) gives the
    compile nothing to compare: libcst's parse of the output decides."""
    import libcst as cst
    from hijax_migrate.cli import main
    from hijax_migrate.engine import checks
    from hijax_migrate.rules.context import RuleTransformer

    class Broken(RuleTransformer):  # writes `1.real`: not Python
        def leave_Return(self, original_node, updated_node):
            self.changed(0, None, "broke it")
            return updated_node.with_changes(value=cst.Attribute(cst.Integer("1"), cst.Name("real")))

    compared = []
    monkeypatch.setattr(checks, "_unbound", lambda *args: compared.append(args) or [])
    with_rule(monkeypatch, Broken, "HJX999", "broken-on-purpose")
    path = tmp_path / "ops.py"
    source = OLD + "\n\ndef twice(a, a):\n    pass\n"
    path.write_text(source)
    code = main(["--in-place", "-q", "-j", "1", "--select", "HJX999", "--target-jax", "0.10", str(path)])
    assert code == 3 and path.read_text() == source and compared == []
    assert "internal error: the rewrite does not parse (" in capsys.readouterr().err


def test_a_symlinked_file_is_written_through_and_stays_a_link(tmp_path):
    real = tmp_path / "real.py"
    real.write_text(OLD)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    done = FORKER.module("hijax_migrate", ["--in-place", "-q", "--target-jax", "0.10", str(link)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "def vjp_bwd_retval" in real.read_text()


# --- Write faults: each is that file's failure; the run goes on, exit 3 ---


def cli(*args: str, preexec_fn=None) -> subprocess.CompletedProcess:
    """The command in a fresh process: forked (fresh_runs), or started where ``preexec_fn`` sets it up."""
    if preexec_fn is None:
        return FORKER.module("hijax_migrate", ["--target-jax", "0.10", *args], Path.cwd())
    return subprocess.run(
        [sys.executable, "-m", "hijax_migrate", "--target-jax", "0.10", *args],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=preexec_fn,
    )


def tree_of(root: Path, names: list[str]) -> dict[str, Path]:
    root.mkdir(exist_ok=True)
    paths = {name: root / name for name in names}
    for path in paths.values():
        path.write_text(OLD)
    return paths


def assert_one_failed(done, paths: dict[str, Path], bad: str, reason: str) -> None:
    """``bad`` is reported and as it was; every other file is migrated and counted."""
    assert done.returncode == 3, done.stderr
    assert f"error: {paths[bad]}: {reason}" in done.stderr, done.stderr
    assert paths[bad].read_text() == OLD
    good = [p for name, p in paths.items() if name != bad]
    assert all("def vjp_bwd_retval" in p.read_text() for p in good)
    assert f"migrated {len(good)} files; 1 file could not be processed\n" in done.stderr
    assert not [p for p in paths[bad].parent.iterdir() if p.name.endswith(".hijax-tmp")]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_read_only_file_is_reported_not_replaced(tmp_path, jobs):
    paths = tree_of(tmp_path / "t", [f"m{i}.py" for i in range(9)])
    paths["m3.py"].chmod(0o444)
    done = cli("--in-place", "-j", jobs, str(tmp_path / "t"))
    assert_one_failed(done, paths, "m3.py", "no write permission (mode 444); not replaced")


def test_an_immutable_file_among_good_ones(tmp_path):
    paths = tree_of(tmp_path / "t", ["a.py", "b.py", "c.py"])
    if subprocess.run(["chattr", "+i", str(paths["b.py"])], capture_output=True).returncode:
        pytest.skip("chattr +i is not allowed here (needs CAP_LINUX_IMMUTABLE and a file system that supports it)")
    try:
        done = cli("--in-place", str(tmp_path / "t"))
    finally:
        subprocess.run(["chattr", "-i", str(paths["b.py"])])
    assert_one_failed(done, paths, "b.py", "no write permission")


def test_a_read_only_folder_counts_nothing_as_migrated(tmp_path):
    if os.geteuid() == 0 and not AS_UNPRIVILEGED:
        pytest.skip("running as root without setpriv: root writes into a read-only folder")
    paths = tree_of(tmp_path / "t", ["a.py"])
    (tmp_path / "t").chmod(0o555)
    try:
        done = subprocess.run(
            [
                *AS_UNPRIVILEGED,
                sys.executable,
                "-m",
                "hijax_migrate",
                "--in-place",
                "--target-jax",
                "0.10",
                str(tmp_path / "t"),
            ],
            capture_output=True,
            text=True,
        )
    finally:
        (tmp_path / "t").chmod(0o755)
    assert done.returncode == 3, done.stderr
    assert f"error: {paths['a.py']}: cannot write: Permission denied" in done.stderr
    assert "migrated 0 files; 1 file could not be processed\n" in done.stderr
    assert paths["a.py"].read_text() == OLD


def test_a_file_size_limit_fails_the_big_file_only(tmp_path):
    import resource

    paths = tree_of(tmp_path / "t", ["a.py", "big.py", "c.py"])
    paths["big.py"].write_text(OLD + "# padding\n" * 1000)  # over the limit once rewritten
    OLD_BIG = paths["big.py"].read_text()
    limit = len(OLD_BIG) - 10
    done = cli(
        "--in-place",
        "-j",
        "1",
        str(tmp_path / "t"),
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
    )
    assert done.returncode == 3, done.stderr
    assert f"error: {paths['big.py']}: cannot write: File too large" in done.stderr
    assert paths["big.py"].read_text() == OLD_BIG
    assert all("def vjp_bwd_retval" in paths[n].read_text() for n in ("a.py", "c.py"))
    assert "migrated 2 files" in done.stderr
    assert not [p for p in (tmp_path / "t").iterdir() if p.name.endswith(".hijax-tmp")]


@pytest.fixture
def small_tmpfs(tmp_path):
    mount = tmp_path / "mnt"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if made.returncode:
        pytest.skip(f"cannot mount a small tmpfs here ({made.stderr.strip() or 'mount failed'})")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)])


def test_a_full_file_system_fails_the_file_that_does_not_fit(small_tmpfs):
    paths = tree_of(small_tmpfs / "t", ["a.py", "b.py"])
    filler = small_tmpfs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # fill the disk to the last block
        while os.write(fd, b"x" * 1024):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    done = cli("--in-place", "-j", "1", str(small_tmpfs / "t"))
    assert done.returncode == 3, done.stderr
    assert "cannot write: No space left on device" in done.stderr
    assert [p.read_text() for p in paths.values()] == [OLD, OLD]
    assert "migrated 0 files" in done.stderr
    filler.unlink()  # room again: the same run now migrates both
    assert cli("--in-place", "-q", str(small_tmpfs / "t")).returncode == 0
    assert all("def vjp_bwd_retval" in p.read_text() for p in paths.values())


def test_an_unexpected_exception_is_a_bug_report_for_that_file_only(tmp_path, capsys, monkeypatch):
    from hijax_migrate.cli import main
    from hijax_migrate.rules.context import RuleTransformer

    class Raises(RuleTransformer):
        def visit_Return(self, node):
            if "boom" in self.report.file:
                raise ValueError("something the tool did not expect")

    with_rule(monkeypatch, Raises, "HJX998", "raises-on-purpose")
    paths = tree_of(tmp_path, ["a.py", "boom.py", "c.py"])
    code = main(["--in-place", "-j", "1", "--select", "HJX998,HJX001", "--target-jax", "0.10", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 3 and paths["boom.py"].read_text() == OLD
    assert re.search(
        f"error: {re.escape(str(paths['boom.py']))}: internal error \\(ValueError: "
        r"something the tool did not expect at \w+\.py:\d+\); file left unchanged, "
        "please report this bug",
        err,
    ), err
    assert all("def vjp_bwd_retval" in paths[n].read_text() for n in ("a.py", "c.py"))
    assert "migrated 2 files" in err


# --- Parser crashes: the file is reported, the rest processed ---

AND_CHAIN = "x = " + " and ".join(["a"] * 10_000) + "\n"  # crashes libcst's native parser


def nested_chains(levels: int, terms: int = 999) -> str:
    """Chains short enough to pass alone, nested in parentheses: as deep as one long chain."""
    expr = "a"
    for _ in range(levels):
        expr = f"({expr} and " + " and ".join(["a"] * (terms - 1)) + ")"
    return f"x = {expr}\n"


CRASHERS = {  # valid Python that crashes libcst's parser (a segmentation fault), and what is said
    "and-chain": (AND_CHAIN, "10: a chain of 10000 `and` terms is longer than libcst's parser can take"),
    "nested-chains": (nested_chains(10), "10: nested 9984 levels deep as libcst counts them"),
}


@pytest.mark.parametrize("shape", CRASHERS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_crashing_input_in_a_tree(tmp_path, jobs, shape):
    code, said = CRASHERS[shape]
    paths = tree_of(tmp_path / "t", [f"m{i}.py" for i in range(9)])
    paths["m4.py"].write_text(OLD + code)
    done = cli("--in-place", "-j", jobs, str(tmp_path / "t"))
    assert done.returncode == 3, done.stderr
    assert f"error: {paths['m4.py']}:{said}" in done.stderr, done.stderr
    assert paths["m4.py"].read_text() == OLD + code
    assert "migrated 8 files" in done.stderr


def test_each_term_of_a_chain_is_a_level_as_in_libcst():
    import ast

    from hijax_migrate.sources.parse import _deepest

    # libcst nests `a and b and c and d` two by two, as Python nests `a + b + c + d`
    assert _deepest(ast.parse("x = a and b and c and d\n")) == _deepest(ast.parse("x = a + b + c + d\n")) == (7, 1)


def _dies_on_three(item: int) -> int:
    if item == 3:
        os.kill(os.getpid(), 11)  # what a native crash does
    return item * 10


@pytest.mark.parametrize("kind", ["ForkedPool", "SpawnedPool"])
def test_a_dead_worker_is_reported_and_the_pool_rebuilt(kind):
    pool = _pool_kind(kind)(2, _noop_init, ())
    try:
        results = list(pool.map(_dies_on_three, list(range(12)), lambda item: f"crashed on {item}"))
    finally:
        pool.close()
    assert results == [0, 10, 20, "crashed on 3"] + [i * 10 for i in range(4, 12)]


def _noop_init(parent: int) -> None:
    pass


def _pool_kind(name: str):
    """Forked workers (where the platform forks safely), or workers started afresh."""
    from hijax_migrate.run import pool, spawned

    return getattr(pool, name, None) or getattr(spawned, name)


def _first_waits_for_the_others(item: tuple[int, str]) -> str:
    """Item 0 ends only once every other item has run (each leaves a file)."""
    index, folder = item
    if index:
        Path(folder, str(index)).touch()
        return "ran"
    deadline = time.monotonic() + 120  # only a pool that holds the others back reaches it
    while len(os.listdir(folder)) < 11 and time.monotonic() < deadline:
        time.sleep(0.01)
    return "the others ran" if len(os.listdir(folder)) == 11 else "the others were held back"


@pytest.mark.parametrize("kind", ["ForkedPool", "SpawnedPool"])
def test_a_long_item_never_leaves_the_other_worker_idle(tmp_path, kind):
    """The items after a long one go to the free worker as soon as it is
    free, not once the long one is done (results still come in order)."""
    pool = _pool_kind(kind)(2, _noop_init, ())
    try:
        results = list(pool.map(_first_waits_for_the_others, [(i, str(tmp_path)) for i in range(12)], str))
    finally:
        pool.close()
    assert results == ["the others ran"] + ["ran"] * 11


# --- stdin passes the checks a file on disk passes: on failure, the input comes back as it was ---


def stdin_run(data: bytes, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command reading ``data`` on stdin, in a fresh (forked) process: bytes out."""
    return FORKER.module("hijax_migrate", ["--target-jax", "0.10", *args, "-"], cwd or Path.cwd(), data, text=False)


STDIN_REFUSED = {  # bytes on stdin that the tool must give back unchanged, and what it says
    "cp932-twin": (
        b"# -*- coding: cp932 -*-\n# \x87\x90\n" + OLD.encode(),
        b":2: its cp932 bytes do not survive decoding and encoding again",
    ),
    "unicode_escape": (
        b"# -*- coding: unicode_escape -*-\n# tab\\there\n" + OLD.encode(),
        b":1: its unicode_escape bytes do not survive",
    ),
    "and-chain": ((OLD + AND_CHAIN).encode(), b":10: a chain of 10000 `and` terms"),
    "nested-chains": ((OLD + nested_chains(10)).encode(), b":10: nested 9984 levels deep"),
    "too-large": (OLD.encode() + b"x = 1\n" * (MAX_BYTES // 6), b": too large to migrate"),
    "too-dense": (BAD["dense.py"][0], f": too large to migrate (over {MAX_WORDS:,} words and symbols".encode()),
}


@pytest.mark.parametrize("name", ["-", "pkg/ops.py"])
@pytest.mark.parametrize("case", STDIN_REFUSED)
def test_stdin_refuses_what_a_file_would_refuse(tmp_path, case, name):
    data, said = STDIN_REFUSED[case]
    args = ("--stdin-filename", name) if name != "-" else ()
    done = stdin_run(data, *args, cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert done.stdout == data
    assert b"error: " + name.encode() + said in done.stderr, done.stderr


def test_stdin_keeps_a_cr_only_files_last_cr_and_untouched_bytes():
    data = OLD.replace("\n", "\r").encode()
    done = stdin_run(data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == data.replace(b"def vjp_bwd(", b"def vjp_bwd_retval(")
    twin = b"# -*- coding: cp932 -*-\n# \x87\x90\nx = 1\n"  # nothing to change: passed through as read
    assert stdin_run(twin).stdout == twin


def test_an_unexpected_exception_on_stdin_is_a_bug_report(monkeypatch, capsysbinary):
    import io

    from hijax_migrate.cli import main
    from hijax_migrate.engine import engine

    def broken(*args, **kwargs):
        raise ValueError("something the tool did not expect")

    monkeypatch.setattr(engine, "migrate_source", broken)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(OLD.encode())))
    assert main(["--target-jax", "0.10", "-"]) == 3
    out, err = capsysbinary.readouterr()
    assert out == OLD.encode()
    assert b"error: -: internal error (ValueError: something the tool did not expect" in err
