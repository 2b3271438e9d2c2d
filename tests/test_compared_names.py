"""The pre-filter's ``compared NAME`` words (``sources/compared_names.py``, HJX014's needs)
against the rule itself: wherever HJX014, asked of any text, reports a comparison with jax's
version, the bytes say "may be compared", so the file is read and the rule asked.

The generator writes the language reference's ``comparison`` with each operator (the exact
ones HJX014 reports, the others it does not) between jax's version, by each of its names and
the ways libcst names it (an attribute chain with blanks, line breaks in brackets, comments
and continuations inside it, a subscription or a call of one, a bare name an import binds,
an ``as`` alias, ``importlib.metadata.version("jax")``), and a literal or a module constant;
on either side, parenthesised, in an ``if`` that raises, an ``assert`` or an assignment (one
after a text on the same line whose ``#`` is no comment); among
reads of the name that are no comparison, which must not be read as one.
"""

from __future__ import annotations

import pytest
from hijax_migrate.core.versions import parse_version
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.rules.base import Rule
from hijax_migrate.rules.context import Options
from hijax_migrate.rules.version_gates import RULE
from hijax_migrate.sources.files import named_words
from hypothesis import given, settings
from hypothesis import strategies as st
from test_candidates import WORDS

NAMES = ("__version__", "__version_info__", "_version")
# ``version`` too: ``importlib.metadata.version("jax")`` below
HEAD = "import jax\nimport jax.version\nfrom jax.experimental.hijax import HiPrim\n_SUPPORTED = '0.11.0'\n"
PRIMITIVE = "\n\nclass Op(HiPrim):\n    pass\n"
# {name}: one of NAMES; each spells jax's version (or, for the bare name and the alias, the
# import that binds it is added by ``_imports``)
REFERENCES = [
    "jax.{name}",
    "jax.version.{name}",
    "jax . version . {name}",
    "jax.\\\n    {name}",
    "(jax\n    .{name})",
    "(jax  # the package\n    .version.{name})",
    "jax.{name}[:2]",
    "jax.version.{name}[0]",
    "(jax.{name})",
    "{name}",
    "V",
    'version("jax")',
    "version(  # the distribution\n    'jax')",
    'version(distribution_name="jax")',
    "importlib.metadata.version(('jax'))",
]
OPERATORS = ["==", "!=", "is", "is not", "<", ">=", "in", "not in"]
OTHERS = ["'0.11.0'", "(0, 11, 0)", "_SUPPORTED"]
GAPS = [" ", "", "  # why\n    ", "\n    ", " \\\n    "]  # a comment or a break: inside brackets only
STATEMENTS = [
    "if {test}:\n    raise ImportError('x')\n",
    "assert {test}\n",
    "ok = {test}\n",
    's = """\n# not a comment"""; ok = {test}\n',  # a '#' in a text, which closes before the test
]
READS = [
    "v = jax.{name}\n",
    "print(jax.{name})\n",
    "parts = jax.{name}.split('.')\n",
    "# jax.{name} == '0.11.0'\n",
    "w = (jax.{name},\n     1)\n",
    "from jax.version import {name}\n",
]


def _imports(reference: str, name: str) -> str:
    if reference == "{name}":
        return f"from jax.version import {name}\n"
    if reference == "V":
        return f"from jax.version import {name} as V\n"
    if reference.startswith("importlib"):
        return "import importlib.metadata\n"
    return "from importlib.metadata import version\n" if reference.startswith("version") else ""


@st.composite
def programs(draw) -> str:
    name, reference = draw(st.sampled_from(NAMES)), draw(st.sampled_from(REFERENCES))
    operand, other = reference.format(name=name), draw(st.sampled_from(OTHERS))
    operator, gap = draw(st.sampled_from(OPERATORS)), draw(st.sampled_from(GAPS))
    left, right = (operand, other) if draw(st.booleans()) else (other, operand)
    test = f"{left}{gap}{operator}{gap or ' '}{right}"
    if "\n" in gap or "#" in gap or draw(st.booleans()):
        test = f"({test})"
    reads = draw(st.lists(st.sampled_from(READS), max_size=2))
    statement = draw(st.sampled_from(STATEMENTS)).format(test=test)
    body = "".join(read.format(name=draw(st.sampled_from(NAMES))) for read in reads) + statement
    return HEAD + _imports(reference, name) + body + PRIMITIVE


def _reported(code: str, monkeypatch) -> bool:
    """Does HJX014, asked whatever the text names, report anything in ``code``?"""
    original = Rule.needed
    monkeypatch.setattr(Rule, "needed", lambda rule, *a: rule.code == "HJX014" or original(rule, *a))
    try:
        result = migrate_source(code, "m.py", Options(parse_version("0.12")))
    except MigrationError:
        return False
    finally:
        monkeypatch.setattr(Rule, "needed", original)
    return any(finding.rule == "HJX014" for finding in result.report.findings)


@settings(max_examples=300, deadline=None)
@given(programs())
def test_every_comparison_hjx014_reports_is_named(monkeypatch_module, code):
    if _reported(code, monkeypatch_module):
        assert RULE.needed(code, named_words(code.encode(), WORDS)), code


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_the_generator_writes_comparisons_hjx014_reports(monkeypatch_module):
    """The property above is no vacuous one: each reference, compared exactly, is reported."""
    for reference in REFERENCES:
        operand = reference.format(name="__version__")
        code = HEAD + _imports(reference, "__version__") + f"ok = ({operand} != '0.11.0')\n" + PRIMITIVE
        assert _reported(code, monkeypatch_module), code


@pytest.mark.parametrize(
    "code",
    [  # reads of a version in jax's own modules, none compared exactly
        "version_str = jaxlib.version.__version__\n",
        "jaxlib_extension_version: int = getattr(xla_client, '_version', 0)\n",
        "if hasattr(executable, 'serialize') or xla_client._version >= 389:\n    pass\n",
        "  return parse_version(np.__version__)\n",
        "_ml_dtypes_version = tuple(map(int, ml_dtypes.__version__.split('.')[:3]))\n",
        "  os.environ.setdefault('TPU_ML_PLATFORM_VERSION', version.__version__)\n",
        "# Copyright\n\n_version = '0.10.2'\n",
        "  return _version_from_git_tree(_version) or _version_from_todays_date(_version)\n",
        "__version__ = _get_version_string()\n",
        "from jax.version import __version__ as __version__\n",
        "    set_metadata('jax_version', jax_version_module.__version__)\n",
        "logger = logging.getLogger('jax')\nv = packaging.version.parse(x)\n",  # a 'jax' string, no call of it
        "from importlib.metadata import version\nv = version('jaxlib')\n",
        "from jax._src.lib import version as jaxlib_version\n",  # an alias, never called with 'jax'
    ],
)
def test_reads_that_compare_nothing_are_passed_over(code):
    assert not RULE.needed(code, named_words(code.encode(), WORDS))


@pytest.mark.parametrize(
    "code",
    [
        "ok = jax.__version__ == '0.11.0'\n",
        "ok = '0.11.0' != jax.version._version\n",
        "ok = x is not jax.__version_info__\n",
        "ok = jax.__version_info__[:2] == (0, 11)\n",
        "ok = ('0.11.0' ==  # 'a quote'\n    jax.__version__)\n",  # unsure where the comment starts: read
        "from jax.version import (\n    __version__  # the one\n    as V,\n)\n",  # an alias, compared anywhere
        "from importlib.metadata import version\nv = jax.__version__\nok = version('jax') == '0.11.0'\n",
        "ok = importlib.metadata.version('jax') == '0.11.0'\n",
        "ok = metadata.version(  # the package\n    ('jax')) != '0.11.0'\n",
        "ok = version(distribution_name=\"jax\") == '0.11.0'\n",
        "from importlib.metadata import version as installed\nok = installed('jax') == '0.11.0'\n",
    ],
)
def test_comparisons_and_aliases_are_read(code):
    assert RULE.needed(code, named_words(code.encode(), WORDS))


BASE = "from jax.experimental.hijax import VJPHiPrimitive\n\nclass Base(VJPHiPrimitive):\n    pass\n"


@pytest.mark.parametrize(
    "gate, line, compared",
    [
        # ``jax.version._version`` names no ``__version_``: the file was passed over
        ("import jax.version\n\nif jax.version._version != '0.11.0':\n", 3, "jax.version._version != '0.11.0'"),
        # nor does ``version("jax")`` name any: passed over until its own word
        ("from importlib.metadata import version\n\nif version('jax') != '0.11.0':\n", 3, "version('jax') != '0.11.0'"),
    ],
)
def test_a_gate_on_jax_version_is_checked_where_the_base_comes_from_another_module(tmp_path, gate, line, compared):
    """A gate that raises on every release but one, in a file whose primitive's base is
    another module's (it names no other word): ``--check`` said nothing was left."""
    from test_cli import cli

    (tmp_path / "lib.py").write_text(BASE)
    (tmp_path / "gate.py").write_text(
        f"from lib import Base\n{gate}    raise ImportError('needs 0.11.0')\n\nclass Op(Base):\n    pass\n"
    )
    done = cli("--check", "--no-cache", "--target-jax", "0.12", "gate.py", cwd=tmp_path)
    assert done.returncode == 1
    assert f"gate.py:{line + 1}: HJX014 `{compared}` fails on every jax release but one" in done.stderr


def test_a_version_read_with_no_jax_string_is_passed_over():
    code = "v = packaging.version.parse(x)\n"
    assert not RULE.needed(code, named_words(code.encode(), WORDS))


_PIECES = [b"__version__", b"_version", b"version", b"jax", b".", b" ", b"\n", b"\r", b"\\\n", b"#", b"'jax'", b'"jax"']
_PIECES += [b"(", b")", b"[", b"==", b"!=", b"is", b"not", b"as", b"=", b":", b"\xc3\xa9", b"\x00", b"V"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=16))
def test_any_bytes_get_an_answer(pieces):
    """The pre-filter reads every file of a tree: whatever its bytes (broken code, a cut
    at either end, a lone carriage return, bytes beyond ASCII), each occurrence gets an answer."""
    from hijax_migrate.sources.compared_names import compared_at

    data = b"".join(pieces)
    for name in (b"__version__", b"_version", b"version"):
        at = data.find(name)
        while at != -1:
            assert compared_at(data, at, at + len(name)) in (True, False)
            at = data.find(name, at + 1)
