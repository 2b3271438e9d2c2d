"""Realistic hijax program trees, drawn at random: the generator the
refusal benchmark (``refusals.py``) and the tests share.

A tree is a package with a primitive (its backward rule written in one of
the ways public code writes it, ``FORMS``), perhaps a subclass of it in
another file, a ``main`` module that takes its gradient, and code the tool
must not be thrown by and must leave byte for byte (``Tree.fixed``): a
quantizer's own ``vjp_bwd`` protocol, unrelated classes calling
``super().vjp_bwd(res, g)``, rules taken as values, a second project of a
monorepo with the same package name. The primitive is linear,
``sum(c_i * x_i)``, so every program knows its gradient (``EXPECTED``) and
its value (``VALUE``) without running.

Every choice goes through ``pick(options)``: ``random.Random(seed).choice``
for the benchmark, a hypothesis ``draw`` for tests, so a test can produce
any tree the benchmark can. Repeated options weigh a choice, to keep the mix
close to what public code holds.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from program_lookalikes import ACCUM_HELPER, LOOK_ALIKES, PROJ_B, PYPROJECT

# Every form tag a tree can report in ``Tree.forms`` (the tests check each is drawn).
VALUE_FORMS = [
    "tuple",
    "bare",
    "list",
    "comprehension",
    "conditional",
    "call",
    "generator",
    "match",
    "indexed",
    "starred",
    "concatenated",
    "nested",
]
TUPLE_FORMS = ["tuple", "bare", "call", "generator", "conditional"]  # what an already-migrated rule returns
HALF_USES = ["returned", "written", "written", "both_arms", "helper", "written_and_returned"]
ACCUM_HOWS = ["direct", "direct", "helper_all", "helper_module", "star", "nested"]
KINDS = ["value"] * 4 + ["half"] * 2 + ["accum"] * 2 + ["decorated", "bound", "bound", "retval"]
DECORATORS = ["halved", "logged"]
BINDINGS = ["partialmethod", "assigned", "if_body", "type_factory"]
DCE_FORMS = ["none"] * 10 + ["override", "delegate_base", "delegate_super", "mixin", "assigned"]
VMAP_FORMS = ["none", "none", "batch", "gated"]
SUBCLASS_SPELLINGS = ["plain", "attribute", "form_feed", "continued", "alias"]
SUBCLASS_BODIES = ["super", "super_explicit", "inherits"]
FORMS = sorted(
    [f"rule:{k}" for k in set(KINDS)]
    + [f"value:{f}" for f in VALUE_FORMS]
    + ["cotangent:none", "cotangent:zero"]
    + [f"half:{u}" for u in set(HALF_USES)]
    + ["half:null_exit", "half:assert_len", "half:partial"]
    + [f"accum:{h}" for h in set(ACCUM_HOWS)]
    + ["accum:logs"]
    + [f"decorated:{d}" for d in DECORATORS]
    + [f"bound:{b}" for b in BINDINGS]
    + ["family:half_migrated"]
    + [f"dce:{d}" for d in set(DCE_FORMS) - {"none"}]
    + [f"vmap:{v}" for v in set(VMAP_FORMS) - {"none"}]
    + [f"subclass:{s}" for s in SUBCLASS_SPELLINGS]
    + [f"subclass:{b}" for b in SUBCLASS_BODIES]
    + [f"look-alike:{name}" for name in LOOK_ALIKES]
    + ["look-alike:accum_helper_module", "monorepo", "import:relative"]
)


@dataclass
class Tree:
    """Files by path (relative to the tree's folder) and what they mean."""

    files: dict[str, str] = field(default_factory=dict)
    forms: list[str] = field(default_factory=list)  # what was drawn, for the report
    since: str = "0.8.1"  # the oldest jax the program is valid for once migrated (logs: 0.11.1)
    root: str = ""  # the folder (inside the tree) on sys.path: a monorepo's project
    fixed: list[str] = field(default_factory=list)  # files the tool must leave byte for byte


@dataclass
class Prim:
    """The primitive's module, assembled in parts."""

    coefs: list[int]
    cts: list[str]  # the cotangent of each input, as the rule writes it
    imports: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)  # module code before the class
    bases: list[str] = field(default_factory=lambda: ["VJPHiPrimitive"])
    methods: list[str] = field(default_factory=list)  # the class body, unindented
    after: list[str] = field(default_factory=list)  # module code after the class
    forms: list[str] = field(default_factory=list)
    name: str = "Lin"  # the class statement's name (a type() factory names its base)
    scale: float = 1.0  # a decorator that changes cotangents scales the gradient
    since: str = "0.8.1"
    helper_module: bool = False  # the accumulator helper lives in another file

    def need(self, line: str) -> None:
        if line not in self.imports:
            self.imports.append(line)


HEAD_IMPORTS = ["from jax.experimental.hijax import VJPHiPrimitive", "from jax._src.interpreters.ad import NullAccum"]

STANDARD_METHODS = """def __init__(self, aval):
    self.in_avals = (aval,) * {n}
    self.out_aval = aval
    self.params = {{}}
    super().__init__()

def expand(self, {params}):
    return {out}

def vjp_fwd(self, nzs_in, {params}):
    return self.expand({params}), None
"""

HELPERS = """def _write_all(accs, cts):
    for acc, ct in zip(accs, cts):
        acc.accum(ct)
"""

HALVED = '''def halved(rule):
    """Post-processes the returned cotangents: the gradient is halved (a symbolic zero stays one)."""
    @functools.wraps(rule)
    def wrapper(self, res, g):
        return tuple(ct if ct is None or type(ct).__name__ == "Zero" else 0.5 * ct for ct in rule(self, res, g))
    return wrapper
'''

LOGGED = '''log = logging.getLogger(__name__)


def logged(rule):
    """Logs each call of a rule; its result passes through unchanged."""
    @functools.wraps(rule)
    def wrapper(self, *args):
        log.debug("%s.%s", type(self).__name__, rule.__name__)
        return rule(self, *args)
    return wrapper
'''

KEEP_ALL = """def dce(self, used_outs):
    if not used_outs:
        return False, False, None
    return True, True, self
"""

BATCH = """def batch(self, axis_data, args, dims):
    args = [jnp.moveaxis(a, d, 0) if d is not None else jnp.broadcast_to(a, (axis_data.size, *a.shape))
            for a, d in zip(args, dims)]
    return type(self)(jax.typeof(args[0]))(*args), 0
"""

GATED_BATCH = """if jax.__version_info__ < (0, 12):  # VmapOf batches through batch_dim_rule; jax 0.12 removed both
    def batch_dim_rule(self, axis_data, dims):
        return 0
else:
""" + textwrap.indent(BATCH, "    ")

SUBCLASS_HEADS = {
    "plain": "from .prims import Lin\n\n\nclass Sub(Lin):\n",
    "attribute": "from . import prims\n\n\nclass Sub(prims.Lin):\n",
    "form_feed": "from .prims import Lin\n\n\n\fclass Sub(Lin):\n",
    "continued": "from .prims import Lin\n\n\nclass \\\n        Sub(Lin):\n",
    "alias": "from . import prims\n\nBase = prims.Lin\n\n\nclass Sub(Base):\n",
}

SUBCLASS_BODY_TEXT = {
    "super": "    def vjp_bwd(self, res, g):\n        return super().vjp_bwd(res, g)\n",
    "super_explicit": "    def vjp_bwd(self, res, g):\n        return super(Sub, self).vjp_bwd(res, g)\n",
    "inherits": "    pass\n",
}

MAIN = '''import jax
import jax.numpy as jnp

{import_line}

ARGS = ({args},)
ARGNUMS = {argnums}
EXPECTED = {expected}
VALUE = {value}
BATCHED = {batched}  # the primitive has a batching rule: vmap of it is checked too


def f({params}):
    return jnp.sum({cls}(jax.typeof(x0))({params}))


def peek({params}):
    """f's value; a second result is dropped, which jit prunes (jax 0.12 calls the primitive's dce)."""
    _dropped = {cls}(jax.typeof(x0))({params})
    return f({params})
'''


def newer(version: str, target: str) -> bool:
    def as_tuple(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in text.split("."))

    return as_tuple(version) > as_tuple(target)


def tuple_of(items: list[str]) -> str:
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def block(header: str, lines: list[str]) -> str:
    return header + "\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


def cotangents(pick, prim: Prim) -> None:
    """Each input's cotangent: ``c * g`` spelled some way, or no cotangent (``None``, a symbolic zero)."""
    for i, c in enumerate(prim.coefs):
        if c == 0:
            zero = pick(["None", "None", "zero"])
            prim.forms.append(f"cotangent:{'zero' if zero == 'zero' else 'none'}")
            if zero == "zero":
                prim.need("from jax._src.ad_util import Zero")
            prim.cts.append("None" if zero == "None" else f"Zero(self.in_avals[{i}].to_tangent_aval())")
        else:
            prim.cts.append(pick([f"{c} * g", f"COEFS[{i}] * g", f"g * {c}"]))


def value_body(pick, prim: Prim, forms: list[str]) -> list[str]:
    """The lines of a rule returning the cotangents, in one of ``forms``."""
    form = pick(forms)
    prim.forms.append(f"value:{form}")
    cts, n = prim.cts, len(prim.cts)
    nones = tuple_of(["None"] * n)
    return {
        "tuple": [f"return {tuple_of(cts)}"],
        "bare": [f"return {', '.join(cts)}{',' if n == 1 else ''}"],
        "list": [f"return [{', '.join(cts)}]"],
        "comprehension": [f"return [COEFS[i] * g for i in range({n})]"],
        "conditional": [f"return {tuple_of(cts)} if g is not None else {nones}"],
        "call": ["return self._cts(g)"],
        "generator": [f"return tuple(COEFS[i] * g for i in range({n}))"],
        "match": [
            "match g:",
            "    case None:",
            f"        return {nones}",
            "    case _:",
            f"        return {tuple_of(cts)}",
        ],
        "indexed": [
            f"cts = [None] * {n}",
            *(f"cts[{i}] = {ct}" for i, ct in enumerate(cts) if ct != "None"),
            "return cts",
        ],
        "starred": [f"head = {tuple_of(cts[:-1])}", f"return (*head, {cts[-1]})"],
        "concatenated": [f"head = {tuple_of(cts[:-1])}", f"return head + ({cts[-1]},)"],
        "nested": [
            "def scaled(c):",
            "    return None if c == 0 else c * g",
            f"return {tuple_of([f'scaled({c})' for c in prim.coefs])}",
        ],
    }[form]


def value_rule(pick, prim: Prim, name: str = "vjp_bwd", forms: list[str] = VALUE_FORMS) -> str:
    return block(f"def {name}(self, res, g):", value_body(pick, prim, forms))


def half_port(pick, prim: Prim) -> None:
    """Accumulators taken, some written, the cotangents still returned (some or all)."""
    n, star = len(prim.cts), pick([False, False, True])
    accs = [f"arg_accums[{i}]" for i in range(n)] if star else [f"x{i}_acc" for i in range(n)]
    lines, returned, uses = [f"assert len(arg_accums) == {n}"] if star else [], [], set()
    if star:
        prim.forms.append("half:assert_len")
    if pick([False, True]):
        lines += [f"if {' and '.join(f'isinstance({a}, NullAccum)' for a in accs)}:", "    return None"]
        prim.forms.append("half:null_exit")
    for acc, ct in zip(accs, prim.cts):
        use = pick(HALF_USES)
        uses.add(use)
        lines += {
            "returned": [],
            "written": [f"{acc}.accum({ct})"],
            "helper": [f"self._write({acc}, {ct})"],
            "written_and_returned": [f"{acc}.accum({ct})"],
            "both_arms": ["if g is not None:", f"    {acc}.accum({ct})", "else:", f"    {acc}.accum(None)"],
        }[use]
        returned.append(ct if use in ("returned", "written_and_returned") else "None")
    lines.append(f"return {tuple_of(returned)}")
    prim.forms += [f"half:{use}" for use in sorted(uses)] + (
        ["half:partial"] if len(uses) > 1 and "returned" in uses else []
    )
    prim.methods.append(block(f"def vjp_bwd(self, res, g, {'*arg_accums' if star else ', '.join(accs)}):", lines))


def accum_rule(pick, prim: Prim) -> None:
    """A valid accumulator rule: writes (directly, through a helper), returns None or logs."""
    n, how, ret = len(prim.cts), pick(ACCUM_HOWS), pick(["None", "None", '{"norm": g}'])
    accs = [f"arg_accums[{i}]" for i in range(n)] if how == "star" else [f"x{i}_acc" for i in range(n)]
    writes = [f"{a}.accum({ct})" for a, ct in zip(accs, prim.cts)]
    lines = {
        "direct": writes,
        "star": [f"assert len(arg_accums) == {n}", *writes],
        "helper_all": [f"_write_all({tuple_of(accs)}, {tuple_of(prim.cts)})"],
        "helper_module": [f"accumulate({tuple_of(accs)}, {tuple_of(prim.cts)})"],
        "nested": [
            "def scaled(c):",
            "    return None if c == 0 else c * g",
            *(f"{a}.accum(scaled({c}))" for a, c in zip(accs, prim.coefs)),
        ],
    }[how]
    if how == "helper_module":
        prim.need("from ..utils.grads import accumulate")
        prim.helper_module = True
    prim.forms.append(f"accum:{how}")
    if ret != "None":
        prim.forms.append("accum:logs")
        prim.since = "0.11.1"
    sig = "*arg_accums" if how == "star" else ", ".join(accs)
    prim.methods.append(block(f"def vjp_bwd(self, res, g, {sig}):", [*lines, f"return {ret}"]))


def decorated_rule(pick, prim: Prim) -> None:
    """A value rule under a decorator: one that halves the cotangents, or one that only logs."""
    deco = pick(DECORATORS)
    prim.forms.append(f"decorated:{deco}")
    prim.need("import functools")
    if deco == "logged":
        prim.need("import logging")
    prim.before.append(HALVED if deco == "halved" else LOGGED)
    prim.scale = 0.5 if deco == "halved" else 1.0
    prim.methods.append(f"@{deco}\n" + value_rule(pick, prim))


def bound_rule(pick, prim: Prim) -> None:
    """A value rule bound some other way than a ``def vjp_bwd`` in the class body."""
    how = pick(BINDINGS)
    prim.forms.append(f"bound:{how}")
    if how == "partialmethod":
        prim.need("import functools")
        body = ["g = sign * g", *value_body(pick, prim, VALUE_FORMS)]
        prim.methods += [block("def _bwd(self, sign, res, g):", body), "vjp_bwd = functools.partialmethod(_bwd, 1.0)\n"]
    elif how == "assigned":
        prim.before.append(value_rule(pick, prim, "_shared_bwd"))
        prim.methods.append("vjp_bwd = _shared_bwd\n")
    elif how == "if_body":
        prim.need("import os")
        prim.before.append('_VERBOSE = bool(os.environ.get("LIN_VERBOSE"))\n')
        rule = value_rule(pick, prim)
        verbose = rule.replace("\n", '\n    print("vjp_bwd", g.shape)\n', 1)
        prim.methods.append(block("if _VERBOSE:", [verbose]) + block("else:", [rule]))
    else:
        prim.name = "_LinBase"
        prim.after += [value_rule(pick, prim, "_lin_bwd"), 'Lin = type("Lin", (_LinBase,), {"vjp_bwd": _lin_bwd})\n']


def add_dce(pick, prim: Prim) -> None:
    """A ``dce`` in the old ``(self, used_outs)`` form, defined or delegated some way (jax 0.12 adds live_ins)."""
    form = pick(DCE_FORMS)
    if form == "none":
        return
    prim.forms.append(f"dce:{form}")
    if form == "override":
        prim.methods.append(KEEP_ALL)
    elif form == "delegate_base":
        prim.methods.append("def dce(self, used_outs):\n    return VJPHiPrimitive.dce(self, used_outs)\n")
    elif form == "delegate_super":
        prim.methods.append("def dce(self, used_outs):\n    return super().dce(used_outs)\n")
    elif form == "mixin":
        prim.before.append(
            block('class KeepAllMixin:\n    """Never prunes the inputs of a primitive in use."""\n', [KEEP_ALL])
        )
        prim.bases.insert(0, "KeepAllMixin")
    else:
        prim.before.append(KEEP_ALL.replace("def dce", "def _dce"))
        prim.methods.append("dce = _dce\n")


def add_vmap(pick, prim: Prim, kind: str) -> bool:
    """A batching rule: ``batch`` (every release), or ``batch_dim_rule`` gated to the releases with ``VmapOf``.
    Gated only on value rules: ``VmapOf`` calls ``vjp_bwd_retval``, so an accumulator rule never had grad of vmap."""
    form = pick(VMAP_FORMS if kind in ("value", "decorated", "bound", "retval") else ["none", "none", "batch"])
    if form == "none":
        return False
    prim.forms.append(f"vmap:{form}")
    prim.need("import jax")
    prim.need("import jax.numpy as jnp")
    prim.methods.append(BATCH if form == "batch" else GATED_BATCH)
    return True


def backward_rule(pick, prim: Prim, kind: str) -> None:
    prim.forms.append(f"rule:{kind}")
    if kind == "value":
        prim.methods.append(value_rule(pick, prim))
    elif kind == "half":
        half_port(pick, prim)
    elif kind == "accum":
        accum_rule(pick, prim)
    elif kind == "decorated":
        decorated_rule(pick, prim)
    elif kind == "bound":
        bound_rule(pick, prim)
    else:  # a base already in the value form; its subclass is not (family:half_migrated)
        prim.methods.append(value_rule(pick, prim, "vjp_bwd_retval", TUPLE_FORMS))


def render(prim: Prim) -> str:
    n = len(prim.coefs)
    params = ", ".join(f"x{i}" for i in range(n))
    out = " + ".join(f"{c} * x{i}" for i, c in enumerate(prim.coefs))
    standard = STANDARD_METHODS.format(n=n, params=params, out=out)
    methods = [
        standard,
        *prim.methods,
        f"def _cts(self, g):\n    return {tuple_of(prim.cts)}\n",
        "def _write(self, acc, ct):\n    acc.accum(ct)\n",
    ]
    imports = (
        sorted(line for line in prim.imports if line.startswith("import "))
        + [""]
        + HEAD_IMPORTS
        + sorted(line for line in prim.imports if line.startswith("from "))
        + [""]
    )
    coefs = f"COEFS = {tuple_of([str(c) for c in prim.coefs])}\n"
    body = "\n".join(textwrap.indent(m, "    ") for m in methods)
    klass = f"class {prim.name}({', '.join(prim.bases)}):\n{body}"
    parts = [coefs, *prim.before, klass, *prim.after, HELPERS]
    return "\n".join(imports).lstrip("\n") + "\n" + "\n\n".join(parts)


def primitive(pick, n: int) -> tuple[Prim, str, bool]:
    """The primitive, the kind of its backward rule, and whether it batches."""
    coefs = [pick([0, 1, 2, 3]) for _ in range(n)]
    if not any(coefs):
        coefs[0] = 1
    prim = Prim(coefs, [])
    cotangents(pick, prim)
    kind = pick(KINDS)
    backward_rule(pick, prim, kind)
    add_dce(pick, prim)
    return prim, kind, add_vmap(pick, prim, kind)


def add_subclass(pick, tree: Tree, pkg: str, kind: str) -> bool:
    """A subclass in another file, spelled some way; a half-migrated family always has one."""
    if kind != "retval" and (kind not in ("value", "decorated", "bound") or not pick([False, True])):
        return False
    spelling = pick(SUBCLASS_SPELLINGS)
    body = pick(SUBCLASS_BODIES if kind != "retval" else ["super", "super_explicit"])
    tree.files[f"{pkg}/ops/sub.py"] = SUBCLASS_HEADS[spelling] + SUBCLASS_BODY_TEXT[body]
    tree.forms += [f"subclass:{spelling}", f"subclass:{body}"] + (["family:half_migrated"] if kind == "retval" else [])
    return True


def add_look_alikes(pick, tree: Tree, pkg: str, prim: Prim) -> None:
    """Unrelated code in other files, each present a third of the time."""
    for name in sorted(LOOK_ALIKES):
        if pick([False, False, True]):
            tree.files[f"{pkg}/other/{name}.py"] = LOOK_ALIKES[name]
            tree.forms.append(f"look-alike:{name}")
            tree.fixed.append(f"{pkg}/other/{name}.py")
    if any(path.startswith(f"{pkg}/other/") for path in tree.files):
        tree.files[f"{pkg}/other/__init__.py"] = ""
    if prim.helper_module:
        tree.files |= {f"{pkg}/utils/__init__.py": "", f"{pkg}/utils/grads.py": ACCUM_HELPER}
        tree.forms.append("look-alike:accum_helper_module")
        tree.fixed.append(f"{pkg}/utils/grads.py")


def main_module(pkg: str, prim: Prim, cls: tuple[str, str], batched: bool, relative: bool) -> str:
    n = len(prim.coefs)
    params = ", ".join(f"x{i}" for i in range(n))
    module, name = cls
    import_line = f"from .ops.{module} import {name}" if relative else f"from {pkg}.ops.{module} import {name}"
    return MAIN.format(
        import_line=import_line,
        cls=name,
        params=params,
        args=", ".join(["jnp.array([1.0, 2.0, 3.0])"] * n),
        argnums=tuple(range(n)),
        expected=[[prim.scale * c] * 3 for c in prim.coefs],
        value=6.0 * sum(prim.coefs),
        batched=batched,
    )


def monorepo(tree: Tree, pkg: str) -> None:
    """The program moves into ``proj_a``; ``proj_b`` holds a package of the same name, no hijax in it."""
    tree.files = {f"proj_a/{path}": text for path, text in tree.files.items()}
    tree.fixed = [f"proj_a/{path}" for path in tree.fixed]
    tree.files["proj_a/pyproject.toml"] = PYPROJECT.format(name="proj-a")
    for path, text in PROJ_B.items():
        tree.files[f"proj_b/{path.format(pkg=pkg)}"] = text
        tree.fixed.append(f"proj_b/{path.format(pkg=pkg)}")
    tree.root = "proj_a"
    tree.forms.append("monorepo")


def draw_tree(pick, pkg: str) -> Tree:
    """One program tree under the package ``pkg``."""
    prim, kind, batched = primitive(pick, pick([1, 2, 3]))
    tree = Tree(
        {f"{pkg}/__init__.py": "", f"{pkg}/ops/__init__.py": "", f"{pkg}/ops/prims.py": render(prim)},
        list(prim.forms),
        prim.since,
    )
    cls = ("sub", "Sub") if add_subclass(pick, tree, pkg, kind) else ("prims", "Lin")
    add_look_alikes(pick, tree, pkg, prim)
    split = pick([False] * 7 + [True])  # a monorepo: rare, as in public code
    relative = split or pick([False, False, True])
    if relative:
        tree.forms.append("import:relative")
    tree.files[f"{pkg}/main.py"] = main_module(pkg, prim, cls, batched, relative)
    if split:
        monorepo(tree, pkg)
    return tree
