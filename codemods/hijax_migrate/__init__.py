"""hijax-migrate: upgrade JAX hijax primitives to the current API.

The public entry points are imported lazily so that ``hijax-migrate --help``
and ``--check`` on a tree with nothing to do never pay for libcst.
"""

from .core.version import __version__

__all__ = ["__version__", "migrate_source"]


def __getattr__(name: str):
    if name == "migrate_source":
        from .engine.engine import migrate_source

        return migrate_source
    raise AttributeError(name)
