import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """Each test keeps its results apart: never the user's cache, never another test's."""
    monkeypatch.setenv("HIJAX_MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


from jax_batch import GROUPS, jax_010_runs, jax_012_runs  # noqa: E402,F401 -- session fixtures: one jax process a release


def batch_of(nodeid: str) -> str | None:
    """The batch fixture a test reads (jax_batch.GROUPS), if any."""
    function = nodeid.split("[", 1)[0]
    return next((fixture for fixture, functions in GROUPS.items() if function in functions), None)


def pytest_collection_modifyitems(config, items):
    for item in items:
        used = [fixture for fixture in GROUPS if fixture in getattr(item, "fixturenames", ())]
        if used != [batch_of(item.nodeid)] and (used or batch_of(item.nodeid)):
            raise pytest.UsageError(f"{item.nodeid} uses {used or 'no batch'}: list it under that fixture "
                                    "in jax_batch.GROUPS, and only there")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadgroup, with the tests of each jax batch as a group: one
    worker runs the batch once. (Grouped here, by name, not by xdist_group
    marks: pytest-xdist 3.8 names a group in a test's node id, which pytest
    9.2 no longer lets it change, and its groups silently come apart.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class BatchGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return batch_of(nodeid) or super()._split_scope(nodeid)

    return BatchGroups(config, log)
