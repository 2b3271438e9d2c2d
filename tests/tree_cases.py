"""Generated trees of a package (and a subpackage) with hijax primitives
spread over several modules, for tests that compare runs of the same tree.

A tree is a list of pieces (``st.lists``), each placed in module slots and
rendered into the files: primitives of the old API (0.8.0's base and
constructor included), half-ported and already migrated ones, bases
subclassed across modules (by name, by a module alias, by a relative import,
through a re-export in ``__init__.py``; jax's base itself through a helper
module), subclasses calling ``super().vjp_bwd`` or defining their rule
twice, a mixin holding a value-returning ``vjp_bwd``, calls of the rule from
other files (by attribute or ``getattr``), look-alikes, Markdown pages whose
fences subclass a base of the tree, a file with a non-ASCII name, a file
with a syntax error and an empty file. Each tree comes with an edit that
changes answers in files other than its own (for caches).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from hypothesis import strategies as st

SLOTS = ("pkg/a.py", "pkg/b.py", "pkg/modülé.py", "pkg/sub/c.py", "pkg/sub/d.py", "tool.py")
COMPAT = "from jax.experimental.hijax import VJPHiPrimitive\n"  # pkg/compat.py: a helper that re-exports
IMPORTS = ("from", "relative", "alias", "reexport")
HIJAX = ("from", "alias", "private", "newstyle", "hiprim", "helper")
_HIJAX_IMPORT = {
    "from": ("from jax.experimental.hijax import VJPHiPrimitive", "VJPHiPrimitive"),
    "alias": ("import jax.experimental.hijax as hjx", "hjx.VJPHiPrimitive"),
    "private": ("from jax._src import hijax", "hijax.VJPHiPrimitive"),
    "newstyle": ("from jax._src.hijax import NewstyleHiPrimitive", "NewstyleHiPrimitive"),
    "hiprim": ("from jax.experimental.hijax import HiPrim", "HiPrim"),  # newer than 0.10
    "helper": ("from pkg.compat import VJPHiPrimitive", "VJPHiPrimitive"),
}
_INIT = (
    "    def __init__(self, aval):\n        self.in_avals = (aval,)\n        self.out_aval = aval\n"
    "        self.params = {}\n        super().__init__()\n\n"
)
_NEWSTYLE_INIT = "    def __init__(self, aval):\n        super().__init__((aval,), aval, power=2)\n\n"  # 0.8.0
_FWD = "    def vjp_fwd(self, nzs_in, x):\n        return x * 2.0, x\n\n"
_OLD_FWD = "    def vjp_fwd(self, x):\n        return x * 2.0, x\n\n"  # before 0.9: no nzs_in
_RULES = {  # the backward rule's forms
    "tuple": "    def vjp_bwd(self, res, g):\n        return (2.0 * g,)\n",
    "bare": "    def vjp_bwd(self, res, g):\n        return 2.0 * g * res,\n",
    "cond": "    def vjp_bwd(self, res, g):\n        return (g,) if res is None else (g * res,)\n",
    "none_entry": "    def vjp_bwd(self, res, g):\n        return (g, None)\n",
    "accum": "    def vjp_bwd(self, res, g, x_acc):\n        x_acc.accum(2.0 * g)\n",
    "half": "    def vjp_bwd(self, res, g, x_acc):\n        x_acc.accum(2.0 * g)\n        return (2.0 * g,)\n",
    "retval": "    def vjp_bwd_retval(self, res, g):\n        return (2.0 * g,)\n",
    "raise": "    def vjp_bwd(self, res, g):\n        raise NotImplementedError\n",
    "logs": '    def vjp_bwd_retval(self, res, g):\n        return (2.0 * g,), {"scale": 2.0}\n',
    "flag": "    vjp_bwd_retval_logs = True\n",  # in a base: its subclasses' rules return logs too
    "twice": (
        "    def vjp_bwd(self, res, g):\n        return (g,)\n\n"  # Python keeps the last one
        "    def vjp_bwd(self, res, g):\n        return (3.0 * g,)\n"
    ),
}
_EXTRAS = {  # rules of later releases, met on the way to 0.12
    "": "",
    "dce": "\n    def dce(self, used_outs):\n        return self, used_outs\n",
    "batch": "\n    def batch_dim_rule(self, axis_data, dims):\n        return dims\n",
}

slots = st.sampled_from(range(len(SLOTS)))


def module_of(slot: int) -> str:
    return SLOTS[slot][:-3].replace("/", ".")


class Tree:
    """The files being written: each module's imports and body."""

    def __init__(self):
        self.imports: dict[str, list[str]] = defaultdict(list)
        self.bodies: dict[str, list[str]] = defaultdict(list)
        # Edits after a first run, each one that changes answers in other files:
        # (file, text, what it becomes); text None: a new file.
        self.edits: list[tuple[str, str | None, str]] = []
        self.bases: list[tuple[int, str]] = []  # (slot, name) of each family's base
        self.documents: dict[str, str] = {}

    def add(self, slot: int, code: str, *imports: str) -> None:
        path = SLOTS[slot]
        self.imports[path] += [line for line in imports if line not in self.imports[path]]
        self.bodies[path].append(code)

    def hijax(self, slot: int, style: str) -> str:
        """The old base's expression in ``slot``, imported there."""
        line, expression = _HIJAX_IMPORT[style]
        self.add(slot, "", line)
        return expression

    def name(self, user: int, owner: int, name: str, style: str) -> str:
        """``name`` (defined in ``owner``) as ``user`` reaches it, imported in ``style``."""
        if user == owner:
            return name
        module = module_of(owner)
        if style == "alias":
            alias = "m_" + module.rsplit(".", 1)[-1]
            self.add(user, "", f"import {module} as {alias}")
            return f"{alias}.{name}"
        if style == "reexport" and module.startswith("pkg."):
            self.add(user, "", f"from pkg import {name}")
            line = f"from {module} import {name}"
            if line not in self.imports["pkg/__init__.py"]:
                self.imports["pkg/__init__.py"].append(line)
            return name
        if style == "relative" and SLOTS[user].startswith("pkg/") and module.startswith("pkg."):
            self.add(user, "", f"from {_relative(module_of(user), module)} import {name}")
            return name
        self.add(user, "", f"from {module} import {name}")
        return name

    def files(self) -> dict[str, str]:
        out = {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", **self.documents}
        if any("pkg.compat" in line for lines in self.imports.values() for line in lines):
            out["pkg/compat.py"] = COMPAT
        for path in set(self.imports) | set(self.bodies):
            head = "\n".join(self.imports[path])
            body = "\n\n".join(code for code in self.bodies[path] if code)
            out[path] = (head + "\n\n\n" if head else "") + body
        return out


def _relative(user: str, owner: str) -> str:
    """``owner`` as a relative import from module ``user`` (both under pkg)."""
    here, there = user.split(".")[:-1], owner.split(".")
    common = 0
    while common < len(here) and common < len(there) - 1 and here[common] == there[common]:
        common += 1
    return "." * (len(here) - common + 1) + ".".join(there[common:])


def _init(base: str) -> str:
    return _NEWSTYLE_INIT if base.startswith("Newstyle") else _INIT


def _primitive(name: str, base: str, rule: str, fwd: str = _FWD, extra: str = "") -> str:
    return f"class {name}({base}):\n{_init(base)}{fwd}{_RULES[rule]}{_EXTRAS[extra]}"


@st.composite
def primitives(draw, k: int):
    """A primitive in one module: of the old API, half-ported or migrated."""
    slot, style = draw(slots), draw(st.sampled_from(HIJAX))
    rule = draw(st.sampled_from(sorted(_RULES)))
    fwd, extra = draw(st.sampled_from((_FWD, _OLD_FWD))), draw(st.sampled_from(sorted(_EXTRAS)))

    def render(tree: Tree) -> None:
        tree.add(slot, _primitive(f"Op{k}", tree.hijax(slot, style), rule, fwd, extra))

    return render


_SUPER = "    def vjp_bwd(self, res, g):\n        (d,) = super().vjp_bwd(res, g)\n        return (3.0 * d,)\n"
# A base's value rule is decided with its subclasses': drawn most often.
BASE_RULES = ("tuple", "tuple", "tuple", "", "accum", "retval", "flag")
SUB_RULES = ("tuple", "super", "twice", "accum", "retval", "logs")


@st.composite
def families(draw, k: int):
    """A base in one module and its subclasses in others (or the same), whose
    rules may call the base's with ``super()``."""
    base_slot, hstyle = draw(slots), draw(st.sampled_from(HIJAX))
    base_rule = draw(st.sampled_from(BASE_RULES))
    subs = draw(
        st.lists(st.tuples(slots, st.sampled_from(IMPORTS), st.sampled_from(SUB_RULES)), min_size=1, max_size=3)
    )

    def render(tree: Tree) -> None:
        hijax = tree.hijax(base_slot, hstyle)
        line = f"class Base{k}({hijax}):"
        body = _FWD + (_RULES[base_rule] if base_rule else "    scale = 2.0\n")
        tree.add(base_slot, f"{line}\n{_init(hijax)}{body}")
        tree.edits.append((SLOTS[base_slot], line, f"class Base{k}:"))  # no primitive any more
        late = f"from {module_of(base_slot)} import Base{k}\n\n\nclass Late{k}(Base{k}):\n{_RULES['tuple']}"
        tree.edits.append((f"pkg/sub/late{k}.py", None, late))  # a new subclass
        tree.bases.append((base_slot, f"Base{k}"))
        for n, (slot, style, rule) in enumerate(subs):
            base = tree.name(slot, base_slot, f"Base{k}", style)
            tree.add(slot, f"class Sub{k}_{n}({base}):\n{_SUPER if rule == 'super' else _RULES[rule]}")

    return render


@st.composite
def mixins(draw, k: int):
    """A plain mixin with a value-returning ``vjp_bwd``, used by primitives of other modules."""
    mixin_slot, users = draw(slots), draw(st.lists(slots, min_size=1, max_size=2))
    style, hstyle = draw(st.sampled_from(IMPORTS)), draw(st.sampled_from(HIJAX))
    plain = draw(st.booleans())  # a plain class also inherits the mixin

    def render(tree: Tree) -> None:
        tree.add(mixin_slot, f"class GradMixin{k}:\n    def vjp_bwd(self, res, g):\n        return (g * res,)\n")
        for n, user in enumerate(users):
            mixin, hijax = tree.name(user, mixin_slot, f"GradMixin{k}", style), tree.hijax(user, hstyle)
            tree.add(user, f"class Mixed{k}_{n}({mixin}, {hijax}):\n{_FWD}")
        if plain:
            tree.add(
                users[0], f"class Plain{k}({tree.name(users[0], mixin_slot, f'GradMixin{k}', style)}):\n    pass\n"
            )

    return render


@st.composite
def callers(draw, k: int):
    """Code calling a rule from outside any class: by attribute or by ``getattr``."""
    slot = draw(slots)
    call = draw(
        st.sampled_from(("prim.vjp_bwd(res, g)", 'getattr(prim, "vjp_bwd")(res, g)', "prim.vjp_bwd_retval(res, g)"))
    )

    def render(tree: Tree) -> None:
        tree.add(slot, f"def debug{k}(prim, res, g):\n    return {call}\n")
        tree.edits.append((SLOTS[slot], f"    return {call}\n", "    return None\n"))  # the call goes

    return render


@st.composite
def lookalikes(draw, k: int):
    """Classes that look like primitives and are not."""
    slot, other = draw(slots), draw(slots)
    kind = draw(st.sampled_from(("quant", "protocol", "named")))

    def render(tree: Tree) -> None:
        rule = "    def vjp_bwd(self, res, g):\n        return (g, None)\n"
        if kind == "quant":
            tree.add(slot, f"class Quant{k}:\n    def vjp_fwd(self, x):\n        return x, x\n\n{rule}")
        elif kind == "protocol":  # a base of the project's own, from another module
            tree.add(other, f"class VjpProtocol{k}:\n    pass\n")
            tree.add(slot, f"class Quant{k}({tree.name(slot, other, f'VjpProtocol{k}', 'from')}):\n{rule}")
        else:  # a class of the project that is called what jax's base is called
            tree.add(slot, f"class VJPHiPrimitive:\n    pass\n\n\nclass Own{k}(VJPHiPrimitive):\n{rule}")

    return render


@st.composite
def documents(draw, k: int):
    """A Markdown page whose Python fences subclass a base of the tree."""
    rule = draw(st.sampled_from(("tuple", "accum", "none_entry")))

    def render(tree: Tree) -> None:
        slot, base = tree.bases[0]
        fence = f"from {module_of(slot)} import {base}\n\n\nclass Doc{k}({base}):\n{_RULES[rule]}"
        tree.documents[f"docs/page{k}.md"] = f"# Page {k}\n\nA primitive:\n\n```python\n{fence}```\n"

    return render


_PIECES = (primitives, families, mixins, callers, lookalikes, documents)


@st.composite
def trees(draw) -> tuple[dict[str, str], dict[str, str]]:
    """(files: path -> text, the files an edit changes or adds: path -> new text)."""
    kinds = draw(st.lists(st.sampled_from(range(len(_PIECES))), min_size=2, max_size=7))
    pieces = [draw(families(0))] + [draw(_PIECES[kind](k + 1)) for k, kind in enumerate(kinds)]
    tree = Tree()
    for render in pieces:
        render(tree)
    files = tree.files()
    if draw(st.booleans()):
        files["pkg/broken.py"] = "from jax.experimental.hijax import VJPHiPrimitive\n\ndef broken(:\n    pass\n"
    if draw(st.booleans()):
        files["pkg/sub/empty.py"] = ""
    path, text, new = draw(st.sampled_from(tree.edits))
    return files, {path: new if text is None else files[path].replace(text, new, 1)}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
