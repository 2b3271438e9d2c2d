"""libcst's scans of a visitor's attributes, made once a class, not once an instance.

Two kinds of libcst visitor read every attribute they have when they start:
some 1,100, the ``visit_``/``leave_`` methods of every node type.
- A batched one (a metadata provider: scopes, parents) lists its visit
  methods at each resolution: 2 ms a provider, and scopes are two. That was
  two thirds of resolving the scopes of a small module.
- One that takes matcher decorators (libcst's import visitors) looks for
  them: 10 ms an instance, and one import edit starts three or four.

What each scan finds is a function of the class, and libcst's own classes
define no visitor method on an instance. So, inside these contexts, a class
of libcst's is scanned once and the answer reused; any other class (a
user's visitor, in a process that imports this package) is scanned as
libcst does. ``tests/test_visitor_scans.py`` holds both to libcst's answers.
"""

from __future__ import annotations

import contextlib

from libcst import _batched_visitor

_MATCHER_SCANS = ("_gather_matchers", "_gather_constructed_visit_funcs", "_gather_constructed_leave_funcs")
_VISIT_METHODS: dict[type, tuple[str, ...]] = {}  # a class of libcst's: the names get_visitors gives
_NO_MATCHERS: dict[str, set[type]] = {name: set() for name in _MATCHER_SCANS}  # classes a scan found empty


def _libcst_own(cls: type) -> bool:
    return cls.__module__.startswith("libcst.")


def _get_visitors(scan):
    def get_visitors(self):
        names = _VISIT_METHODS.get(type(self))
        if names is None:
            found = scan(self)
            if _libcst_own(type(self)):
                _VISIT_METHODS[type(self)] = tuple(found)
            return found
        return {name: getattr(self, name) for name in names}

    return get_visitors


@contextlib.contextmanager
def batched_scans_once():
    """Metadata providers resolved inside it list their visit methods once a class."""
    visitor = _batched_visitor.BatchableCSTVisitor
    scan = visitor.__dict__.get("get_visitors")
    if scan is None:  # a libcst that lists them otherwise: left as it is
        yield
        return
    visitor.get_visitors = _get_visitors(scan)
    try:
        yield
    finally:
        visitor.get_visitors = scan


def _matcher_scan(name: str, scan):
    empty = _NO_MATCHERS[name]

    def scan_once(obj):
        if type(obj) in empty:
            return {}  # a fresh one, as the scan gives: the visitor may fill it
        found = scan(obj)
        if not found and _libcst_own(type(obj)):
            empty.add(type(obj))
        return found

    return scan_once


@contextlib.contextmanager
def matcher_scans_once():
    """libcst's matcher visitors started inside it look for decorators once a
    class. Imports ``libcst.matchers``: only where a rule edits imports."""
    from libcst.matchers import _visitors as scans

    originals = {name: getattr(scans, name, None) for name in _MATCHER_SCANS}
    if None in originals.values():  # a libcst that scans otherwise: left as it is
        yield
        return
    for name, scan in originals.items():
        setattr(scans, name, _matcher_scan(name, scan))
    try:
        yield
    finally:
        for name, scan in originals.items():
            setattr(scans, name, scan)
