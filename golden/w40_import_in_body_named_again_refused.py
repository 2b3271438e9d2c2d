from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    from .rules import bwd as vjp_bwd
    vjp_bwd_ref = vjp_bwd  # named again in the body
# findings
# 8 error HJX001 Sq: `vjp_bwd` is bound by an import whose value cannot be proven to be a value rule (the class body names `vjp_bwd` again (bound twice, or read)), so a rename is not proven right: port it by hand
