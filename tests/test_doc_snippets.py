"""Every command line and snippet of the README and docs/ runs as shown.

Each fenced block (and each inline `hijax-migrate ...` of the prose) is
taken from the documents as they stand, and handled by what it is: the
tool's commands run in a small git repository with a hijax primitive in it
(`path/to/repo`, `pkg/`, `src/`), TOML is read as the configuration, YAML
as a workflow or a pre-commit configuration (the pre-commit one run by
pre-commit itself where it is installed), Python executed. A command no
handler knows fails the test, so a new snippet cannot go unchecked. The
test suite's own command is not run (it is the suite): it is checked to be
the one `.ci/run` runs. The rule examples of docs/rules.md are checked by
tests/test_docs.py; docs/safety.md and docs/verify.md by their own tests.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

ROOT = Path(__file__).resolve().parents[1]
CODEMODS = ROOT / "codemods"
PAGES = [
    ROOT / "README.md",
    *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in ("rules.md", "safety.md", "verify.md")),
]
FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^\1```", re.DOTALL | re.MULTILINE)
OP = """from jax.experimental.hijax import VJPHiPrimitive


class Mul(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y)

    def vjp_bwd(self, res, g):
        x, y = res
        return (g * y, g * x)
"""
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def blocks(kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for match in FENCE.finditer(page.read_text()):
            if match.group(2) in kinds:
                body = "".join(line[len(match.group(1)) :] + "\n" for line in match.group(3).splitlines())
                found.append((f"{page.relative_to(ROOT)}:{match.group(2)}:{match.start()}", body))
    return found


INLINE = re.compile(r"`((?:hijax-migrate|python -m hijax_migrate)(?= |`)[^`]*)`")


def commands_in_order(page: Path) -> list[str]:
    """The page's shell lines and inline commands, in the order a reader meets them."""
    text, found, at = page.read_text(), [], 0
    for match in [*FENCE.finditer(text), None]:
        prose = text[at : match.start() if match else len(text)]
        found += [m.group(1) for m in INLINE.finditer(prose)]
        if match is not None:
            if match.group(2) in ("sh", "bash", "console"):
                found += [line.strip() for line in match.group(3).splitlines()]
            at = match.end()
    return [line for line in found if line]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project to run the documents' commands in, and the tool on PATH
    (this checkout's, by a shim) as ``hijax-migrate`` and ``python``."""
    work = tmp_path / "project"
    for folder in ("path/to/repo/pkg", "pkg", "src/pkg"):
        (work / folder).mkdir(parents=True)
        (work / folder / "__init__.py").write_text("")
        (work / folder / "ops.py").write_text(OP)
    (work / "file.py").write_text(OP)
    (work / "pyproject.toml").write_text('[project]\nname = "demo"\ndependencies = ["jax>=0.10"]\n')
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    subprocess.run([*git, "-C", str(work), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(work), "commit", "-qm", "start"], check=True)
    shims = tmp_path / "bin"
    shims.mkdir()
    for name, run in (("hijax-migrate", f'"{sys.executable}" -m hijax_migrate'), ("python", f'"{sys.executable}"')):
        (shims / name).write_text(f'#!/bin/sh\nexec {run} "$@"\n')
        (shims / name).chmod(0o755)
    return work


def shell(line: str, cwd: Path, timeout: int = 120) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PATH": f"{cwd.parent / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(CODEMODS),
        "HOME": str(cwd.parent),
        "NO_COLOR": "1",
    }
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def command_of(line: str) -> str:
    """The line without its trailing comment (`  # ...`), as written otherwise."""
    return re.sub(r"\s+#(\s.*)?$", "", line).strip()


def run_tool(line: str, repo: Path) -> None:
    """The tool's command, as written: exits 0 or 1 (done, or something to
    do), never a usage error (2), a failure (3) or a traceback."""
    done = shell(line, repo)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, (line, done.stdout, done.stderr)


def check_pip(line: str) -> None:
    """An install of this project, with extras it declares."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    for word in shlex.split(line)[2:]:
        if word.startswith("."):
            assert set(re.findall(r"\w+", word[1:])) <= set(extras), line
        else:
            assert word in ("-e", "-q") or word.startswith("git+"), line


def check_tests_command(line: str) -> None:
    """The suite is run as .ci/run runs it: the same extras, then pytest."""
    ci = (ROOT / ".ci" / "run").read_text()
    install, _, test = line.partition(" && ")
    assert f"python -m pip install -q {install.removeprefix('pip install ')}" in ci
    assert test == "pytest" and re.search(r"^python -m pytest$", ci, re.MULTILINE)


def check_pytest(line: str) -> None:
    """A selection of the suite: its files exist (the suite is not run here)."""
    words = shlex.split(line)
    assert words[words.index("pytest") - 1].count("=") <= 1
    assert all((ROOT / word).is_file() for word in words if word.startswith("tests/")), line


def check_jax_venv(line: str) -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r'"jax==[\d.]+"', line).group(0) in ci, line


def check_benchmark(line: str) -> None:
    words = shlex.split(line, comments=True)
    script = ROOT / words[1]
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(CODEMODS)},
    )
    assert done.returncode == 0, done.stderr
    flags = re.findall(r"--[\w-]+", line.partition("#")[2])
    assert all(flag in done.stdout for flag in flags), (line, done.stdout)


def handle(line: str, repo: Path) -> None:
    command = command_of(line)
    if not command:
        return
    if command == "python3 -m venv .venv && . .venv/bin/activate":
        assert (
            shell(
                'python3 -m venv --without-pip .venv && . .venv/bin/activate && test -n "$VIRTUAL_ENV"', repo
            ).returncode
            == 0
        )
    elif command.startswith(("hijax-migrate", "python -m hijax_migrate", "python -m libcst.tool")):
        run_tool(command, repo)
    elif command.startswith("pip install -e") and command.endswith("&& pytest"):
        check_tests_command(command)
    elif command.startswith("pip install"):
        check_pip(command)
    elif command.startswith("python3.12 -m venv"):
        check_jax_venv(command)
    elif re.match(r"(\w+=\S+ )*pytest\b", command):
        check_pytest(command)
    elif command.startswith("python benchmarks/"):
        check_benchmark(line)
    elif command.startswith("git diff"):  # read-only: run in this checkout
        assert shell(command, ROOT).returncode == 0
    else:
        pytest.fail(f"no handler for a documented command: {line!r}")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_commands_run_as_written_in_the_order_written(page, repo):
    for line in commands_in_order(page):
        handle(line, repo)


@pytest.mark.parametrize("body", [pytest.param(body, id=where) for where, body in blocks(("toml",))])
def test_toml_is_a_configuration_the_tool_accepts(body, tmp_path):
    from hijax_migrate.command import config

    (tmp_path / "pyproject.toml").write_text(body)
    loaded = config.load(tmp_path)
    assert loaded.path is not None and set(loaded.values) <= set(config.KEYS)
    done = shell(f'"{sys.executable}" -m hijax_migrate --list-rules', tmp_path)
    assert done.returncode == 0, done.stderr


def test_workflow_yaml_runs_the_tool(repo):
    workflows = [yaml.safe_load(body) for _, body in blocks(("yaml",)) if "jobs:" in body]
    assert workflows
    for workflow in workflows:
        steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
        runs = [step["run"] for step in steps if "run" in step]
        assert any(run.startswith("hijax-migrate") for run in runs)
        for run in runs:
            handle(run if not run.startswith("pip install") else _pip_of_a_variable(run), repo)


def _pip_of_a_variable(run: str) -> str:
    """``pip install "git+${{ vars.X }}"``: a git install, whatever the variable holds."""
    assert re.fullmatch(r'pip install "git\+\$\{\{ vars\.\w+ \}\}"(\s+#.*)?', run), run
    return "pip install git+URL"


def test_pre_commit_yaml_declares_the_tools_own_hooks(repo):
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    configs = [yaml.safe_load(body) for _, body in blocks(("yaml",)) if "repos:" in body]
    assert configs
    for config in configs:
        for entry in config["repos"]:
            assert entry["repo"] == "local", "a URL in the docs would be a placeholder: there is no public one"
            for hook in entry["hooks"]:
                ours = hooks[hook["id"]]
                assert (hook["entry"], hook["types_or"]) == (ours["entry"], ours["types_or"])


PRE_COMMIT = shutil.which("pre-commit", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")
def test_pre_commit_yaml_runs_under_pre_commit(repo):
    """The README's configuration, run by pre-commit: the hook rewrites the
    primitive, and so fails, as pre-commit's fixers do."""
    body = next(body for where, body in blocks(("yaml",)) if "repos:" in body and where.startswith("README"))
    (repo / ".pre-commit-config.yaml").write_text(body)
    shell("git add -A", repo)
    done = shell(f'"{PRE_COMMIT}" run --all-files', repo, timeout=300)
    assert done.returncode == 1 and "hijax-migrate" in done.stdout, done.stdout + done.stderr
    assert "def vjp_bwd_retval(" in (repo / "pkg" / "ops.py").read_text()


@pytest.mark.parametrize("body", [pytest.param(body, id=where) for where, body in blocks(("python",))])
def test_python_block_runs(body, repo):
    done = shell(f'"{sys.executable}" -c {shlex.quote(body)}', repo)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("body", [pytest.param(body, id=where) for where, body in blocks(("json",))])
def test_json_example_has_the_reports_keys(body, repo):
    shown = json.loads(body)
    real = json.loads(shell("hijax-migrate --output-format json --target-jax 0.10 pkg", repo).stdout)
    assert set(shown) == set(real) and set(shown["summary"]) == set(real["summary"])
    assert set(shown["changes"][0]) == set(real["changes"][0])


def test_every_block_kind_is_handled():
    kinds = {match.group(2) for page in PAGES for match in FENCE.finditer(page.read_text())}
    # diff and unlabelled blocks are output shown, not run
    assert kinds <= {"sh", "bash", "console", "toml", "yaml", "python", "json", "diff", ""}
