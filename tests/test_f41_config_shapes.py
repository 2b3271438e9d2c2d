"""Every shape of configuration is reported (issue 41): the tool's own table,
the pins of ``pyproject.toml`` (PEP 621, PEP 735), Poetry's and PDM's
tables. A table of another shape is a usage error naming the file and the
key (exit code 2), never a traceback. The six shapes the issue names, then
shapes drawn by hypothesis; ``HIJAX_CONFIG_EXAMPLES`` sets their number.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from hijax_migrate.cli import main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("HIJAX_CONFIG_EXAMPLES", "150"))


def run(root: Path, *args: str) -> tuple[int, str]:
    said = io.StringIO()
    with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(root):
        code = main(["--no-cache", "-q", *args, "--check", "."])
    return code, said.getvalue()


def tree(root: Path, pyproject: str) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / "mod.py").write_text("x = 1\n")
    (root / "pyproject.toml").write_text(pyproject)
    return root


SIX = [
    ("[tool]\nhijax-migrate = 3\n", "tool.hijax-migrate"),
    ("project = 1\n", "project"),
    ('[project]\noptional-dependencies = ["jax"]\n', "project.optional-dependencies"),
    ("[tool.poetry]\ndependencies = [1]\n", "tool.poetry.dependencies"),
    ("[tool.poetry.group]\ndev = 1\n", "tool.poetry.group.dev"),
    ("[tool.pdm]\ndev-dependencies = [1]\n", "tool.pdm.dev-dependencies"),
    ("tool = 1\n", "tool"),
    ("[project]\ndependencies = [1]\n", "project.dependencies"),
    ("[tool.poetry.dependencies]\njax = 1\n", "tool.poetry.dependencies.jax"),
    ("[tool.poetry.group.dev]\ndependencies = 1\n", "tool.poetry.group.dev.dependencies"),
    ("dependency-groups = 1\n", "dependency-groups"),
    ('[tool.hijax-migrate]\nextend-exclude = ["a/[z-a]"]\n', "extend-exclude"),
]


@pytest.mark.parametrize("text, key", SIX)
@pytest.mark.parametrize("target", [(), ("--target-jax", "0.10")])
def test_each_malformed_shape_is_a_usage_error_naming_file_and_key(tmp_path, text, key, target):
    code, said = run(tree(tmp_path, text), *target)
    assert code == 2, said
    assert said.count("\n") == 1 and "pyproject.toml" in said, said
    assert f": {key} must be" in said or f"{key} in [tool.hijax-migrate]" in said, said


def test_the_usage_error_is_said_by_the_console_script_too(tmp_path):
    import subprocess
    import sys

    root = tree(tmp_path, SIX[0][0])
    command = [sys.executable, "-m", "hijax_migrate", "--check", "."]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "tool.hijax-migrate" in done.stderr


# TOML shapes: values of every kind under the keys the tool reads, and others.
KEYS = st.sampled_from(
    [
        "project",
        "tool",
        "poetry",
        "pdm",
        "hijax-migrate",
        "dependencies",
        "optional-dependencies",
        "dev-dependencies",
        "group",
        "dependency-groups",
        "jax",
        "version",
        "target-jax",
        "strategy",
        "exclude",
        "include",
        "select",
        "ignore",
        "black",
        "base",
        "dev",
        "test",
        "extend-exclude",
    ]
) | st.text("abcxyz-_. ", min_size=1, max_size=6)
LEAVES = (
    st.integers(-3, 3)
    | st.booleans()
    | st.sampled_from(
        ["jax", "jax>=0.10", "^0.10", "jax ; python_version<'3'", "0.10.*", "", "[", "[z-a]", "auto", "HJX001"]
    )
    | st.text(max_size=6)
)
VALUES = st.recursive(
    LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3), max_leaves=8
)
# Shapes under the paths the tool reads, as often as anywhere else.
PLACES = st.sampled_from(
    [
        (),
        ("project",),
        ("tool",),
        ("tool", "hijax-migrate"),
        ("tool", "poetry"),
        ("tool", "poetry", "group"),
        ("tool", "poetry", "group", "dev"),
        ("tool", "pdm"),
        ("tool", "pdm", "dev-dependencies"),
        ("project", "optional-dependencies"),
        ("tool", "poetry", "dependencies"),
        ("dependency-groups",),
    ]
)


def _placed(place: tuple[str, ...], value) -> dict:
    for key in reversed(place):
        value = {key: value}
    return value


DOCS = st.lists(st.builds(_placed, PLACES, st.dictionaries(KEYS, VALUES, max_size=3)), max_size=3).map(
    lambda parts: {k: v for part in parts for k, v in part.items()}
)


def toml(value) -> str:
    """An inline TOML value (arrays and inline tables); strings as JSON writes them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(toml, value)) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=DOCS, target=st.booleans())
def test_no_configuration_shape_reaches_a_traceback(tmp_path_factory, doc, target):
    text = "".join(f"{json.dumps(k)} = {toml(v)}\n" for k, v in doc.items())
    root = tree(tmp_path_factory.mktemp("shape"), text)
    code, said = run(root, *(("--target-jax", "0.10") if target else ()))  # an exception fails the test
    assert code in (0, 2), said
    if code == 2:
        assert said.count("\n") == 1 and "pyproject.toml" in said, said


def test_a_pattern_pathspec_cannot_read(tmp_path):
    root = tree(tmp_path, "")
    code, said = run(root, "--exclude", "a/[z-a]")
    assert code == 2 and said.count("\n") == 1 and "'a/[z-a]' is not a pattern" in said, said
    (root / ".gitignore").write_text("[z-a]\nignored.py\n")  # git matches nothing with such a line
    (root / "ignored.py").write_text("from jax.experimental.hijax import VJPHiPrimitive\n")
    code, said = run(root)
    assert code == 0, said


LOCKS = st.sampled_from(["uv.lock", "poetry.lock", "pylock.toml"])
PACKAGE = st.dictionaries(
    st.sampled_from(["name", "version", "marker", "resolution-markers"]) | KEYS,
    st.sampled_from(["jax", "0.10.2", "python_version < '4'", "bad marker", "1.x"]) | VALUES,
    max_size=4,
)


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=LOCKS, key=st.sampled_from(["package", "packages"]), packages=st.lists(PACKAGE, max_size=3) | VALUES)
def test_no_lock_file_shape_reaches_a_traceback(tmp_path_factory, name, key, packages):
    """A lock file of another shape is read as no pin, never a traceback."""
    root = tree(tmp_path_factory.mktemp("lock"), "")
    (root / name).write_text(f"{key} = {toml(packages)}\n")
    code, said = run(root)
    assert code in (0, 2), said
