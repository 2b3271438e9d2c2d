"""Where modules live: the names a file is imported by, and the folders
imports start from. Plain paths, no libcst: the parent process of a run
uses it before anything is parsed."""

from __future__ import annotations

import os
from pathlib import Path


class Packages:
    """Which folders are packages, as one run finds them (a later run may
    find an ``__init__.py`` added or gone). Memoised per folder: a tree of
    thousands of files has few folders, and every worker names every file."""

    def __init__(self):
        self._names: dict[tuple[Path, Path | None], tuple[list[str], list[str] | None]] = {}
        self._parts: dict[Path, tuple[str, ...]] = {}
        self._roots: dict[Path, Path] = {}  # see package_root
        self._real: dict[Path, Path] = {}  # see real

    def real(self, folder: Path) -> Path:
        """``folder.resolve()``, once a folder: from its parent's, resolved
        again only where the folder itself is a link (a tree's folders share
        their parents: one ``lstat`` a folder, not one a part of its path)."""
        found = self._real.get(folder)
        if found is None:
            parent = folder.parent
            if os.name != "posix" or parent == folder or folder.name in ("", ".", ".."):
                found = folder.resolve()
            else:
                found = self.real(parent) / folder.name
                if os.path.islink(found):  # its own path resolved: ``a -> a/..`` resolves, ``a/a`` loops
                    found = folder.resolve()
            self._real[folder] = found
        return found

    def module_names(self, path: Path, root: Path | None = None) -> list[str]:
        """Names a file may be imported by: from its package root, and from ``root``."""
        package, from_root = self._folder_names(path.parent, root)
        leaf = [] if path.stem == "__init__" else [path.stem]
        names = [".".join(package + leaf)] if package or leaf else []
        if from_root is not None:
            dotted = ".".join(from_root + leaf)
            if dotted and dotted not in names:
                names.append(dotted)
        return names

    def _folder_names(self, folder: Path, root: Path | None) -> tuple[list[str], list[str] | None]:
        """A folder's dotted parts from its outermost package, and from ``root``."""
        if (folder, root) not in self._names:
            real = self.real(folder)
            from_root = None
            if root is not None:
                try:
                    from_root = list(real.relative_to(self.real(root)).parts)
                except ValueError:
                    pass
            self._names[folder, root] = list(self._package_parts(real)), from_root
        return self._names[folder, root]

    def search_roots(self, paths: list[Path], roots: list[Path]) -> tuple[Path, ...]:
        """Folders imports start from: ``roots`` and the package roots of ``paths``."""
        found = {self.real(root) for root in roots}
        for name in {os.path.dirname(os.fspath(path)) for path in paths}:  # a tree's files share few folders
            real = self.real(Path(name or "."))
            parts = self._package_parts(real)
            found.add(real.parents[len(parts) - 1] if parts else real)
        return tuple(sorted(found))

    def package_root(self, path: Path) -> Path:
        """The folder a file's imports start from, as Python's import system sees
        it: the nearest one above it without ``__init__.py``. Once a folder."""
        folder = path.parent
        if folder not in self._roots:
            real = self.real(folder)
            parts = self._package_parts(real)
            self._roots[folder] = real.parents[len(parts) - 1] if parts else real
        return self._roots[folder]

    def _package_parts(self, folder: Path) -> tuple[str, ...]:
        if folder not in self._parts:
            if folder.parent == folder or not os.path.isfile(folder / "__init__.py"):
                self._parts[folder] = ()
            else:
                self._parts[folder] = (*self._package_parts(folder.parent), folder.name)
        return self._parts[folder]
