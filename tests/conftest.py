import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """Each test keeps its results apart: never the user's cache, never another test's."""
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
