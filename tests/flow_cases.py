"""Rules whose control flow decides what they return (issue 40), with their known
gradients: run under real jax by tests/test_flow_semantics.py.

Each case is a ``SemanticCase`` (tests/semantic_cases.py) and the migrations it is
run under: (target, strategy). ``refused`` names the strategies under which the rule
is left as written with an error naming its line.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from semantic_cases import BATCH_HEADER, FOOTER_012, FWD, SemanticCase, X, Y

SRES_FWD = """
    def vjp_fwd(self, nzs_in, x, y):
        return x * y, (x, y), True, 3.0
"""
SRES = [[3 * v for v in Y], [3 * v for v in X]]


@dataclass
class FlowCase:
    case: SemanticCase
    runs: tuple = (("0.10", "auto"), ("0.10", "accum"), ("0.12", "auto"), ("0.12", "accum"))
    refused: tuple = ()  # (target, strategy) pairs left as written, with an error

    @property
    def name(self) -> str:
        return self.case.name


def _case(name: str, body: str, expected=None, **kw) -> SemanticCase:
    """Batched by a ``batch`` of its own: a ``batch_dim_rule`` would make accum rename the rule."""
    return SemanticCase(name, body, expected or [Y, X], header=BATCH_HEADER, **kw)


def at_012(case: SemanticCase) -> SemanticCase:
    """The same case for jax 0.12: grad and jit (the header's text differs from
    BATCH_HEADER's only in a comment, so that no grad of vmap is asked for)."""
    from dataclasses import replace

    return replace(case, header=BATCH_HEADER.replace("import jax\n", "import jax  # at 0.12\n", 1), footer=FOOTER_012)


FLOW_CASES = [
    FlowCase(
        _case(
            "finally_return_drops_the_try_value",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        try:
            return (g * 100.0, g * 100.0)
        finally:
            return (g * y, g * x)
""",
        )
    ),
    FlowCase(
        _case(
            "finally_break_drops_the_try_value",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        for _ in range(2):
            try:
                return (g * 100.0, g * 100.0)
            finally:
                break
        return g * y, g * x
""",
        )
    ),
    FlowCase(
        _case(
            "finally_continue_drops_the_try_value",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        for last in (False, True):
            try:
                if not last:
                    return (g * 100.0, g * 100.0)
            finally:
                if not last:
                    continue
            return g * y, g * x
""",
        ),
    ),
    FlowCase(
        _case(
            "finally_return_sres",
            f"""
class Mul(Binary):{SRES_FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        try:
            return (g * 100.0, g * 100.0)
        finally:
            return (3.0 * g * y, 3.0 * g * x)
""",
            SRES,
        ),
        runs=(("0.12", "auto"), ("0.12", "accum")),
    ),
    FlowCase(
        _case(
            "finally_returns_on_some_paths_sres_refused",
            f"""
class Mul(Binary):{SRES_FWD}
    def vjp_bwd(self, res, g):
        x, y = res
        try:
            return (3.0 * g * y, 3.0 * g * x)
        finally:
            if self.params:
                return (g * 100.0, g * 100.0)
""",
            SRES,
        ),
        runs=(("0.12", "auto"),),
        refused=(("0.12", "auto"),),
    ),
    # a half-port returning its cotangents in another spelling than a tuple display
    *[
        FlowCase(
            _case(
                f"half_port_returns_{name}",
                f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
{textwrap.indent(textwrap.dedent(tail), "        ")}""",
            )
        )
        for name, tail in [
            ("a_conditional", "return (g * y, g * x) if g is not None else (g * 0, g * 0)\n"),
            ("a_name", "cts = (g * y, g * x)\nreturn cts\n"),
            ("tuple_of_a_list", "return tuple([g * y, g * x])\n"),
            ("a_sum", "return (g * y,) + (g * x,)\n"),
            ("tuple_of_a_generator", "return tuple(ct for ct in (g * y, g * x))\n"),
        ]
    ],
    FlowCase(
        _case(
            "half_port_unwritten_name_is_written",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        cts = (g * y, g * x)
        return cts
""",
        )
    ),
    # below jax 0.11.1 a rule has no logs: what it returns is dropped where it writes every accumulator
    FlowCase(
        _case(
            "no_logs_below_0111",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        logs = {{"g": g}}
        return logs
""",
        ),
        runs=(("0.10", "auto"), ("0.10", "accum")),
    ),
    FlowCase(
        _case(
            "no_logs_below_0111_dict_display",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        y_acc.accum(g * x)
        return {{"g": g}}
""",
        ),
        runs=(("0.10", "auto"), ("0.10", "accum")),
    ),
    # loops of known count: a write inside runs on every path, or on none
    *[
        FlowCase(
            _case(
                f"half_port_written_in_{name}",
                f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        for _ in {head}:
            x_acc.accum(g * y)
        return g * y, g * x
""",
                [[2 * v for v in Y], X] if name == "range_two" else None,
            )
        )
        for name, head in [
            ("range_one", "range(1)"),
            ("range_two", "range(2)"),  # written twice by the rule itself: the returned value dropped
            ("range_zero", "range(0)"),
            ("a_tuple_display", "(None,)"),
            ("a_zip_of_displays", "zip((1,), (2, 3))"),
        ]
    ],
    # writes through jax.tree.map / jax.tree_util.tree_map with a lambda or a def of the rule
    *[
        FlowCase(
            _case(
                f"half_port_written_through_{name}",
                f"""
from jax.tree_util import tree_map


class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, {accs}):
        x, y = res
{textwrap.indent(textwrap.dedent(writes), "        ")}        return g * y, g * x
""",
            )
        )
        for name, accs, writes in [
            ("a_lambda", "x_acc, y_acc", "jax.tree.map(lambda q, w: q.accum(w), x_acc, g * y)\n"),
            ("tree_util", "x_acc, y_acc", "tree_map(lambda q, w: q.accum(w), y_acc, g * x)\n"),
            (
                "a_tuple_of_accumulators",
                "x_acc, y_acc",
                "jax.tree.map(lambda acc, ct: acc.accum(ct), (x_acc, y_acc), (g * y, g * x))\n",
            ),
            (
                "a_loop_over_zip",
                "x_acc, y_acc",
                "for acc, ct in zip((x_acc, y_acc), (g * y, g * x)):\n    acc.accum(ct)\n",
            ),
            ("every_accumulator", "*arg_accums", "jax.tree.map(lambda a, c: a.accum(c), arg_accums, (g * y, g * x))\n"),
            (
                "a_local_def",
                "x_acc, y_acc",
                "def write(acc, ct):\n    if ct is not None:\n        acc.accum(ct)\n"
                "    else:\n        acc.accum(None)\n\njax.tree.map(write, x_acc, g * y)\n",
            ),
        ]
    ],
    # half-ports through a finally block: the dropped return writes nothing
    FlowCase(
        _case(
            "half_port_finally_writes_and_returns",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        try:
            return g * y, g * x
        finally:
            x_acc.accum(g * y)
            return g * y, g * x
""",
        )
    ),
    FlowCase(
        _case(
            "half_port_written_before_a_finally_that_returns",
            f"""
class Mul(Binary):{FWD}
    def vjp_bwd(self, res, g, x_acc, y_acc):
        x, y = res
        x_acc.accum(g * y)
        try:
            return g * 100.0, g * 100.0
        finally:
            return g * y, g * x
""",
        )
    ),
]
