# flags: --target-jax 0.12
# `.VJPHiPrimitive` of a function's parameter, or of a name the code binds when it
# runs (an assignment of more than a name, a loop), may be jax's hijax module: gone
# at 0.12. The tool cannot tell which object it is: an error. An import of another
# module is known.
import numpy
from jax.experimental import hijax


def make(hjx):
    class Op(hjx.VJPHiPrimitive):
        def vjp_bwd(self, res, g):
            return (g,)

    return Op


m = hijax if hijax else None
Base = m.VJPHiPrimitive
for mod in (hijax,):
    Again = mod.VJPHiPrimitive
Other = numpy.VJPHiPrimitive if hasattr(numpy, "VJPHiPrimitive") else None
# findings
# 11 note HJX001 make.<locals>.Op: a base class comes from outside the tree and cannot be decided; left alone (pass --base MODULE.CLASS if it is a hijax primitive)
# 10 error HJX003 `.VJPHiPrimitive` of a function's parameter (`hjx`) may be jax's hijax module, which no longer binds it at the target: left as written; write `.HiPrim` if it is
# 18 error HJX003 `.VJPHiPrimitive` of a name bound when the code runs (`m`) may be jax's hijax module, which no longer binds it at the target: left as written; write `.HiPrim` if it is
# 20 error HJX003 `.VJPHiPrimitive` of a name bound when the code runs (`mod`) may be jax's hijax module, which no longer binds it at the target: left as written; write `.HiPrim` if it is
