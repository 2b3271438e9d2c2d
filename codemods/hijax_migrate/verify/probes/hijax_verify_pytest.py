"""hijax-migrate --verify's pytest plugin: each test's outcome, one JSON line
each, appended to the file HIJAX_VERIFY_RESULTS names.

Loaded into the project's own pytest by ``-p hijax_verify_pytest`` in
PYTEST_ADDOPTS, this folder on PYTHONPATH; the standard library only, so that
any interpreter the project uses can load it.
"""

import json
import os

_results = {"path": os.environ.get("HIJAX_VERIFY_RESULTS")}


def _write(nodeid, when, outcome):
    with open(_results["path"], "a", encoding="utf-8") as out:
        out.write(json.dumps({"id": nodeid, "when": when, "outcome": outcome}) + "\n")


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # an xdist worker: its controller records its reports
        _results["path"] = None


def pytest_runtest_logreport(report):
    if _results["path"]:
        _write(report.nodeid, report.when, report.outcome)


def pytest_collectreport(report):
    if _results["path"] and report.failed:
        _write(report.nodeid, "collect", "failed")
