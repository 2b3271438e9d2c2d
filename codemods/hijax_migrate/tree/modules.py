"""Where modules live: the names a file is imported by, and the folders
imports start from. Plain paths, no libcst: the parent process of a run
uses it before anything is parsed."""

from __future__ import annotations

import functools
from pathlib import Path


def module_names(path: Path, root: Path | None = None) -> list[str]:
    """Names a file may be imported by: from its package root, and from ``root``."""
    package, from_root = _folder_names(path.parent, root)
    leaf = [] if path.stem == "__init__" else [path.stem]
    names = [".".join(package + leaf)] if package or leaf else []
    if from_root is not None:
        dotted = ".".join(from_root + leaf)
        if dotted and dotted not in names:
            names.append(dotted)
    return names


# Memoised per folder: a tree of thousands of files has few folders, and
# every worker names every file.
@functools.lru_cache(maxsize=None)
def _folder_names(folder: Path, root: Path | None) -> tuple[list[str], list[str] | None]:
    """A folder's dotted parts from its outermost package, and from ``root``."""
    real = folder.resolve()
    from_root = None
    if root is not None:
        try:
            from_root = list(real.relative_to(root.resolve()).parts)
        except ValueError:
            pass
    return list(_package_parts(real)), from_root


def search_roots(paths: list[Path], roots: list[Path]) -> tuple[Path, ...]:
    """Folders imports start from: ``roots`` and the package roots of ``paths``."""
    found = {root.resolve() for root in roots}
    for folder in {path.parent for path in paths}:
        real = folder.resolve()
        found.add(real.parents[len(_package_parts(real)) - 1] if _package_parts(real) else real)
    return tuple(sorted(found))


@functools.lru_cache(maxsize=None)
def _package_parts(folder: Path) -> tuple[str, ...]:
    if folder.parent == folder or not (folder / "__init__.py").is_file():
        return ()
    return (*_package_parts(folder.parent), folder.name)
