def vjp_bwd(res, g):
    return (g, g)


class Plain(object):
    def vjp_bwd(self, res, g):
        return g,
