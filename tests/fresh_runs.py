"""Fresh processes for many runs of the tool, without paying each one's
import of libcst (0.3 to 0.5 s of CPU, most of a small run).

One interpreter imports libcst, and nothing of the tool, then forks a child
for each run: the child is a process of its own, that goes on as ``python
-c CODE ARGS`` or ``python -m MODULE ARGS`` would, in its own directory and
environment, with its stdin, stdout and stderr on files of its own. It has
imported nothing of the tool (each run imports and sets up the tool for
itself, as a fresh interpreter does); only libcst (with ``libcst.codemod``
and its matchers, a third of a second of a run that edits an import), which
keeps no state a run could leave to the next, is in ``sys.modules`` already.
The child ends as an interpreter ends (``SystemExit``, ``atexit``, a traceback and exit
code 1 for an uncaught exception), and its output is read back as
``subprocess.run(..., capture_output=True, text=True)`` reads it.

Where a test is about the process itself (its start-up imports, signals,
a terminal, a pipe closed under it), it starts a real interpreter instead.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

# The parent of every run: it reads a request a line (from the fd in
# argv[1]), forks, and reports the child's pid and exit code (on argv[2]).
# The child leaves the loop and runs the request as the main module.
_FORKER = """\
import json, os, sys
import libcst
import libcst.codemod
_requests, _replies = open(int(sys.argv[1])), open(int(sys.argv[2]), "w")
for _line in _requests:
    _request = json.loads(_line)
    _pid = os.fork()
    if _pid == 0:
        break
    print(_pid, file=_replies, flush=True)
    print(os.waitstatus_to_exitcode(os.waitpid(_pid, 0)[1]), file=_replies, flush=True)
else:
    sys.exit(0)
_requests.close()
_replies.close()
os.chdir(_request["cwd"])
os.environ.clear()
os.environ.update(_request["env"])
for _fd, _path, _flags in ((0, _request["in"], os.O_RDONLY), (1, _request["out"], os.O_WRONLY),
                           (2, _request["err"], os.O_WRONLY)):
    _opened = os.open(_path, _flags)
    os.dup2(_opened, _fd)
    os.close(_opened)
if _request["module"]:  # as python -m does: the module's file as argv[0], the directory first on the path
    import runpy
    sys.argv, sys.path[0] = [_request["module"], *_request["args"]], os.getcwd()
    _code = compile("runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)", "<forked>", "exec")
else:
    sys.argv = ["-c", *_request["args"]]
    _code = compile(_request["code"], "<string>", "exec")
del _line, _request, _pid, _fd, _path, _flags, _opened, _requests, _replies
exec(_code)
"""


class Forker:
    """Runs the tool's processes, one at a time, each forked fresh."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.folder: Path | None = None  # where the runs' stdin and output are

    def code(
        self, code: str, args: list[str], cwd: Path, env: dict | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess:
        """As ``subprocess.run([python, "-c", code, *args], capture_output=True, text=True, ...)``."""
        return self._run({"code": code, "module": None}, args, cwd, env, None, timeout)

    def module(
        self,
        module: str,
        args: list[str],
        cwd: Path,
        stdin: str | bytes | None = None,
        timeout: float = 300,
        text: bool = True,
        env: dict | None = None,
    ) -> subprocess.CompletedProcess:
        """As ``subprocess.run([python, "-m", module, *args], input=stdin,
        capture_output=True, text=text, env=env)``."""
        return self._run({"code": None, "module": module}, args, cwd, env, stdin, timeout, text)

    def _run(
        self,
        what: dict,
        args: list[str],
        cwd: Path,
        env: dict | None,
        stdin: str | bytes | None,
        timeout: float,
        text: bool = True,
    ) -> subprocess.CompletedProcess:
        self._start()
        files = {name: self.folder / name for name in ("in", "out", "err")}
        if isinstance(stdin, bytes):
            files["in"].write_bytes(stdin)
        else:
            files["in"].write_text(stdin or "")  # no input: an empty stdin, at its end at once
        for name in ("out", "err"):
            files[name].write_bytes(b"")
        request = {
            **what,
            "args": list(args),
            "cwd": str(cwd),
            "env": dict(os.environ if env is None else env),
            **{name: str(path) for name, path in files.items()},
        }
        line = json.dumps(request).encode() + b"\n"
        assert os.write(self.requests, line) == len(line)  # a blocking pipe takes it whole
        child = int(self.replies.readline())
        if not select.select([self.replies], [], [], timeout)[0]:
            os.kill(child, signal.SIGKILL)
            self.replies.readline()  # its exit code: the next run reads its own
            raise subprocess.TimeoutExpired(args, timeout)
        returncode = int(self.replies.readline())
        # text=True: the locale's encoding, universal newlines
        read = Path.read_text if text else Path.read_bytes
        return subprocess.CompletedProcess(args, returncode, read(files["out"]), read(files["err"]))

    def _start(self) -> None:
        if self.process is not None:
            return
        (ask, self.requests), (self.reader, tell) = os.pipe(), os.pipe()
        self.folder = Path(tempfile.mkdtemp(prefix="fresh-runs-"))
        # started in a folder of its own: no module where the tests run shadows one libcst imports
        self.process = subprocess.Popen(
            [sys.executable, "-c", _FORKER, str(ask), str(tell)],
            cwd=self.folder,
            pass_fds=(ask, tell),
            stdin=subprocess.DEVNULL,
        )
        os.close(ask)
        os.close(tell)
        self.replies = open(self.reader, "rb", buffering=0)  # noqa: SIM115 -- kept open; unbuffered for select

    def close(self) -> None:
        if self.process is None:
            return
        os.close(self.requests)  # the forker's loop ends
        self.process.wait(timeout=300)
        self.replies.close()
        shutil.rmtree(self.folder)
        self.process = None


FORKER = Forker()  # one a test process
atexit.register(FORKER.close)
