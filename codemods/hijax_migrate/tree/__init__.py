"""The tree on disk, searched and remembered: which files hold a word, where modules live,
the per-file scan records and the cache across runs.

Imports ``core`` and ``sources``.
"""
