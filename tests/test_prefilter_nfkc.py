"""The pre-filter normalises a text beyond ASCII only where NFKC can make a
name (or the blanks of ``def NAME``) its ASCII does not hold: what it finds
in the bytes as they are is then all there is to find (``files._spells_names``).

The reference is the search of the whole text normalised: the pre-filter
names at least its words, for texts mixing the rules' names with the
characters NFKC changes (full-width letters, ligatures, no-break spaces,
fractions, combining marks, ``…``)."""

from __future__ import annotations

import unicodedata

from hijax_migrate.engine.triage import every_word
from hijax_migrate.sources import files
from hypothesis import given, settings
from hypothesis import strategies as st

WORDS = every_word()
_PIECES = ["vjp_bwd", "def", " ", "dce", "remat", "HiPrim", "QDD", "__version_", "batch_dim_rule", "(", "\n", "."]
# NFKC of each is ASCII, part ASCII, or none: letters and blanks it makes, marks it composes
_CHANGED = "\uff56\uff44\u00a0\u2003\ufb01\u212a\u00bd\u00b2\u2026\u0301\u0308\u0323\u00e4\u1e9b\u2160\u3000\u2028"


def _reference(text: str) -> frozenset[bytes]:
    return files._bytes_naming(unicodedata.normalize("NFKC", text).encode(), True, WORDS)


_BLANKS = " \u00a0\u2003\u3000"  # NFKC: all a space


@st.composite
def _spelt(draw) -> str:
    """A rule's word, some letters full width (NFKC gives them back), its blank any
    of NFKC's spaces, amid characters NFKC changes and any others."""
    word = draw(st.sampled_from(sorted(WORDS)) | st.sampled_from([w for w in WORDS if b" " in w])).decode()
    wide = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)) | st.just([False] * len(word)))
    spelt = "".join(
        draw(st.sampled_from(_BLANKS)) if c == " " else chr(ord(c) + 0xFEE0) if w and c.isalnum() else c
        for c, w in zip(word, wide)
    )
    around = st.text(st.sampled_from(_CHANGED + " (.\n") | st.characters(exclude_categories=["Cs"]), max_size=4)
    composed = draw(st.sampled_from(["", "A\u0301", "e\u0308", "x\u0323"]))  # a letter NFKC makes no ASCII
    return draw(around) + spelt + composed + draw(around)


@settings(max_examples=600, deadline=None)
@given(st.lists(_spelt() | st.sampled_from(_PIECES) | st.sampled_from(_CHANGED), max_size=6))
def test_the_prefilter_names_every_word_the_normalised_text_names(parts):
    text = "".join(parts)
    assert files.named_words(text.encode(), WORDS) >= _reference(text)


def test_a_name_only_normalisation_spells_is_found():
    for text in ["x.\uff56jp_bwd", "def\u00a0remat(self, t):", "class P(\uff28iPrim): ...", "\ufb01 = vjp\uff3fbwd"]:
        assert _reference(text), text
        assert files.named_words(text.encode(), WORDS) == _reference(text), text


def test_text_normalisation_only_changes_elsewhere_is_not_normalised():
    """``…`` and ``ä`` change under NFKC or decompose to ASCII, but make no name: the bytes answer."""
    for text in ["# a\u2026b\nx.vjp_bwd", "# K\u00e4se: \u00e4\u00df\n", "def f(): return '\u2026'"]:
        assert files._normalized(text.encode(), names_only=True) is None
        assert files.named_words(text.encode(), WORDS) == _reference(text)


def test_a_mark_may_end_a_name_in_bytes_and_the_text_is_normalised():
    """``A`` and a combining acute compose to ``Á``: in bytes, ``remat`` then ends a name."""
    text = "    def rematA\u0301(self): ..."
    assert files._normalized(text.encode(), names_only=True) is not None
    assert files.named_words(text.encode(), WORDS) >= _reference(text)


def test_ascii_a_decomposition_starts_with_composes_again_whatever_surrounds_it():
    """``_spells_names``' reading: a character whose NFKC alone holds no name byte nor blank
    holds none beside any combining mark either, nor after an ASCII letter or a mark."""
    named = files._NAMED
    quiet = [
        chr(i)
        for i in range(0x80, 0x30000)
        if not 0xD800 <= i < 0xE000
        and named.isdisjoint(unicodedata.normalize("NFKC", chr(i)))
        and not named.isdisjoint(unicodedata.normalize("NFKD", chr(i)))  # ASCII inside: recomposed alone
    ]
    marks = [chr(i) for i in range(0x300, 0x370)] + ["\u0591", "\u05b0", "\u0e31", "\u1dc0", "\u20d0", "\u3099"]
    assert len(quiet) > 400  # the Latin letters with marks, and more
    for char in quiet:
        for around in marks:
            for text in (char + around, char + around + around, "a" + char + around, around + char):
                assert named.isdisjoint(set(unicodedata.normalize("NFKC", text)) - set(text)), ascii(text)


def test_a_name_only_hijax_gives_counts_only_in_a_file_naming_hijax():
    """Checked before the name is searched: in a whole file, not in a chunk (cut anywhere)."""
    for word in (b"MappingSpec", b"transpose_jvp"):
        alone = b"x = ops." + word + b"\n"
        assert word not in files.named_words(alone, WORDS)
        assert word in files.named_words(b"from jax._src import hijax\n" + alone, WORDS)
        assert word in files.named_words(alone, WORDS, whole=False)
