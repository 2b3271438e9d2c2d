"""The git hooks' entry point. Installed hooks run ``from hijax_migrate.hooks
import run; run()`` (and ``python -m hijax_migrate.hooks``), so this path
stays as it is; installing hooks and their check live in ``git/``.
"""

from __future__ import annotations

import sys

from .git.hooks import HOOK_TYPES, run_hook


def run() -> None:
    """What an installed hook runs (``exit_now``: no teardown after the check)."""
    from .core.process import exit_now

    exit_now(main())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in HOOK_TYPES:
        print(
            f"usage: python -m hijax_migrate.hooks {{{','.join(HOOK_TYPES)}}} [git's hook arguments]", file=sys.stderr
        )
        return 2
    from .core.errors import UsageError
    from .sources.gitrepo import GitError

    lines = sys.stdin.read().splitlines() if argv[0] == "pre-push" else []
    remote = argv[1] if len(argv) > 1 else "origin"
    try:
        return run_hook(argv[0], lines, remote)
    except (UsageError, GitError) as error:
        print(f"hijax-migrate hook: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    run()
