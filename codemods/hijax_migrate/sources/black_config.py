"""black's settings for a file, as black finds them, read afresh each time.

black memoizes its reading of ``pyproject.toml`` and its search for the
project's root for the life of the process: a second run in one process
(tests, an editor's server) would format with the first run's settings,
and the cache key would miss the change. Both are read anew here.
"""

from __future__ import annotations

from pathlib import Path


def black_config(path: Path) -> tuple[str | None, dict]:
    """(the configuration file black reads for ``path``, its settings)."""
    import black

    _forget(black)
    found = black.find_pyproject_toml((str(path),))
    return found, black.parse_pyproject_toml(found) if found else {}


def _forget(black) -> None:
    for name in ("_load_toml", "find_project_root", "find_user_pyproject_toml"):
        memo = getattr(black.files, name, None)
        if hasattr(memo, "cache_clear"):
            memo.cache_clear()
