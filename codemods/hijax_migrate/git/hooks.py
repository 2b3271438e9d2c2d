"""Git hooks: installing and removing them, and the check they run.

``hijax-migrate install-hook --hook-type pre-push`` writes a small shell hook
that runs this module's ``main`` with the interpreter the tool is installed
in. An existing hook is kept working: it is moved beside
ours (``<hook>.pre-hijax-migrate``) and run first, with the same arguments and
input; ``uninstall-hook`` puts it back.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

HOOK_TYPES = ("pre-push", "pre-commit")
MARKER = "# hijax-migrate hook"
PREVIOUS = ".pre-hijax-migrate"

_SCRIPT = """\
#!/bin/sh
{marker} ({hook_type}), written by `hijax-migrate install-hook`.
# Remove it with `hijax-migrate uninstall-hook --hook-type {hook_type}`{restores}.
hooks=$(dirname "$0")
python={python}
# Not `-m`: the repository's own folder must not shadow the standard library.
run='import sys; del sys.path[0]; from hijax_migrate.hooks import run; run()'
if [ ! -x "$python" ]; then
    echo "hijax-migrate hook: $python is gone; reinstall the hook, or remove it with" >&2
    echo "  hijax-migrate uninstall-hook --hook-type {hook_type}" >&2
    exit 1
fi
{body}"""

_PRE_PUSH = """\
refs=$(cat)
if [ -x "$hooks/pre-push{previous}" ]; then
    printf '%s\\n' "$refs" | "$hooks/pre-push{previous}" "$@" || exit $?
fi
printf '%s\\n' "$refs" | exec "$python" -c "$run" pre-push "$@"
"""

_PRE_COMMIT = """\
if [ -x "$hooks/pre-commit{previous}" ]; then
    "$hooks/pre-commit{previous}" "$@" || exit $?
fi
exec "$python" -c "$run" pre-commit
"""


class HookError(Exception):
    pass


def script(hook_type: str, python: str, chained: bool) -> str:
    body = _PRE_PUSH if hook_type == "pre-push" else _PRE_COMMIT
    restores = ", which puts back the hook it chains" if chained else ""
    return _SCRIPT.format(
        marker=MARKER,
        hook_type=hook_type,
        restores=restores,
        python=shlex.quote(python),
        body=body.format(previous=PREVIOUS),
    )


def is_ours(hook: Path) -> bool:
    try:
        return MARKER in hook.read_text(errors="replace")
    except OSError:
        return False


def install(hook_type: str, start: Path, python: str = sys.executable) -> str:
    from ..sources.gitrepo import hooks_dir

    folder = hooks_dir(start)
    hook, previous = folder / hook_type, folder / f"{hook_type}{PREVIOUS}"
    folder.mkdir(parents=True, exist_ok=True)
    existing = hook.exists() or hook.is_symlink()
    was_ours = existing and is_ours(hook)
    if existing and not was_ours:
        if previous.exists() or previous.is_symlink():
            raise HookError(
                f"{hook} exists and so does {previous.name}: not chaining a third; "
                "merge them by hand, then run install-hook again"
            )
        os.replace(hook, previous)  # kept working: our hook runs it first
    chained = previous.exists() or previous.is_symlink()
    tmp = hook.with_name(f".{hook_type}.hijax-tmp")
    tmp.write_text(script(hook_type, python, chained))
    tmp.chmod(0o755)
    os.replace(tmp, hook)
    verb = "updated" if was_ours else "installed"
    tail = f"; it runs your previous hook ({previous.name}) first" if chained else ""
    return f"{verb} {hook}{tail}"


def uninstall(hook_type: str, start: Path) -> str:
    from ..sources.gitrepo import hooks_dir

    folder = hooks_dir(start)
    hook, previous = folder / hook_type, folder / f"{hook_type}{PREVIOUS}"
    if not (hook.exists() or hook.is_symlink()):
        raise HookError(f"no {hook_type} hook in {folder}")
    if not is_ours(hook):
        raise HookError(f"{hook} is not hijax-migrate's hook; left as it is")
    hook.unlink()
    _remove_tree(start)
    if previous.exists() or previous.is_symlink():
        os.replace(previous, hook)
        return f"removed hijax-migrate's {hook_type} hook; your previous hook is back in {hook}"
    return f"removed {hook}"


def _remove_tree(start: Path) -> None:
    """The copy of the tree the hooks checked (``hook_tree``): the next hook writes it again."""
    from ..sources.gitrepo import repo_at
    from . import hook_tree

    hook_tree.remove(repo_at(start))


def command(argv: list[str]) -> int:
    """``hijax-migrate install-hook|uninstall-hook --hook-type TYPE``."""
    from ..command.usage import EXIT_CLEAN, EXIT_USAGE, hook_type
    from ..sources.gitrepo import GitError

    chosen = hook_type(argv, HOOK_TYPES)
    action = install if argv[0] == "install-hook" else uninstall
    try:
        print(action(chosen, Path.cwd()))
    except (HookError, GitError, OSError) as error:
        print(f"hijax-migrate: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_CLEAN


# -- what the installed hook runs


def run_hook(hook_type: str, lines: list[str], remote: str = "origin") -> int:
    from ..sources.gitrepo import repo_at
    from . import gitcheck

    repo = repo_at(Path.cwd())
    checks = gitcheck.staged(repo) if hook_type == "pre-commit" else gitcheck.pushed(repo, lines, remote)
    results = list(gitcheck.run_checks(repo, checks))
    return _verdict(hook_type, [(check.what, o) for check, outcomes in results for o in outcomes])


def _verdict(hook_type: str, outcomes: list) -> int:
    """0, or 1 with a message naming the files and the commands that fix them."""
    from ..output.report import error_text, finding_text

    pending = sorted({o.file for _, o in outcomes if o.changed})
    errors = [o for _, o in outcomes if o.error]
    by_hand = [f for _, o in outcomes for f in o.findings if f.is_error]
    if not pending and not errors and not by_hand:
        return 0
    what = "push" if hook_type == "pre-push" else "commit"
    out = [f"hijax-migrate: {what} blocked."]
    if pending:
        where = {o.file: ref for ref, o in outcomes if o.changed}
        out += [
            f"These files, as they are in {_places(hook_type, where)}, use an old hijax API:",
            *(f"  {name}" for name in pending),
            _fix(hook_type, pending),
        ]
    if by_hand:
        out += [
            "This code will not work on the target jax; fix it by hand:",
            *(f"  {finding_text(f)}" for f in by_hand),
        ]
    out += [error_text(o) for o in errors]
    out.append(f"(To {what} anyway, once: git {what} --no-verify.)")
    print("\n".join(out), file=sys.stderr)
    return 1


def _places(hook_type: str, where: dict) -> str:
    if hook_type == "pre-commit":
        return "the index (staged)"
    refs = sorted(set(where.values()))
    return "the commits pushed to " + ", ".join(refs)


def _fix(hook_type: str, pending: list[str]) -> str:
    names = shlex.join(pending)
    steps = [
        "Fix them, from the repository's top"
        + (", on the branch being pushed" if hook_type == "pre-push" else "")
        + ":",
        f"  hijax-migrate --in-place -- {names}",
        f"  git add -- {names}",
    ]
    steps += (
        ["  git commit -m 'Migrate hijax primitives'", "then push again."]
        if hook_type == "pre-push"
        else ["then commit again."]
    )
    return "\n".join(steps)
