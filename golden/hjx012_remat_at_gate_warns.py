# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Old(HiPrim):
    def remat(self, trace, *args):
        return self(*args), self


class New(HiPrim):
    def remat(self, trace, *args):
        return self(*args), (), lambda _, *args: self(*args)


class Opaque(HiPrim):
    def remat(self, trace, *args):
        return helper(self, args)
# findings
# 5 error HJX012 Old: `remat` returns `(out, prim)` as up to jax 0.11.2; jax 0.12 unpacks three values: return `(out, residuals, recompute)` with `recompute(residuals, *args)` giving the outputs again; full remat is `return self(*args), (), lambda _, *args: self(*args)`
# 15 note HJX012 Opaque: overrides `remat`, whose result changed in jax 0.12; check that it returns three values: return `(out, residuals, recompute)` with `recompute(residuals, *args)` giving the outputs again; full remat is `return self(*args), (), lambda _, *args: self(*args)`
