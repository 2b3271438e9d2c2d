"""hijax-migrate --verify's stand-in for ``python -m unittest``: the same
command line, and each test's outcome appended, one JSON line each, to the
file HIJAX_VERIFY_RESULTS names. The standard library only."""

import json
import os
import sys
import unittest


class _Recording(unittest.TextTestResult):
    def _record(self, test, outcome):
        with open(os.environ["HIJAX_VERIFY_RESULTS"], "a", encoding="utf-8") as out:
            out.write(json.dumps({"id": test.id(), "when": "call", "outcome": outcome}) + "\n")

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "failed")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skipped")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "skipped")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "failed")  # unittest counts it against the run

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._record(test, "failed")


if __name__ == "__main__":
    sys.argv[0] = "python -m unittest"
    unittest.main(module=None, testRunner=unittest.TextTestRunner(resultclass=_Recording))
