"""Run under a real jax: import a module, print its gradients as JSON.

The module defines ``f`` (scalar output), ``ARGS`` and optionally
``ARGNUMS``, ``f_elem`` (the same op on scalars, for ``vmap(grad)``) and
``plain`` (``f`` without the primitive, whose gradient is the reference) and
``JIT_VALUE`` (also run ``jit(f)``: dead outputs are pruned, so ``dce`` is called).
Used by the semantic tests, in a subprocess so any jax/Python pair works;
given several modules, it prints one line for each, in order. A module written
``ROOT::PATH`` is part of a tree: it runs from ROOT (first on ``sys.path`` and
the working directory, as with ``PYTHONPATH=ROOT``), and the tree's modules are
forgotten afterwards, so the next tree's ``base.py`` is its own. A module
written ``script:PATH`` is a script, run as ``cd FOLDER && python NAME < NAME.in``
would run it (its folder first on ``sys.path`` and the working directory, as
``__main__``, stdin from ``PATH.in`` if there is one): its line holds its exit
code, stdout and stderr rather than gradients.
"""

import contextlib
import importlib.util
import io
import json
import os
import runpy
import sys
import traceback


def tolist(tree):
    import jax
    import numpy as np

    return jax.tree.map(lambda leaf: np.asarray(leaf).tolist(), tree)


def main(path):
    import jax

    spec = importlib.util.spec_from_file_location(f"case_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    out = {"jax": jax.__version__}
    try:
        spec.loader.exec_module(module)
        if getattr(module, "JIT_VALUE", False):
            out["value"] = tolist(jax.jit(module.f)(*module.ARGS))
        argnums = getattr(module, "ARGNUMS", 0)
        out["grad"] = tolist(jax.grad(module.f, argnums=argnums)(*module.ARGS))
        out["jit"] = tolist(jax.jit(jax.grad(module.f, argnums=argnums))(*module.ARGS))
        if hasattr(module, "plain"):  # the same function without the primitive
            out["plain"] = tolist(jax.grad(module.plain, argnums=argnums)(*module.ARGS))
        if hasattr(module, "f_elem"):
            out["vmap"] = tolist(jax.vmap(jax.grad(module.f_elem, argnums=argnums))(*module.ARGS))
        if getattr(module, "GRAD_OF_VMAP", False):  # before jax 0.12, a batch_dim_rule's VmapOf calls vjp_bwd_retval
            summed = lambda *args: jax.numpy.sum(jax.vmap(module.f_elem)(*args))  # noqa: E731
            out["grad_vmap"] = tolist(jax.grad(summed, argnums=argnums)(*module.ARGS))
    except Exception as error:  # the "before" runs are expected to fail
        out["error"] = f"{type(error).__name__}: {error}"[:500]
    print(json.dumps(out))


@contextlib.contextmanager
def from_folder(root):
    """``root`` first on the path and the working directory; its modules forgotten after."""
    here = os.getcwd()
    sys.path.insert(0, root)
    os.chdir(root)
    try:
        yield
    finally:
        os.chdir(here)
        sys.path.remove(root)
        inside = os.path.join(os.path.realpath(root), "")
        for name, module in list(sys.modules.items()):
            if os.path.realpath(getattr(module, "__file__", None) or os.devnull).startswith(inside):
                del sys.modules[name]


def in_tree(root, path):
    with from_folder(root):
        main(path)


def exit_code(stop, stderr):
    """What an interpreter exits with for ``sys.exit(stop.code)``."""
    if stop.code is None or isinstance(stop.code, int):
        return stop.code or 0
    print(stop.code, file=stderr)
    return 1


def script(path):
    """``path`` as ``python path`` runs it from its folder: its exit code and output."""
    import jax

    stdin = ""
    if os.path.exists(path + ".in"):
        with open(path + ".in") as given:
            stdin = given.read()
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    sys.argv, sys.stdin = [path], io.StringIO(stdin)
    sys.stdout, sys.stderr = out, err
    try:
        with from_folder(os.path.dirname(path)):
            runpy.run_path(path, run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = exit_code(stop, err)
    except BaseException:  # noqa: BLE001 -- reported as the interpreter would: a traceback, exit code 1
        traceback.print_exc(file=err)
        code = 1
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
    print(json.dumps({"jax": jax.__version__, "returncode": code, "stdout": out.getvalue(), "stderr": err.getvalue()}))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        if arg.startswith("script:"):
            script(os.path.abspath(arg.removeprefix("script:")))
        elif "::" in arg:
            in_tree(*arg.split("::", 1))
        else:
            main(arg)
        sys.stdout.flush()
