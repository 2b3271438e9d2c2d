"""A hijax name newer than the target, read as an attribute of jax's hijax
module (``hjx.jvp_from_lin``, any alias), is refused as its import is: the
code is already past the release it would be migrated to (issue 26)."""

from __future__ import annotations

import re

import pytest
from hijax_migrate.analysis.project import Project
from hijax_migrate.engine.engine import MigrationError, migrate_source
from hijax_migrate.engine.triage import untouched
from hijax_migrate.rules.context import Options

CLASS = "\n\nclass Op({base}):\n    jvp = {use}\n"


ERRORS = [
    (
        "import jax.experimental.hijax as hjx\n" + CLASS.format(base="hjx.VJPHiPrimitive", use="hjx.jvp_from_lin"),
        (0, 10, 2),
        "`hjx.jvp_from_lin` (jax 0.11.0+)",
        5,
    ),
    (
        "from jax.experimental import hijax\n" + CLASS.format(base="hijax.VJPHiPrimitive", use="hijax.jvp_from_lin"),
        (0, 10, 0),
        "`hijax.jvp_from_lin` (jax 0.11.0+)",
        5,
    ),
    (
        "from jax._src import hijax as hx\n\n\ndef rules():\n    return hx.vjp_from_jvp\n",
        (0, 11, 0),
        "`hx.vjp_from_jvp` (jax 0.11.1+)",
        5,
    ),
    (
        "import jax.experimental.hijax\n\nRULE = jax.experimental.hijax.vjp_from_lin\n",
        (0, 10, 2),
        "`jax.experimental.hijax.vjp_from_lin` (jax 0.11.1+)",
        3,
    ),
    (
        "from jax.experimental import hijax\n\nSPEC = hijax.MappingSpec\n",
        (0, 10, 2),
        "`hijax.MappingSpec` (jax 0.11.0+)",
        3,
    ),
]


@pytest.mark.parametrize("code, target, newer, line", ERRORS)
def test_a_newer_attribute_of_a_hijax_module_is_an_error(code, target, newer, line):
    options = Options(target=target)
    assert untouched(code, "x.py", options, Project()) is None  # never passed over
    with pytest.raises(MigrationError, match=f"uses {re.escape(newer)}, newer than the target") as error:
        migrate_source(code, options=options)
    assert error.value.line == line


LEFT_ALONE = [
    ("import jax.experimental.hijax as hjx\n\nRULE = hjx.vjp_from_jvp\n", (0, 11, 1)),  # not newer
    ("from jax._src import hijax\n\nSPEC = hijax.MappingSpec\n", (0, 10, 2)),  # private module: since 0.10
    ("import mylib.hijax as hjx\n\nRULE = hjx.jvp_from_lin\n", (0, 10, 2)),  # another module
    ("import jax.experimental.hijax as hjx\n\n\ndef f(hjx):\n    return hjx.jvp_from_lin\n", (0, 10, 2)),  # a local
    (
        "import jax.experimental.hijax as hjx\n\nif hasattr(hjx, 'jvp_from_lin'):\n    RULE = hjx.jvp_from_lin\n",
        (0, 10, 2),
    ),  # version switches
    (
        (
            "import jax.experimental.hijax as hjx\n\ntry:\n    RULE = hjx.jvp_from_lin\nexcept AttributeError:\n"
            "    RULE = None\n"
        ),
        (0, 10, 2),
    ),
    ("import jax.experimental.hijax as hjx\n\nRULE = hjx.jvp_from_lin if NEW else None\n", (0, 10, 2)),
    ("import jax.experimental.hijax as hjx\n\nRULE = getattr(hjx, 'x', None) or hjx.jvp_from_lin\n", (0, 10, 2)),
]


@pytest.mark.parametrize("code, target", LEFT_ALONE)
def test_other_objects_and_version_switches_are_left_alone(code, target):
    assert migrate_source(code, options=Options(target=target)).code == code


@pytest.mark.parametrize("code", [case[0] for case in ERRORS + LEFT_ALONE])
@pytest.mark.parametrize("target", [(0, 9, 0), (0, 10, 0), (0, 10, 2), (0, 11, 0), (0, 11, 1)])
def test_the_newer_uses_read_from_ast_are_those_libcst_resolves(code, target, monkeypatch):
    """``newer_uses`` (triage's answer, and the engine's gate) finds each use the
    engine's scopes find, and no other but through a name a local rebinds."""
    import ast

    import libcst as cst
    from hijax_migrate.analysis.newer_uses import newer_uses
    from hijax_migrate.engine import newer_imports

    monkeypatch.setattr(newer_imports, "_may_import_newer", lambda code, target: True)  # libcst alone
    try:
        newer_imports.check_imports(cst.parse_module(code), code, target, lambda node: 0)
        raised = False
    except MigrationError:
        raised = True
    found = bool(newer_uses(ast.parse(code), code, target))
    assert found == raised or (found and "def f(hjx)" in code)


@pytest.mark.parametrize("target", [(0, 10, 0), (0, 10, 2)])
def test_the_private_modules_mapping_spec_needs_no_scopes(target, monkeypatch):
    """jax 0.10.2's api.py reads ``hijax.MappingSpec`` from jax._src.hijax, which has it
    since 0.10.0: triage passes the file over, and the engine resolves no scopes for it."""
    from hijax_migrate.engine import newer_imports

    code = "from jax._src import hijax\n\n\ndef spec(x):\n    return hijax.MappingSpec(x)\n"
    assert untouched(code, "api.py", Options(target=target), Project()) is not None
    monkeypatch.setattr(newer_imports, "_check_attributes", lambda *args: pytest.fail("scopes resolved"))
    assert migrate_source(code, options=Options(target=target)).code == code
