"""nodes.py and the rules' node tests, held to the libcst matchers they
replaced (same nodes, same order); and a migration that imports neither
``libcst.matchers`` nor ``libcst.codemod`` unless a rule changes an import."""

from __future__ import annotations

import subprocess
import sys

import libcst as cst
import libcst.matchers as m
import pytest
from hijax_migrate.analysis import nodes
from hijax_migrate.rules import gates
from hijax_migrate.rules.fwd_nzs_in import rewrite as fwd_nzs_in
from hijax_migrate.rules.retval_logs import rewrite as retval_logs

from golden import all_cases, read_case

# Each test's positive and negative forms, beside the golden inputs.
SNIPPETS = '''
__all__ = ["a", "b"]
__all__ += ["c"]
x = __all__ = []
__all__: list = ["d"]
with self.assertRaises(ValueError), pytest.raises(TypeError), raises(KeyError), other.raises(E), pytest.warns(W):
    pass
with x.assertRaisesRegex(E, "m"), pytest.raises, assertRaises(E), (raises)(E), pytest.raises.x(E):
    pass
v = version("jax"); w = version('jax'); u = version("jaxlib"); t = version(x="jax"); s = version("jax", 1)
r = version(*"jax"); q = version("""jax"""); p = version(("jax"))
class C:
    vjp_bwd_retval_logs = True
    a = vjp_bwd_retval_logs = False
    vjp_bwd_retval_logs: bool = True
    vjp_bwd_retval_logs: bool
    (vjp_bwd_retval_logs) = 1
    vjp_bwd_retval_logs += 1
    vjp_bwd_retval_logs, b = 1, 2
    @staticmethod
    @staticmethod()
    @other.staticmethod
    def __init__(self):
        self.in_avals = (a, b)
        self.in_avals = [a]
        self.in_avals = a, b
        self.in_avals = x = (a,)
        self.in_avals: T = (a,)
        other.in_avals = (a,)
        self.in_avals = tuple(a)
        self.other = (a,)
    def vjp_fwd(self, x):
        super().vjp_fwd(x); super(C, self).vjp_fwd(x); super().other(x); other().vjp_fwd(x); super.vjp_fwd(x)
        (super)().vjp_fwd(x); self.vjp_fwd(x); cls.vjp_fwd(x); selfish.vjp_fwd(x)
        return tuple(x), list(x), dict(x), set(x), x.tuple(y), (tuple)(x), tuple
'''

# What each rule asked of libcst.matchers, beside what it asks now.
_FLAG = m.Name(retval_logs.FLAG)
_ALL = m.Name("__all__")
PAIRS = {
    "jax": (m.Call(args=[m.Arg(m.SimpleString('"jax"') | m.SimpleString("'jax'"))]), gates._names_jax),
    "flag": (
        m.Assign(targets=[m.ZeroOrMore(), m.AssignTarget(_FLAG), m.ZeroOrMore()]) | m.AnnAssign(target=_FLAG),
        retval_logs._sets_flag,
    ),
    "super fwd": (
        m.Call(func=m.Attribute(value=m.Call(func=m.Name("super")), attr=m.Name("vjp_fwd"))),
        lambda n: isinstance(n, cst.Call) and fwd_nzs_in._calls_super_fwd(n),
    ),
    "super": (m.Call(func=m.Name("super")), lambda n: nodes.is_call(n, "super")),
    "self or cls": (m.Name("self") | m.Name("cls"), lambda n: nodes.is_name(n, "self", "cls")),
    "any name": (m.Name(), nodes.is_name),
    "staticmethod": (m.Name("staticmethod"), lambda n: nodes.is_name(n, "staticmethod")),
    "attribute": (m.Attribute(attr=m.Name("vjp_fwd")), lambda n: nodes.is_attribute(n, "vjp_fwd")),
    "one name target": (m.Assign(targets=[m.AssignTarget(m.Name())]), lambda n: nodes.is_name(nodes.sole_target(n))),
    "__all__": (
        m.Assign(targets=[m.AssignTarget(_ALL)]) | m.AugAssign(target=_ALL),
        lambda n: (
            nodes.is_name(nodes.sole_target(n), "__all__")
            or isinstance(n, cst.AugAssign)
            and nodes.is_name(n.target, "__all__")
        ),
    ),
}
# nodes.findall's kinds and tests, beside the matchers the rules gave libcst's findall.
FINDALLS = [
    ((cst.Name, cst.Attribute), None, m.Name() | m.Attribute()),
    ((cst.Import, cst.ImportFrom), None, m.Import() | m.ImportFrom()),
    ((cst.ImportFrom, cst.Name, cst.Attribute), None, m.ImportFrom() | m.Name() | m.Attribute()),
    (cst.SimpleString, None, m.SimpleString()),
    (cst.Raise, None, m.Raise()),
    (cst.Call, lambda c: isinstance(c.func, (cst.Name, cst.Attribute)), m.Call(func=m.Name() | m.Attribute())),
    (cst.Name, lambda n: nodes.is_name(n, "vjp_bwd"), m.Name("vjp_bwd")),
    (cst.Attribute, lambda a: nodes.is_attribute(a, "vjp_fwd"), m.Attribute(attr=m.Name("vjp_fwd"))),
]


@pytest.fixture(scope="module")
def trees() -> list[cst.Module]:
    """The snippets and every golden input."""
    sources = [SNIPPETS, *(read_case(path).source for path in all_cases())]
    found = []
    for source in sources:
        try:
            found.append(cst.parse_module(source))
        except cst.ParserSyntaxError:
            continue  # a case of syntax this Python's libcst cannot parse
    return found


@pytest.fixture(scope="module")
def every_node(trees) -> list[cst.CSTNode]:
    return [node for tree in trees for node in m.findall(tree, m.MatchIfTrue(lambda node: True))]


@pytest.mark.parametrize("name", PAIRS)
def test_each_node_test_agrees_with_the_matcher_it_replaced(every_node, name):
    matcher, test = PAIRS[name]
    hits = 0
    for node in every_node:
        expected = m.matches(node, matcher)
        assert bool(test(node)) == expected, (name, cst.Module([]).code_for_node(node))
        hits += expected
    assert hits  # the corpus has positive cases of each


@pytest.mark.parametrize("kind, test, matcher", FINDALLS)
def test_findall_lists_the_nodes_libcst_findall_lists_in_order(trees, kind, test, matcher):
    snippets = trees[0]  # and its statements and calls: the root itself counts, as in libcst's findall
    for root in (*trees, *snippets.body, *m.findall(snippets, m.Call() | m.Attribute())):
        assert list(map(id, nodes.findall(root, kind, test))) == list(map(id, m.findall(root, matcher)))
    assert any(nodes.findall(tree, kind, test) for tree in trees)


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_a_migration_imports_no_matchers_nor_codemod(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\n"
        "class Mul(VJPHiPrimitive):\n"
        "    def vjp_fwd(self, nzs_in, x, y):\n        return x * y, (x, y)\n\n"
        "    def vjp_bwd(self, res, g):\n        x, y = res\n        return (g * y, g * x)\n"
    )
    code = (
        "import sys\nfrom hijax_migrate.cli import main\n"
        f"assert main(['--in-place', '-q', '-j', '1', '--no-cache', '--target-jax', '0.10', {str(path)!r}]) == 0\n"
        "print(*(name in sys.modules for name in ('libcst', 'libcst.matchers', 'libcst.codemod')))\n"
    )
    assert _run(code) == ["True", "False", "False"]
    assert "def vjp_bwd_retval(self, res, g):" in path.read_text()  # HJX001 renamed it


def test_a_rule_that_adds_an_import_still_adds_it_with_libcsts_visitor(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text(
        "from jax.experimental.hijax import VJPHiPrimitive\n\n"
        "class Many(VJPHiPrimitive):\n"
        "    def vjp_fwd(self, nzs_in, x, y):\n        return x + y, None\n\n"
        "    def vjp_bwd(self, res, g):\n        return self.split(g)\n"
    )
    code = (
        "import sys\nfrom hijax_migrate.cli import main\n"
        f"assert main(['--in-place', '-q', '-j', '1', '--no-cache', '--strategy', 'accum', '--target-jax', "
        f"'0.10', {str(path)!r}]) == 0\n"
        "print('libcst.codemod.visitors' in sys.modules)\n"
    )
    assert _run(code) == ["True"]
    assert path.read_text().startswith("from jax.experimental.hijax import VJPHiPrimitive\nimport jax\n")
    assert "jax.tree.map(lambda acc, ct: acc.accum(ct), (x_acc, y_acc), self.split(g))" in path.read_text()
