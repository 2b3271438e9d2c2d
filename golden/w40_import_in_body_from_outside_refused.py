from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    from rules_elsewhere import bwd as vjp_bwd  # no module of the tree: its form cannot be read
# findings
# 8 error HJX001 Sq: `vjp_bwd` is bound by an import whose function cannot be proven a value rule (`rules_elsewhere` is no module of the tree), so a rename is not proven right: port it by hand
