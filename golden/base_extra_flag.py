# flags: --base somelib.Base
from somelib import Base


class Op(Base):
    def vjp_bwd(self, res, g):
        return (g,)
# output
from somelib import Base


class Op(Base):
    def vjp_bwd_retval(self, res, g):
        return (g,)
