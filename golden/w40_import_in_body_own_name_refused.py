from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    from .rules import vjp_bwd  # a rename would import another name
# findings
# 8 error HJX001 Sq: `vjp_bwd` is bound by an import whose value cannot be proven to be a value rule (imported under its own name: a rename would change what is imported), so a rename is not proven right: port it by hand
