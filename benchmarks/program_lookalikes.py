"""Code a program tree holds that the tool must leave byte for byte
(``program_trees.Tree.fixed``): classes of other protocols with their own
``vjp_bwd``, calls and value uses of such methods, a helper that receives
accumulators, the other project of a monorepo."""

LOOK_ALIKES = {
    "quantizer": '''class QuantOp:
    """Not a hijax primitive: a quantization library's own protocol."""

    def vjp_fwd(self, x):
        return x, None

    def vjp_bwd(self, res, g):
        return g, None

    def grad(self, res, g):
        return self.vjp_bwd(res, g)
''',
    "unrelated_super": """class Logger:
    def vjp_bwd(self, _res, g):
        return (g,)


class Verbose(Logger):
    def vjp_bwd(self, _res, g):
        print("backward")
        return super().vjp_bwd(_res, g)
""",
    "super_explicit_unrelated": """class Recorder:
    def vjp_bwd(self, res, g):
        return (g,)


class TracingRecorder(Recorder):
    def vjp_bwd(self, res, g):
        out = super(TracingRecorder, self).vjp_bwd(res, g)
        print("recorded", len(out))
        return out
""",
    "debug_value": """def debug(prim, res, g):
    rule = prim.vjp_bwd
    return rule


def trace_rule(obj):
    return getattr(obj, "vjp_bwd", None)
""",
    "value_uses": """import functools


class Registry:
    def __init__(self):
        self.rules = {}

    def register(self, op):
        self.rules[type(op).__name__] = op.vjp_bwd
        return functools.partial(op.vjp_bwd, None)


def has_backward(op):
    return callable(getattr(op, "vjp_bwd", None)) or hasattr(type(op), "vjp_bwd")
""",
    "two_argument_call": """def replay(op, res, g):
    return op.vjp_bwd(res, g)
""",
    "method_calls": '''class FakeQuantLayer:
    """Wraps a quantizer; the backward pass goes through the quantizer's own protocol."""

    def __init__(self, quantizer):
        self.quantizer = quantizer

    def backward(self, res, g):
        grad, _ = self.quantizer.vjp_bwd(res, g)
        return grad

    def vjp_bwd(self, res, g):
        return self.backward(res, g), None
''',
}

ACCUM_HELPER = '''"""Accumulator helpers shared by the project's primitives."""


def accumulate(accs, cts):
    for acc, ct in zip(accs, cts):
        if ct is not None:
            acc.accum(ct)
'''

PYPROJECT = """[project]
name = "{name}"
version = "0.1.0"
dependencies = ["jax"]
"""

# The monorepo's other project: the same package name, a class ``Lin`` of its own protocol (no hijax).
PROJ_B = {
    "pyproject.toml": PYPROJECT.format(name="proj-b"),
    "{pkg}/__init__.py": "",
    "{pkg}/ops/__init__.py": "",
    "{pkg}/ops/prims.py": '''class Lin:
    """A fixed-point layer with its own backward protocol: no hijax here."""

    def __init__(self, scale):
        self.scale = scale

    def vjp_fwd(self, x):
        return self.scale * x, None

    def vjp_bwd(self, res, g):
        return self.scale * g, None
''',
    "{pkg}/ops/layers.py": """from .prims import Lin


class Scaled(Lin):
    def vjp_bwd(self, res, g):
        return super().vjp_bwd(res, g)
""",
}
