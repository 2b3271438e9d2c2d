"""HJX014: exact comparisons with jax's version (reported)."""

from __future__ import annotations

from ...analysis.scopes import PRIMITIVE_KINDS, Kind
from ..base import Rule

RULE = Rule(
    "HJX014",
    "exact-version-gate",
    (0, 8, 1),
    'Reported: `jax.__version__ != "0.11.0"` and other exact comparisons with jax\'s version, '
    "in a file with hijax primitives, the version written out or held by a module-level name bound "
    'once to it (`_SUPPORTED = "0.11.0"`); an error where a failed comparison raises (`assert`, or '
    "an `if` that raises), a note elsewhere.",
    before="""
import jax
from jax.experimental.hijax import VJPHiPrimitive

if jax.__version__ != "0.11.0":
    raise ImportError("needs jax 0.11.0")

class Op(VJPHiPrimitive):
    pass
""",
    after="""
import jax
from jax.experimental.hijax import VJPHiPrimitive

if jax.__version__ != "0.11.0":
    raise ImportError("needs jax 0.11.0")

class Op(VJPHiPrimitive):
    pass
""",
    # jax's version by each of its names (``analysis.version_tests.VERSION_NAMES``),
    # where it may be compared exactly (``sources.compared_names``): most reads of a
    # version are no comparison, and jax's own modules hold many
    # (``importlib.metadata.version("jax")`` too: a file holding that call and no other name of
    # the version was passed over, and --check said nothing was left where the code raised)
    needs=("compared __version__", "compared __version_info__", "compared _version", "compared version"),
    kinds=PRIMITIVE_KINDS | {Kind.OLD},
    rewrite=f"{__name__}.rewrite:VersionGates",
)
