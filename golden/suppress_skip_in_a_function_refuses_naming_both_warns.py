# flags: --target-jax 0.12
def make():
    from jax.experimental.hijax import VJPHiPrimitive

    class Kept(VJPHiPrimitive):  # hijax-migrate: skip
        def vjp_bwd(self, res, g, x_acc):
            x_acc.accum(g)

    class Moved(VJPHiPrimitive):
        def vjp_bwd(self, res, g):
            return (g,)

    return Kept, Moved
# findings
# 4 error  `make.<locals>.Kept` is left as written by `# hijax-migrate: skip` (line 4) and reads `VJPHiPrimitive`, which the migration of the rest of the file renames and cannot bind again for it: the file is left as written, and fails under the target as a suppression leaves it; bind it where the class reads it (`from jax.experimental.hijax import HiPrim as VJPHiPrimitive`), or remove the comment
