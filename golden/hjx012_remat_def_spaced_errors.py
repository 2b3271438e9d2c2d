# flags: --target-jax 0.12
from jax.experimental.hijax import HiPrim


class Old(HiPrim):
    def  remat(self, trace, *args):  # two blanks after `def`: the same method to Python
        return self(*args), self
# findings
# 5 error HJX012 Old: `remat` returns `(out, prim)` as up to jax 0.11.2; jax 0.12 unpacks three values: return `(out, residuals, recompute)` with `recompute(residuals, *args)` giving the outputs again; full remat is `return self(*args), (), lambda _, *args: self(*args)`
