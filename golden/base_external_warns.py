from somelib import Base


class Op(Base):
    def vjp_bwd(self, res, g):
        return (g,)
