"""A generator of references to a rule by name (issue 40): a key in any quoting, built
with ``+`` or an f-string, a module constant (local or imported from another module of
the tree), a container a loop consumes, or a name not known before the code runs; the
forms that consume it (getattr, hasattr, getattr_static, attrgetter, methodcaller,
``__dict__``, ``vars()``, ``in``), including the wrappers of ``__init_subclass__`` and
class decorators. Whatever Python evaluates the key to decides: a reference that may
name ``vjp_bwd`` leaves the rule as written, with an error naming the reference's line;
one that names another attribute refuses nothing."""

from __future__ import annotations

from hijax_migrate.rules.context import Options
from hijax_migrate.run.runner import run
from hijax_migrate.run.state import Job
from hijax_migrate.sources.files import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PRIM = """from jax.experimental.hijax import VJPHiPrimitive
import inspect
import operator
{imports}
{constants}

class {base}:
{hook}
{deco}
{decorator}class Sq({base_use}):
    def vjp_fwd(self, nzs_in, x):
        return x * x, x

    def vjp_bwd(self, res, g):
        return (2 * res * g,)
{tail}
"""


SIMPLE = ('"', "'", 'r"', 'u"')  # one plain string literal: a reference proven can be renamed


def spellings(word: str) -> st.SearchStrategy[str]:
    """Expressions Python evaluates to ``word``."""
    half = len(word) // 2
    a, b = word[:half], word[half:]
    escaped = "".join(f"\\x{ord(c):02x}" if c == "b" else c for c in word)
    return st.sampled_from(
        [
            f'"{word}"',
            f"'{word}'",
            f'r"{word}"',
            f'"{a}" "{b}"',
            f'"{a}" + "{b}"',
            f'"{escaped}"',
            f"f\"{a}{{'{b}'}}\"",
            f'"""{word}"""',
            f'u"{word}"',
        ]
    )


@st.composite
def keys(draw):
    """(the key's expression, statements it needs at module level, what it evaluates to
    (None: not known before the code runs), the files of the tree besides the module)."""
    word = draw(st.sampled_from(["vjp_bwd", "vjp_bwd", "vjp_fwd", "other"]))
    spelled = draw(spellings(word))
    how = draw(st.sampled_from(["literal", "constant", "imported", "element"]))
    if how == "literal":
        return spelled, "", word, {}
    if how == "constant":
        return "NAME", f"NAME = {spelled}", word, {}
    if how == "imported":
        return "NAME", "", word, {"names.py": f"NAME = {spelled}\n"}
    return "NAMES[1]", f'NAMES = ("x", {spelled})', word, {}


FORMS = [  # (where the reference stands: "tail" after the classes, "hook" in the base), its code
    ("tail", "getattr(Sq, {key})"),
    ("tail", "hasattr(Sq, {key})"),
    ("tail", "inspect.getattr_static(Sq, {key})"),
    ("tail", "operator.attrgetter({key})"),
    ("tail", "operator.methodcaller({key}, 1, 2)"),
    ("tail", "Sq.__dict__[{key}]"),
    ("tail", "Sq.__dict__.get({key})"),
    ("tail", "vars(Sq)[{key}]"),
    ("tail", "{key} in vars(Sq)"),
    ("hook", "cls.__dict__.get({key})"),
    ("hook", "vars(cls).get({key})"),
    ("hook", "getattr(cls, {key}, None)"),
    ("deco", "vars(cls)[{key}]"),
    ("deco", "cls.__dict__.get({key})"),
]


@st.composite
def programs(draw):
    key, constant, word, files = draw(keys())
    where, form = draw(st.sampled_from(FORMS))
    if where == "hook" and draw(st.booleans()):  # a name read from the namespace: not known before it runs
        key, constant, word, files = "_k", "", None, {}
    loop = draw(st.booleans()) and where == "tail"
    ref = form.format(key="_n" if loop else key)
    hook = "    pass\n"
    if where == "hook":
        each = "        for _k in list(vars(cls)):\n    " if key == "_k" else ""
        hook = (
            "    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n"
            f"{each}        _rule = {ref}\n"
        )
    if loop:  # the key held in a tuple a loop consumes
        tail = f"\n\nfor _n in ('vjp_fwd', {key}):\n    _found = {ref}\n"
    else:
        tail = f"\n\n_found = {ref}\n" if where == "tail" else ""
    source = PRIM.format(
        imports="from names import NAME" if files else "",
        constants=constant,
        base="Hooked(VJPHiPrimitive)" if where == "hook" else "Plain",
        hook=hook,
        base_use="Hooked" if where == "hook" else "VJPHiPrimitive",
        tail=tail,
        deco=f"\ndef wrap(cls):\n    _rule = {ref}\n    return cls\n\n" if where == "deco" else "",
        decorator="@wrap\n" if where == "deco" else "",
    )
    at = [i for i, text in enumerate(source.splitlines(), 1) if ref in text and "for _n" not in text]
    at += [i for i, text in enumerate(source.splitlines(), 1) if "in list(vars(cls))" in text]  # the names listed
    # followed: a plain literal naming an attribute or a namespace key of classes of this module
    # (a base's ``__init_subclass__``, a class decorator's parameter, ``Sq``), all renamed
    plain = key.startswith(SIMPLE) and " " not in key and not loop
    follows = plain and not any(other in form for other in ("inspect.", "operator."))
    return source, files, word, at, follows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(programs(), st.sampled_from(["rename", "accum"]), st.booleans())
def test_a_reference_by_name_is_followed_whatever_its_spelling(tmp_path_factory, program, strategy, subclass):
    source, files, word, lines, follows = program
    if subclass:  # a family: one strategy gives its classes one form
        source += "\n\nclass Half(Sq):\n    def vjp_bwd(self, res, g):\n        return (0.5 * g * res,)\n"
    root = tmp_path_factory.mktemp("tree")
    for name, text in {"prims.py": source, **files}.items():
        (root / name).write_text(text)
    jobs = [Job(p, p.relative_to(root).as_posix(), root) for p in walk(root)]
    outcomes = run(jobs, Options(target=(0, 10, 0), strategy=strategy), in_place=False, workers=1)
    mine = next(o for o in outcomes if o.file == "prims.py")
    errors = [f.message for f in mine.findings if f.severity == "error"]
    if word == "vjp_bwd" and follows:  # the string renamed with the rule
        added = [text for text in mine.diff.splitlines() if text.startswith("+") and "vjp_bwd_retval" in text]
        assert errors == [] and len(added) == 2 + subclass, (errors, source, mine.diff)
    elif word in ("vjp_bwd", None):
        assert not mine.diff, source
        assert any(f"reached by name at line {line} " in e for e in errors for line in lines), (errors, source)
    else:
        assert errors == [], (errors, source)
        assert "+    def vjp_bwd_retval(self, res, g):" in mine.diff or "x_acc.accum" in mine.diff, source


@st.composite
def partial_bindings(draw):
    """``partialmethod(f, *args, **kw)`` of a random ``f(self, ...)`` returning a tuple."""
    names = ["res", "g", "a", "b", "c"][: draw(st.integers(1, 5))]
    defaults = draw(st.integers(0, len(names)))  # the last ``defaults`` parameters have one
    params = [f"{n}=1.0" if i >= len(names) - defaults else n for i, n in enumerate(names)]
    positional = draw(st.integers(0, len(names)))
    keywords = draw(st.lists(st.sampled_from(names[positional:] or ["x"]), unique=True, max_size=2))
    keywords = [k for k in keywords if k in names[positional:]]
    args = ["2.0"] * positional + [f"{k}=3.0" for k in keywords]
    func = f"def _bwd(self, {', '.join(params)}):\n    return (1.0,)\n"
    return func, f"partialmethod(_bwd{''.join(', ' + a for a in args)})"


@settings(max_examples=200, deadline=None)
@given(partial_bindings())
def test_partialmethod_is_read_as_python_binds_it(binding):
    import inspect
    from functools import partialmethod

    import libcst as cst
    from hijax_migrate.rules.bwd_returns_cotangents.bindings import bound_form

    func, call = binding
    space = {"partialmethod": partialmethod}
    exec(f"{func}\nclass C:\n    vjp_bwd = {call}\n", space)
    params = list(inspect.signature(space["C"]().vjp_bwd).parameters.values())
    required = [p for p in params if p.default is p.empty and p.kind is not p.VAR_POSITIONAL]
    positional = [p for p in required if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    from hijax_migrate.analysis.summary import bridge_of

    module = cst.parse_module(f"from functools import partialmethod\n{func}")
    form = bound_form(module, cst.parse_expression(call), bridge_of(module, module.code))
    if len(required) != len(positional):  # a parameter no call by position fills: not a rule of either form
        assert form not in ("classic", "accumulator"), (func, call, form)
    elif len(positional) <= 2:  # no required parameter after (res, g): a value rule, as a ``def`` is read
        assert form == "classic", (func, call, form, params)
    else:  # an accumulator parameter after them
        assert form == "accumulator", (func, call, form, params)
