"""The dictionaries D+_pos and D-_pos of POS sampling (section 2.3), built once per corpus.

For every tag t, with pol(w) in {-1, 0, +1} the sign of a word's sentiment,

    D+_t = {w in corpus tagged t : pol(w) >= 0}      (positive and neutral words)
    D-_t = {w in corpus tagged t : pol(w) <= 0}      (negative and neutral words)

and a token of tag t and polarity s is replaced by a word drawn uniformly from

    D-_t if s = +1,   D+_t if s = -1,   D+_t u D-_t if s = 0,

minus the token's own word (a token is never replaced by itself). Words are
lowercased cores (:mod:`fred.pos.tokens`); a word belongs to every tag it
received somewhere in the corpus, since taggers are contextual.

Every pool is a *sorted* tuple: frozensets of strings iterate in an order that
changes with ``PYTHONHASHSEED``, which would make "same seed, same samples"
false across processes. The mappings are read-only
(:class:`types.MappingProxyType`) and the dataclass is frozen, so explaining
cannot mutate the dictionaries.
"""

from __future__ import annotations

import bisect
import math
import numbers
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, Sequence

from .tokens import split_token

#: A part-of-speech tagger: token lists to tag lists, one tag per token.
Tagger = Callable[[Sequence[Sequence[str]]], Sequence[Sequence[str]]]
#: A word's sentiment polarity (negative below 0).
Polarity = Callable[[str], float]


def polarity_sign(polarity: Polarity, word: str) -> int:
    """-1, 0 or +1: the sign of ``polarity(word)``, refusing non-numbers and NaN."""
    value = polarity(word)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
        raise TypeError(f"polarity({word!r}) must return a real number (its sign is used), got {value!r}")
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class PosDictionaries:
    """Read-only D+_t, D-_t and their union, each a sorted tuple of words per tag.

    Attributes
    ----------
    positive : tag -> D+_t
    negative : tag -> D-_t
    words : tag -> D+_t u D-_t
    category_sizes : (tag, polarity) -> number of distinct words
    n_documents, n_tokens : size of the corpus the dictionaries were built from
    """

    positive: Mapping[str, tuple[str, ...]]
    negative: Mapping[str, tuple[str, ...]]
    words: Mapping[str, tuple[str, ...]]
    category_sizes: Mapping[tuple[str, int], int]
    n_documents: int
    n_tokens: int

    def pool(self, tag: str, polarity: int) -> tuple[str, ...]:
        """Replacement pool of a token with this tag and polarity sign (module docstring)."""
        table = self.negative if polarity > 0 else self.positive if polarity < 0 else self.words
        return table.get(tag, ())

    def candidates(self, tag: str, polarity: int, word: str) -> tuple[tuple[str, ...], int | None]:
        """The pool and the index of ``word`` in it (None when absent), so a draw can skip it."""
        pool = self.pool(tag, polarity)
        i = bisect.bisect_left(pool, word)
        return pool, (i if i < len(pool) and pool[i] == word else None)


def _frozen(table: dict[str, set[str]]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({tag: tuple(sorted(words)) for tag, words in sorted(table.items()) if words})


def corpus_documents(corpus: Iterable[str]) -> list[list[str]]:
    """Whitespace tokens of each non-blank document; refuses a bare string and non-string items."""
    if isinstance(corpus, str) or not isinstance(corpus, Iterable):
        raise TypeError(f"corpus must be an iterable of str documents, got {type(corpus).__name__}")
    documents = []
    for i, document in enumerate(corpus):
        if not isinstance(document, str):
            raise TypeError(f"corpus[{i}] must be a str, got {type(document).__name__}")
        if document.split():
            documents.append(document.split())
    if not documents:
        raise ValueError("corpus must contain at least one non-blank document")
    return documents


def tag_documents(tagger: Tagger, documents: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Run ``tagger`` and check it returned one string tag per position of every document."""
    tags = [tuple(t) for t in tagger(documents)]
    if len(tags) != len(documents):
        raise ValueError(f"tagger returned tags for {len(tags)} documents, expected {len(documents)}")
    for i, (tokens, doc_tags) in enumerate(zip(documents, tags)):
        if len(doc_tags) != len(tokens) or not all(isinstance(t, str) for t in doc_tags):
            raise ValueError(f"tagger must return one str tag per whitespace token; document {i} has "
                             f"{len(tokens)} tokens {list(tokens)[:5]}... but got tags {list(doc_tags)[:5]}...")
    return tags


def build_dictionaries(corpus: Iterable[str], tagger: Tagger, polarity: Polarity) -> PosDictionaries:
    """Tag every whitespace token of ``corpus`` once and file its word under its tag and polarity."""
    documents = corpus_documents(corpus)
    tags = tag_documents(tagger, documents)
    positive: dict[str, set[str]] = {}
    negative: dict[str, set[str]] = {}
    signs: dict[str, int] = {}
    categories: dict[tuple[str, int], set[str]] = {}
    for tokens, doc_tags in zip(documents, tags):
        for token, tag in zip(tokens, doc_tags):
            word = split_token(token).word
            if word not in signs:
                signs[word] = polarity_sign(polarity, word)
            sign = signs[word]
            categories.setdefault((tag, sign), set()).add(word)
            if sign >= 0:
                positive.setdefault(tag, set()).add(word)
            if sign <= 0:
                negative.setdefault(tag, set()).add(word)
    union = {tag: positive.get(tag, set()) | negative.get(tag, set()) for tag in positive.keys() | negative.keys()}
    return PosDictionaries(
        positive=_frozen(positive),
        negative=_frozen(negative),
        words=_frozen(union),
        category_sizes=MappingProxyType({key: len(words) for key, words in sorted(categories.items())}),
        n_documents=len(documents),
        n_tokens=sum(map(len, documents)),
    )
