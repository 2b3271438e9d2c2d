"""A function's own returns, found by a walk of its statements only: the
same returns, in the same order, as a visit of every node finds."""

import libcst as cst
from cst_returns import cst_returns

SOURCE = """
def rule(self, res, g):
    if g is None: return None
    elif res: return (g,); x = 1
    else:
        for item in res:
            if item:
                return item
        else:
            return 1
    try:
        return 2
    except ValueError:
        return 3
    else:
        return 4
    finally:
        while g:
            with open(g) as f:
                return f

    def nested():
        return 5

    class Inner:
        def method(self):
            return 6

    match g:
        case 1:
            return 7
        case _:
            pass
    fn = lambda: 8
    return (9, 10)
"""


class _Every(cst.CSTVisitor):
    """The reference: every Return of the body, nested functions and classes aside."""

    def __init__(self):
        super().__init__()
        self.found = []

    def visit_Return(self, node):
        self.found.append(node)

    def visit_FunctionDef(self, node):
        return False

    def visit_ClassDef(self, node):
        return False


def test_own_returns_are_those_a_full_visit_finds_in_order():
    module = cst.parse_module(SOURCE)
    func = module.body[0]
    every = _Every()
    func.body.visit(every)
    found = cst_returns(module, func)
    assert [cst.Module([]).code_for_node(r) for r in found] == [
        "return None",
        "return (g,); ",
        "return item",
        "return 1",
        "return 2",
        "return 3",
        "return 4",
        "return f",
        "return 7",
        "return (9, 10)",
    ]
    assert len(found) == len(every.found) and all(a is b for a, b in zip(found, every.found))
