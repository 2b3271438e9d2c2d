"""Semantic cases for whole class families and names (issue 11).

Each is a module for ``jax_probe.py`` (or a tree of them, for cases that
span files), broken before migration and right after it, with the known
gradients of x * y at x = [0, 1, 2], y = [1, 2, 3].
"""

from semantic_cases import X, Y, SemanticCase

# Forward rules whose signature, not their parameter names, says whether
# ``nzs_in`` is missing.
FWD_CASES = [
    SemanticCase("fwd_beside_defaulted_expand", '''
class Mul(VJPHiPrimitive):
    def __init__(self, aval):
        self.out_aval = aval
        self.in_avals = (aval, aval)
        self.params = {}
        super().__init__()

    def expand(self, x, y, scale=1.0):
        return x * y * scale

    def batch_dim_rule(self, axis_data, dims):
        return dims[0]

    def vjp_fwd(self, x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
''', [Y, X]),
    SemanticCase("fwd_static", '''
class Mul(Binary):
    @staticmethod
    def vjp_fwd(x, y):
        return x * y, (x, y)

    def vjp_bwd_retval(self, res, g):
        x, y = res
        return (g * y, g * x)
''', [Y, X]),
]
