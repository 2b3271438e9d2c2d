from jax.experimental.hijax import VJPHiPrimitive


class Sq(VJPHiPrimitive):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    import operator as vjp_bwd  # a module: no rule
# findings
# 8 error HJX001 Sq: `vjp_bwd` is bound by an import whose value cannot be proven to be a value rule (it binds a module, which is no rule), so a rename is not proven right: port it by hand
