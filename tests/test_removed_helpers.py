"""HJX015: every import or use of a derived-rule helper jax 0.11.1 removed is
reported where the migration leaves it, and nothing else is; under jax 0.12
(HIJAX_PY312) the reported lines are exactly the ones jax refuses."""

from __future__ import annotations

import json
import os

import pytest
from hijax_migrate.core.versions import parse_version
from hijax_migrate.engine.engine import migrate_source
from hijax_migrate.rules.context import Options

from golden import GOLDEN, read_case

HELPERS = (
    "apply_derived_linearization",
    "vjp_fwd_from_jvp",
    "transpose_jvp",
    "vjp_fwd_from_lin",
    "transpose_linearized",
)
KEPT = ("linearize_from_jvp", "vjp_from_jvp", "vjp_from_lin", "jvp_from_lin")  # in 0.11.1 and 0.12
MUTABLE = ("AvalQDD", "MutableHiType", "AvalMutableQDD")  # HJX013's, removed with them


def spellings(name: str) -> list[str]:
    """Ways real code reaches ``name`` in jax's two hijax modules."""
    return [
        f"from jax.experimental.hijax import {name}",
        f"from jax.experimental.hijax import {name} as alias",
        f"from jax._src.hijax import {name}",
        f"import jax.experimental.hijax as hjx\nvalue = hjx.{name}",
        f"from jax._src import hijax\nvalue = hijax.{name}",
        f"import jax.experimental.hijax\nvalue = jax.experimental.hijax.{name}",
        f"from jax.experimental import hijax as h\n\ndef get():\n    return h.{name}\n\nvalue = get()",
    ]


SNIPPETS = [code for name in HELPERS + KEPT + MUTABLE for code in spellings(name)]


def reported(code: str, target: str = "0.12") -> list[tuple[int, str]]:
    result = migrate_source(code, "m.py", Options(parse_version(target)))
    assert result.code == code  # reported, never rewritten: no proven rewrite outside a class body
    return [(f.line, f.rule) for f in result.report.findings if f.severity == "error"]


@pytest.mark.parametrize("code", SNIPPETS)
def test_each_removed_name_is_an_error_at_its_line(code):
    name = next(n for n in HELPERS + KEPT + MUTABLE if n in code)
    found = reported(code)
    if name in KEPT:
        assert found == []
    else:
        rule = "HJX015" if name in HELPERS else "HJX013"
        lines = sorted({line for line, text in enumerate(code.splitlines(), 1) if name in text})
        assert found == [(line, rule) for line in lines]
        assert reported(code, "0.11.0") == []  # the names are there in 0.11.0


PAIRED_AWAY = (
    "hjx007_derived_at_gate",
    "hjx007_derived_lin_pair_at_gate",
    "hjx007_derived_lin_pair_after_gate",
    "hjx007_derived_module_attribute",
)  # HJX007 pairs every helper: their imports go too


@pytest.mark.parametrize(
    "path",
    [path for path in sorted(GOLDEN.glob("hjx015_*.py")) if not path.stem.endswith("_warns")]
    + [GOLDEN / f"{name}.py" for name in PAIRED_AWAY],
    ids=lambda p: p.stem,
)
def test_silent_where_nothing_is_left(path):
    """The cases not named ``_warns`` report nothing: paired away, another
    module's names, or a target that still has the helpers."""
    case = read_case(path)
    args = case.flags
    target = args[args.index("--target-jax") + 1]
    assert migrate_source(case.source, path.name, Options(parse_version(target))).report.findings == []


def test_a_half_hjx007_reports_is_not_reported_twice_unless_hjx007_is_off():
    code = (
        "from jax.experimental.hijax import VJPHiPrimitive, vjp_fwd_from_jvp\n\n"
        "class Op(VJPHiPrimitive):\n    vjp_fwd = vjp_fwd_from_jvp\n"
    )
    both = migrate_source(code, "m.py", Options(parse_version("0.11.1"))).report.findings
    assert [(f.line, f.rule) for f in both] == [(3, "HJX007"), (1, "HJX015")]
    alone = migrate_source(code, "m.py", Options(parse_version("0.11.1"), skip=["HJX007"])).report.findings
    assert [(f.line, f.rule) for f in alone] == [(1, "HJX015"), (4, "HJX015")]


PY312 = os.environ.get("HIJAX_PY312", "")
RUN = """
import json, sys, traceback
failed = []
for code in json.loads(sys.stdin.read()):
    try:
        exec(compile(code, "m.py", "exec"), {})
    except (ImportError, AttributeError) as error:
        failed.append([frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                       if frame.filename == "m.py"][-1])
    else:
        failed.append(None)
print(json.dumps(failed))
"""


def under_jax_012(runs: dict, name: str) -> list:
    """What script ``name`` of ``removed_helper_scripts`` printed (JSON), run under the real jax 0.12."""
    run = runs["script", "removed helpers", name].ran()
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


needs_jax_012 = pytest.mark.skipif(
    not PY312, reason="needs HIJAX_PY312 naming a Python 3.12+ with jax 0.12 (.ci/run sets it up)"
)


@pytest.mark.jax
@needs_jax_012
def test_reported_exactly_where_jax_012_refuses(jax_012_runs):
    for code, line in zip(SNIPPETS, under_jax_012(jax_012_runs, "RUN")):
        first = min((found for found, _ in reported(code)), default=None)
        assert first == line, code  # the first line reported is the one jax stops at (or none, where it runs)


LIN_SNIPPETS = [
    "from jax.experimental.hijax import linearize_from_jvp\n\nclass C:\n    lin = linearize_from_jvp\n",
    "import jax.experimental.hijax as hjx\n\nclass C:\n    pass\n\nC.lin = hjx.linearize_from_jvp\n",
    "from jax._src.hijax import linearize_from_jvp as lfj\n\nclass C:\n    lin = lfj\n",
    "from jax.experimental.hijax import linearize_from_jvp\n\nclass C:\n    lin, linearized = linearize_from_jvp\n",
    "from jax.experimental.hijax import linearize_from_jvp\n\nclass C:\n    rules = linearize_from_jvp\n"
    "    lin, linearized = rules\n",
]
LIN_RUN = """
import json, sys
held = []
for code in json.loads(sys.stdin.read()):
    scope = {}
    exec(compile(code, "m.py", "exec"), scope)
    held.append(isinstance(scope["C"].lin, tuple))  # the pair itself: a TypeError when jax calls it
print(json.dumps(held))
"""


@pytest.mark.jax
@needs_jax_012
def test_a_single_lin_is_reported_exactly_where_jax_012_gives_it_the_pair(jax_012_runs):
    held = under_jax_012(jax_012_runs, "LIN_RUN")
    assert held == [True, True, True, False, False]  # both kinds are tried
    for code, wrong in zip(LIN_SNIPPETS, held):
        lines = [n for n, text in enumerate(code.splitlines(), 1) if "lin =" in text or ".lin =" in text]
        assert reported(code) == ([(lines[0], "HJX015")] if wrong else []), code


def removed_helper_scripts(batch) -> dict:
    """An extra of jax_012_runs: each script run by the batch, its snippets (JSON) on stdin."""
    folder = batch.folder_for("removed-helpers")
    scripts = {}
    for name, script, snippets in (("RUN", RUN, SNIPPETS), ("LIN_RUN", LIN_RUN, LIN_SNIPPETS)):
        (folder / f"{name}.py").write_text(script)
        scripts["script", "removed helpers", name] = batch.script(folder / f"{name}.py", stdin=json.dumps(snippets))
    return scripts
