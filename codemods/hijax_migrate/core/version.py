"""The tool's own version: a leaf, so the cache key and ``--version`` need no package import."""

__version__ = "0.1.0"
