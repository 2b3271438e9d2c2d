# flags: --target-jax 0.10
# A rule reached other than from a vjp_fwd that passes nzs_in on: the access
# would miss nzs_in, so the rule is left, and with it the base its own
# super() call reaches; a class whose rule only itself uses is migrated.
from jax.experimental.hijax import VJPHiPrimitive


class Sin(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        return x, x

    def jvp(self, primals, tangents):
        out, c = self.vjp_fwd(primals[0])
        return out, c * tangents[0]


class Base(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        return x, None


class Child(Base):
    def vjp_fwd(self, x):
        out, res = super().vjp_fwd(x)
        return 2 * out, res

    def forward_only(self, x):
        return self.vjp_fwd(x)[0]


class Fine(Base):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        return x, None

# output
# A rule reached other than from a vjp_fwd that passes nzs_in on: the access
# would miss nzs_in, so the rule is left, and with it the base its own
# super() call reaches; a class whose rule only itself uses is migrated.
from jax.experimental.hijax import VJPHiPrimitive


class Sin(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        return x, x

    def jvp(self, primals, tangents):
        out, c = self.vjp_fwd(primals[0])
        return out, c * tangents[0]


class Base(VJPHiPrimitive):
    def expand(self, x):
        return x

    def vjp_fwd(self, x):
        return x, None


class Child(Base):
    def vjp_fwd(self, x):
        out, res = super().vjp_fwd(x)
        return 2 * out, res

    def forward_only(self, x):
        return self.vjp_fwd(x)[0]


class Fine(Base):
    def expand(self, x):
        return x

    def vjp_fwd(self, nzs_in, x):
        return x, None

# findings
# 15 error HJX002 Sin: `self.vjp_fwd` is used here outside `vjp_fwd`, but `vjp_fwd` (line 11) lacks `nzs_in`: left as written; add `nzs_in` to `vjp_fwd` and pass one here (a tuple of booleans, one per input)
# 29 error HJX002 Base: `super().vjp_fwd` is called here from a `vjp_fwd` left as written, but `vjp_fwd` (line 23) lacks `nzs_in`: left as written; add `nzs_in` to `vjp_fwd` and pass one here (a tuple of booleans, one per input)
# 33 error HJX002 Child: `self.vjp_fwd` is used here outside `vjp_fwd`, but `vjp_fwd` (line 28) lacks `nzs_in`: left as written; add `nzs_in` to `vjp_fwd` and pass one here (a tuple of booleans, one per input)
