"""Files on disk: finding them, reading them exactly, writing them safely."""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import signal
import stat
import tokenize
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import SourceError
from ..core.line_breaks import MIXED, as_line_feeds, fed, line_number, lone_returns, mixed
from ..core.versions import ADDED_NAMES
from .bound_names import bound_at
from .compared_names import compared_at

if TYPE_CHECKING:
    import pathspec

    from .originals import Originals

# Folders no user wants migrated: tooling, environments, build output.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        ".eggs",
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)
# A file that can need a rewrite names one of its rules' words (each rule's
# `needs`, in the registry; triage.candidate_words gives those of the rules
# that run, triage.every_word those of all, through `covering`): callers pass
# them. Every other file is never parsed, the dominant cost of a run.
# Substring tests first: three times faster than one regex with alternatives.
# Most words are whole names, matched as such (`vjp_bwd` is not in
# `vjp_bwd_retval`, nor `remat` in `def remat_jaxpr`): each rule acts on the
# name itself. Parts of several names (VJPHiPrimitive, AvalQDD) are matched anywhere.
PARTS = (b"HiPrim", b"QDD")
_SHARED = (b"vjp_", b"lineariz", b"_version")  # in several words: where they are missing, none of those is looked for


_NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BLANKS = frozenset(b" \t\f\v\r\n\\")  # between `def` and its name: spaces, or a line continued


def _names(data: bytes, word: bytes) -> bool:
    """Does ``data`` hold ``word`` as a whole name (``def NAME``: the name,
    after ``def``; ``bound NAME``: where it may be bound, ``bound_names``;
    ``compared NAME``: where it may be compared, ``compared_names``)?
    Each occurrence is looked at: no pattern scans every byte."""
    name = word.split()[-1]
    at = data.find(name)
    while at != -1:
        end = at + len(name)
        if (
            (at == 0 or data[at - 1] not in _NAME_BYTES)
            and (end == len(data) or data[end] not in _NAME_BYTES)
            and (name == word or _stands(word, data, at, end))
        ):
            return True
        at = data.find(name, end)
    return False


def _stands(word: bytes, data: bytes, at: int, end: int) -> bool:
    """Does the name at ``data[at:end]`` stand where ``word`` (``bound NAME``, ``compared NAME``,
    ``def NAME``) asks?"""
    if word.startswith(b"bound "):
        return bound_at(data, at, end)
    return compared_at(data, at, end) if word.startswith(b"compared ") else _after_def(data, at)


def _after_def(data: bytes, at: int) -> bool:
    start = at
    while start and data[start - 1] in _BLANKS:
        start -= 1
    return (
        start < at
        and start >= 3
        and data[start - 3 : start] == b"def"
        and (start == 3 or data[start - 4] not in _NAME_BYTES)
    )


def covering(word: str) -> frozenset[bytes]:
    """The candidate words a file names where it names a rule's ``word``:
    the parts of names it holds, else the word itself, a whole name."""
    parts = frozenset(part for part in PARTS if part.decode() in word)
    return parts or frozenset({word.encode()})


def named_words(data: bytes, words, whole: bool = True) -> frozenset[bytes]:
    """Which of ``words`` ``data`` names; with ``whole`` false, as bytes
    anywhere (a superset: for a chunk of a file, cut anywhere). Python reads
    a name NFKC-normalised (``ｖjp_bwd`` is ``vjp_bwd``): text beyond ASCII is
    searched as it is and normalised."""
    named = _bytes_naming(data, whole, words)
    if len(named) == len(words) or (data.isascii() and not recoded(data)):
        return named
    normalized = _normalized(data, names_only=True)
    return named if normalized is None else named | _bytes_naming(normalized, whole, words)


def as_read(data: bytes) -> bytes:
    """The text as Python reads its names: decoded as declared, NFKC-normalised
    (UTF-8, and the bytes themselves where that changes nothing). Its lines
    are the file's: no normalisation makes or takes a line break."""
    if data.isascii() and not recoded(data):
        return data
    return _normalized(data) or data


def recoded(data: bytes) -> bool:
    """Do these ASCII bytes read as other text? A coding cookie (only in the
    first two lines) may name utf-7, unicode_escape or iso2022_jp, in which
    ``+AHY-jp_bwd``, ``\\x76jp_bwd`` or an escape sequence spell a name that
    no byte search finds."""
    if b"coding" not in _first_lines(data):
        return False
    encoding = declared_encoding(data)
    try:
        return data.decode(encoding) != data.decode("ascii", errors="replace")
    except (UnicodeDecodeError, LookupError):
        return True  # Python reads it some other way, or refuses it: the full reading says which


def _normalized(data: bytes, names_only: bool = False) -> bytes | None:
    """The bytes decoded as the file declares, NFKC-normalised; None where
    that changes nothing (UTF-8 text already normal), or, ``names_only``,
    no name and no ``def NAME`` (``_spells_names``)."""
    encoding = declared_encoding(data)
    text = data.decode(encoding, errors="replace")
    if encoding in ("utf-8", "utf-8-sig") and (
        unicodedata.is_normalized("NFKC", text) or names_only and not _spells_names(text)
    ):
        return None
    return nfkc(text).encode("utf-8", errors="replace")


_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")
_NAMED = frozenset(chr(b) for b in _NAME_BYTES | _BLANKS)


def _spells_names(text: str) -> bool:
    """May NFKC make a name, or the blanks of ``def NAME``, that the text's
    ASCII does not hold (``ｖjp_bwd``, ``def\xa0f``)? Only where a character
    beyond ASCII normalises, alone, to such ASCII (``…`` makes ``...``, no
    name), or is a mark, which may compose with the ASCII letter before it
    (``rematA\u0301`` ends ``remat`` in bytes once the ``A`` is ``Á``):
    composition makes no ASCII, and the ASCII a decomposition starts with
    composes again with its own marks, whatever marks follow."""
    return any(
        not _NAMED.isdisjoint(unicodedata.normalize("NFKC", char)) or unicodedata.category(char)[0] == "M"
        for char in set(_BEYOND_ASCII.findall(text))
    )


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, a line at a time, lines of ASCII as they
    are: a line feed decomposes to nothing else, composes with nothing and ends every
    reordering, so each line normalises alone (a few lines beyond ASCII cost no whole file)."""
    return "\n".join(line if line.isascii() else unicodedata.normalize("NFKC", line) for line in text.split("\n"))


def declared_encoding(data: bytes) -> str:
    """The encoding a source's bytes declare (a coding cookie, a BOM); UTF-8
    where they declare none, or one Python does not know."""
    if not data.startswith(codecs.BOM_UTF8) and b"coding" not in _first_lines(data):
        return "utf-8"  # no cookie can be there: tokenize's answer, without its reads
    try:
        return tokenize.detect_encoding(io.BytesIO(as_line_feeds(data)).readline)[0]  # Python's lines
    except SyntaxError:
        return "utf-8"


def _first_lines(data: bytes) -> bytes:
    """The first two lines of ``data``, as ``tokenize`` reads them for a cookie."""
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first != -1 else -1
    return data if second == -1 else data[:second]


def python_name(name: str) -> str:
    """A name as Python reads it: NFKC-normalised (``ｖjp_bwd`` is ``vjp_bwd``)."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


# Names only jax's hijax modules give (versions.ADDED_NAMES; HJX007's and HJX015's
# helpers): every rule and check on them resolves an import from such a module, so
# they count only in a text that names hijax (a whole file: a chunk may lack it).
_THROUGH_HIJAX = frozenset(name.encode() for name in ADDED_NAMES)


def _bytes_naming(data: bytes, whole: bool, words) -> frozenset[bytes]:
    """The words ``data`` names. Each search reads the bytes (a file naming
    none, most, is read once a needle): every needle is searched at most once
    (``remat`` for ``def remat`` and ``bound remat``), and a needle missing
    rules out each word it gates: the shared parts, the shorter names inside
    a name (``vjp_bwd`` in ``vjp_bwd_retval``), and ``hijax`` in a whole file,
    for the names only hijax gives (most of the words)."""
    found, present = [], {}
    data = as_line_feeds(data) if whole else data  # the tests around a name read lines by ``\n``
    for word, _name, in_whole, in_chunk in _looks(words):
        for needle in in_whole if whole else in_chunk:  # a loop, not any(): no generator a word a file
            held = present.get(needle)
            if held is None:
                held = present[needle] = needle_test(needle)(data)
            if not held:
                break
        else:
            if not whole or word in PARTS or _names(data, word):
                found.append(word)
    return frozenset(found)


_HIJAX = b"hijax"
# Bytes of Python source, commonest first (read off jax's sources). ``in`` tests a needle's
# last byte at each step and skips more the longer it is; ``re`` scans for its first byte
# (memchr-like): for a needle whose first byte is rare (``vjp_bwd``, ``HiPrim``, a class's
# name), or a short one whose first byte is the rarer (``dce``), ``re`` takes half the time.
_COMMON = b" \neatrsinol_pdcxufm.,0h\\)(gyb=1:v\"32wk`j-[]54#A>6N7T8S'9Ez/Iq*LR<CO{}F"
_RARE = 30  # a byte beyond the commonest 30
_TESTS: dict[bytes, object] = {}  # needle -> its test (a pure memo)


def needle_test(needle: bytes):
    """The faster test of ``needle in data``, as a function of ``data``; both answer alike."""
    found = _TESTS.get(needle)
    if found is None:
        found = _made_test(needle)
        if len(_TESTS) < 4096:  # the rules' words and a run's class names: a few dozen
            _TESTS[needle] = found
    return found


def _made_test(needle: bytes):
    first, last = (_COMMON.find(needle[i : i + 1]) % (len(_COMMON) + 1) for i in (0, -1))
    if (len(needle) <= 6 and first > last) or (len(needle) < 16 and first > _RARE):
        search = re.compile(re.escape(needle)).search
        return lambda data: search(data) is not None
    return lambda data: needle in data


_LOOKS: dict[frozenset, tuple] = {}  # a set of words -> ``_looks`` of it: a pure memo


def _looks(words) -> tuple[tuple[bytes, bytes, tuple[bytes, ...], tuple[bytes, ...]], ...]:
    """(word, the name searched, the needles a whole file must hold, a chunk) of each word: its
    gates (``_gates``) and, last, its name. Shorter names first: their answers gate the longer."""
    looks = _LOOKS.get(words) if isinstance(words, frozenset) else None
    if looks is None:
        names = {word.split()[-1] for word in words}
        looks = tuple(_look(word, names) for word in sorted(words, key=lambda word: len(word.split()[-1])))
        if isinstance(words, frozenset) and len(_LOOKS) < 64:
            _LOOKS[words] = looks
    return looks


def _look(word: bytes, names: set[bytes]) -> tuple[bytes, bytes, tuple[bytes, ...], tuple[bytes, ...]]:
    name = word.split()[-1]
    gates = (*(key for key in _SHARED if key in name), *sorted(n for n in names if n != name and n in name))
    in_chunk = (*gates, name)
    return word, name, (_HIJAX, *in_chunk) if word in _THROUGH_HIJAX else in_chunk, in_chunk


def is_candidate_text(data: bytes, words, whole: bool = True) -> bool:
    return bool(named_words(data, words, whole))


def file_words(path: Path, words, chunk: int = 1 << 20) -> frozenset[bytes]:
    """Which of ``words`` the file names. Read in chunks: a huge file that
    names none is passed over like any other, without holding it in memory;
    in such a file a word is looked for as bytes (a name may span two chunks),
    as in a notebook, whose JSON escapes (`\\nvjp_bwd`) hide where names start."""
    overlap = max(map(len, words), default=2) - 1
    with open(path, "rb") as handle:
        first = handle.read(chunk)
        if len(first) < chunk or path.suffix == ".ipynb":  # a notebook's escapes need its whole JSON
            rest = handle.read(MAX_READ) if len(first) == chunk else b""
            return _whole_words(path, first + rest, words) if len(rest) < MAX_READ else frozenset(words)
        if first.isascii() and recoded(first):  # a stateful encoding is not searched chunk by chunk
            return frozenset(words)
        named, tail, block = set(), b"", first
        while block:
            named |= named_words(tail + block, words, False)
            tail, block = block[-overlap:], handle.read(chunk)
    return frozenset(named)


def _whole_words(path: Path, data: bytes, words) -> frozenset[bytes]:
    """``named_words`` of a whole file; a notebook's JSON is searched as
    bytes (its escapes ``\\n`` hide where names start), and where it escapes
    characters (``\\u0076jp_bwd``), in its code cells' text, which is what
    is migrated (its outputs, images mostly, are not)."""
    if path.suffix != ".ipynb":
        return named_words(data, words)
    named = named_words(data, words, False)
    if b"\\u" not in data or len(named) == len(words):
        return named
    from .notebook_code import code_text, unescaped

    code = code_text(data)
    if code is None:  # not JSON: a word its escapes may spell is found in its bytes unescaped
        return named | named_words(unescaped(data), words, False)
    return named | named_words(code.encode("utf-8", "surrogatepass"), words)


# Documents with Python inside: notebooks' code cells, Markdown's fences.
DOCUMENTS = (".ipynb", ".md")
SOURCES = (".py", ".pyi") + DOCUMENTS


class FileError(SourceError):
    """A file that cannot be read, decoded or written."""


@dataclass
class SourceFile:
    path: Path
    raw: bytes
    text: str
    encoding: str
    # "\r": its lines end with a lone ``\r``, which ``text`` has as ``\n`` (written back so);
    # "mixed": some lines end so, others with ``\n`` (not written: a change is refused)
    returns: str = ""


def _ignore_spec(folder: Path) -> pathspec.PathSpec | None:
    lines: list[str] = []
    for name in (".gitignore", ".git/info/exclude"):
        try:
            lines += (folder / name).read_text(errors="replace").splitlines()
        except OSError:
            pass
    return gitignore_spec(lines)


def gitignore_spec(lines: list[str]) -> pathspec.PathSpec | None:
    """Patterns read as git reads them; None for none. pathspec (20 ms) is
    imported only for a tree with ignore files or for patterns given."""
    if not lines:
        return None
    import pathspec

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except Exception:  # a line pathspec cannot read (``[z-a]``): git matches nothing with it either
        return pathspec.GitIgnoreSpec.from_lines([line for line in lines if pattern_error(line) is None])


def pattern_error(line: str) -> str | None:
    """Why pathspec cannot read a gitignore pattern; None when it can."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except Exception as error:  # re.error, ValueError, pathspec's own
        return str(error) or type(error).__name__
    return None


def _ignored(path: Path, specs: list[tuple[Path, pathspec.PathSpec]], is_dir: bool) -> bool:
    for base, spec in specs:
        rel = _relative(str(path), str(base)) + ("/" if is_dir else "")
        if spec.match_file(rel):
            return True
    return False


def _relative(path: str, base: str) -> str:
    """``Path(path).relative_to(base).as_posix()`` for a path walked from
    ``base``, without pathlib's parsing (a walk asks it of every entry)."""
    if base == ".":
        return path
    return path[len(base.rstrip("/")) + 1 :]


def walk(
    root: Path,
    exclude: pathspec.PathSpec | None = None,
    unreadable: list[Path] | None = None,
    outside: list[Path] | None = None,
    ignored: list[Path] | None = None,
) -> list[Path]:
    """Python files under ``root``, in a stable order, honouring git's ignores.

    Follows no symlink out of the tree (a source file's link goes to
    ``outside``, where given: the run warns of it), and never reaches a file
    twice. Descends into no nested repository (a folder holding ``.git`` or
    ``.hg``: a submodule, a clone inside the tree) below ``root``, as black
    and ruff do: the git hooks see a submodule as a commit, never its files,
    and the command line agrees; a nested repository named as ``root`` is
    walked. A folder that cannot be listed goes to ``unreadable`` (where
    given): the run reports it rather than look complete. The Python files
    and folders git's ignores leave out go to ``ignored``, where given.
    """
    root_real = os.path.realpath(root)
    found, seen = [], set()
    stack = [(root, root_real, [])]
    while stack:
        folder, folder_real, specs = stack.pop()
        spec = _ignore_spec(folder)
        specs = specs + [(folder, spec)] if spec else specs
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            if unreadable is not None and os.path.isdir(folder):  # a folder gone meanwhile is no loss
                unreadable.append(folder)
            continue
        for entry in reversed(entries):
            # realpath costs a system call a path component: only for links
            real = os.path.realpath(entry.path) if entry.is_symlink() else os.path.join(folder_real, entry.name)
            if real in seen or not _inside(real, root_real):
                if outside is not None and real not in seen and entry.name.endswith(SOURCES):
                    outside.append(Path(entry.path))
                continue
            path, is_dir = Path(entry.path), _is_dir(entry)
            if _ignored(path, specs, is_dir):
                if ignored is not None and _may_hold_python(entry, is_dir):
                    ignored.append(path)
                continue
            if exclude is not None and _excluded(path.relative_to(root), is_dir, exclude):
                continue
            seen.add(real)
            if is_dir and entry.name not in SKIP_DIRS and not _own_tree(entry.path):
                stack.append((path, real, specs))
            elif not is_dir and entry.name.endswith(SOURCES):
                found.append(path)
    return sorted(found)


class Listings:
    """``walk(root)`` of each folder, once a run: the jobs, the subclass index
    and the search for uses all take the whole tree. A folder named two ways
    (``.`` and its absolute path) is walked once; its files are named under
    the name asked. One run's: the next walks the tree as it is then."""

    def __init__(self):
        self._trees: dict[
            str, tuple[str, list[Path], list[Path], list[Path], list[Path]]
        ] = {}  # real folder -> (as first named, files, unreadable, links out, git-ignored)
        self.left_out: list[Path] = []  # the git-ignored Python files and folders of the run's walks
        self._renamed: dict[tuple[str, int], list[Path]] = {}  # (folder as asked, which) -> its paths so named

    def files(self, root: Path) -> list[Path]:
        return self._named(root, 1)

    def unreadable(self, root: Path) -> list[Path]:
        """The folders under ``root`` (itself included) its walk could not list."""
        return self._named(root, 2)

    def outside(self, root: Path) -> list[Path]:
        """The source files' links under ``root`` its walk did not follow out of it."""
        return self._named(root, 3)

    def ignored(self, root: Path) -> list[Path]:
        """The Python files and folders under ``root`` git's ignores left out of its walk."""
        return self._named(root, 4)

    def _named(self, root: Path, which: int) -> list[Path]:
        real = os.path.realpath(root)
        if real not in self._trees:
            unreadable: list[Path] = []
            outside: list[Path] = []
            ignored: list[Path] = []
            files = walk(root, None, unreadable, outside, ignored)
            self._trees[real] = (os.fspath(root), files, unreadable, outside, ignored)
        named, paths = self._trees[real][0], self._trees[real][which]
        if named == os.fspath(root):
            return paths
        if (os.fspath(root), which) not in self._renamed:  # named once (each search of the tree asks)
            prefix = 0 if named == "." else len(named.rstrip(os.sep)) + 1  # walk(".") names "a/b.py"
            self._renamed[os.fspath(root), which] = [root / os.fspath(path)[prefix:] for path in paths]
        return self._renamed[os.fspath(root), which]


def _may_hold_python(entry: os.DirEntry, is_dir: bool) -> bool:
    if is_dir:
        return entry.name not in SKIP_DIRS and not _own_tree(entry.path)
    return entry.name.endswith(".py")


def _own_tree(folder: str) -> bool:
    """A folder that is a tree of its own: a virtualenv, or a nested repository."""
    return any(os.path.lexists(os.path.join(folder, mark)) for mark in ("pyvenv.cfg", ".git", ".hg"))


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a symlink loop: listed as a file, reported when read
        return False


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _excluded(rel: Path, is_dir: bool, exclude: pathspec.PathSpec | None) -> bool:
    return exclude is not None and exclude.match_file(rel.as_posix() + ("/" if is_dir else ""))


# libcst's tree of a module takes about 2 KB of memory per word or symbol of
# its source, some 600 MB per MiB of ordinary code through a migration
# (measured by benchmarks/bigfile.py; time and memory grow linearly): larger
# files, and denser ones (parse.MAX_WORDS), are refused before libcst parses
# them. Files this big are generated, not written, and their rewrite could not
# be reviewed anyway; but most have nothing to migrate (jax's own docs hold a
# 2.3 MB notebook), which the fast triage, on Python's own parser, tells.
MAX_BYTES = 3 * 2**19  # 1.5 MiB
# Beyond this a file is not read at all: Python's tree of it would take some 400 MB.
MAX_READ = 16 * 2**20


def check_regular(path: Path) -> None:
    """Raise FileError unless ``path`` is a regular file of a sane size.

    Reading a FIFO or a device would block or never end.
    """
    try:
        info = os.stat(path)
    except OSError as error:
        raise FileError(f"cannot read: {error.strerror or error}") from error
    if stat.S_ISDIR(info.st_mode):
        _check_listable(path)
    if not stat.S_ISREG(info.st_mode):
        raise FileError("not a regular file")
    _check_size(info.st_size)


def _check_listable(path: Path) -> None:
    """A folder is a job only where its walk could not list it: say so."""
    try:
        os.scandir(path).close()
    except OSError as error:
        raise FileError(
            f"cannot read this folder: {error.strerror or error}; the files in it were not checked"
        ) from error


def _check_size(size: int) -> None:
    if size > MAX_READ:
        raise FileError(f"too large to read ({size:,} bytes; the limit is {MAX_READ / 2**20:g} MiB)")


def read_source(path: Path, as_found: Originals | None = None) -> SourceFile:
    """``as_found``: the run's originals; another file's text is read as the
    run found it."""
    check_regular(path)
    try:
        raw = as_found.read_bytes(path) if as_found is not None else path.read_bytes()
    except OSError as error:
        raise FileError(f"cannot read: {error.strerror or error}") from error
    return decode(path, raw)


def decode(path: Path, raw: bytes) -> SourceFile:
    """The text of ``raw``, from a file or stdin; FileError for what is not Python source."""
    _check_size(len(raw))  # a file's size was checked before reading: this is for stdin
    if b"\0" in raw:
        raise FileError("contains NUL bytes; not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(as_line_feeds(raw)).readline)  # Python's lines
        text = raw.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        line = line_number(raw, getattr(error, "start", 0)) if isinstance(error, UnicodeDecodeError) else 0
        raise FileError(f"cannot decode: {error}", line) from error
    if not lone_returns(text):
        return SourceFile(path, raw, text, encoding)
    # classic Mac OS's line breaks: read as line feeds, as Python reads them, and written back
    return SourceFile(path, raw, fed(text), encoding, returns="mixed" if mixed(text) is not None else "\r")


def check_round_trip(source: SourceFile) -> None:
    """Raise FileError unless the text encodes back to exactly the bytes read.

    Some encodings have two byte sequences for a character (cp932, big5), or
    are not one byte sequence per text at all (unicode_escape): writing such
    a file would change lines the tool never touched.
    """
    again = _as_written(source, source.text).encode(source.encoding, errors="replace")
    if again != source.raw:
        line = line_number(source.raw, len(_first_difference(source.raw, again)))
        raise FileError(
            f"its {source.encoding} bytes do not survive decoding and encoding again, "
            "so writing it would change lines the tool did not touch; left unchanged",
            line,
        )


def _first_difference(a: bytes, b: bytes) -> bytes:
    """``a`` up to where it and ``b`` part."""
    size = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return a[:size]


def encode(source: SourceFile, text: str) -> bytes:
    """``text`` in the file's encoding; FileError where it does not decode back to ``text``."""
    text = _as_written(source, text)
    try:
        data = text.encode(source.encoding)
    except UnicodeEncodeError as error:
        raise FileError(
            f"cannot write: the rewrite has characters {source.encoding} cannot encode ({error.reason}); left unchanged"
        ) from error
    if data.decode(source.encoding) != text:
        raise FileError(
            f"cannot write: the rewrite does not come back from {source.encoding} as written; left unchanged"
        )
    return data


def _as_written(source: SourceFile, text: str) -> str:
    """``text`` with the file's own line breaks (``SourceFile.returns``); FileError where
    they are two kinds, which no text with line feeds gives back."""
    if source.returns == "mixed":
        raise FileError(MIXED, mixed(source.raw.decode(source.encoding)))
    return text.replace("\n", "\r") if source.returns else text


TMP_SUFFIX = ".hijax-tmp"  # never a source suffix: a walk never picks one up


def write_atomic(source: SourceFile, data: bytes) -> None:
    """Replace the file with ``data`` unless it changed since it was read.

    The new text goes to a temporary file beside it, with the original's
    owner, mode and extended attributes, is flushed to disk and renamed over
    the original: readers see the old file or the new, never half. A symlink
    stays a link (its target is written). Whatever cannot be kept is a
    FileError, and the file is left as it was.
    """
    target = Path(os.path.realpath(source.path))
    try:
        with open(target, "rb") as original:
            info = _unchanged(original, source)
            _check_replaceable(target, info)
            with signals_deferred():
                _replace(target, original, source, data)
    except OSError as error:
        raise FileError(f"cannot write: {error.strerror or error}") from error


def _unchanged(original, source: SourceFile) -> os.stat_result:
    """The file's status, if its content is still what was read."""
    info = os.fstat(original.fileno())
    original.seek(0)
    if info.st_size != len(source.raw) or original.read() != source.raw:
        raise FileError("changed on disk while the tool ran; not overwritten")
    return info


def _check_replaceable(target: Path, info: os.stat_result) -> None:
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise FileError(
            f"no write permission (mode {stat.S_IMODE(info.st_mode):o}); not replaced. Make it writable to migrate it"
        )
    if info.st_nlink > 1:
        raise FileError(
            f"has {info.st_nlink} hard links: replacing it would leave the other names "
            "with the old text; not written. Migrate one name after copying it "
            "(cp f f.tmp && mv f.tmp f), or all of them, then link them again"
        )


def _replace(target: Path, original, source: SourceFile, data: bytes) -> None:
    import tempfile  # a run that writes (in place) alone

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            _copy_metadata(original.fileno(), handle.fileno())
            handle.flush()
            os.fsync(handle.fileno())
        # The last look, as close to the rename as the system allows.
        before = os.fstat(original.fileno())
        _unchanged(original, source)
        if _identity(os.stat(target)) != _identity(before):
            raise FileError("changed on disk while the tool ran; not overwritten")
        os.replace(tmp, target)
    except BaseException:
        _remove(tmp)
        raise
    if _identity(os.fstat(original.fileno())) != _identity(before):
        raise FileError(
            "another process wrote to the file while it was being replaced; "
            "that write went to the old version and is lost"
        )


def _identity(info: os.stat_result) -> tuple:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def _copy_metadata(src: int, dst: int) -> None:
    """Owner, then mode (chown clears setuid and setgid), then extended attributes."""
    info, made = os.fstat(src), os.fstat(dst)
    if (info.st_uid, info.st_gid) != (made.st_uid, made.st_gid):
        try:
            os.fchown(dst, info.st_uid, info.st_gid)
        except PermissionError as error:
            raise FileError(f"cannot keep its owner ({info.st_uid}:{info.st_gid}); not replaced") from error
    os.fchmod(dst, stat.S_IMODE(info.st_mode))
    if stat.S_IMODE(os.fstat(dst).st_mode) != stat.S_IMODE(info.st_mode):
        raise FileError(f"cannot keep its mode ({stat.S_IMODE(info.st_mode):o}); not replaced")
    for name in _xattrs(src):
        value = os.getxattr(src, name)
        try:
            os.setxattr(dst, name, value)
        except OSError as error:
            if _xattr(dst, name) != value:
                raise FileError(
                    f"cannot keep its extended attribute {name} ({error.strerror}); not replaced"
                ) from error


def _xattrs(fd: int) -> list[str]:
    try:
        return os.listxattr(fd)
    except (OSError, AttributeError):  # no extended attributes here
        return []


def _xattr(fd: int, name: str) -> bytes | None:
    try:
        return os.getxattr(fd, name)
    except OSError:
        return None


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


_DEFERRED = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def signals_deferred():
    """Ctrl-C and SIGTERM wait until the block is done: a write is never cut
    in half, and its temporary file is never left behind."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
