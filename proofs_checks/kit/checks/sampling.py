"""Checks of the perturbation law and the sample size: what the explainer sends to the model.

Section 2.3's mask sampling (each token kept as it is or replaced by one mask token, independently with
probability p), the document reaching the model unchanged, and Lemma 2's number of rows. The checks read the
texts a :class:`..black_boxes.Spy` records, as perturbation patterns of a 60-word document.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from analytic.lemma2 import sample_size_rational
from fred_constants import ALPHA, EPS, P

from ..black_boxes import Spy, lenient_classifier, read_patterns, vocabulary_classifier
from ..strategies import NEGATIONS, NEGATIVE_WORDS, POSITIVE_WORDS, STOP_WORDS, SUBJECT_WORDS
from ..tags import ExplainerTags, get_tags
from ...statistics.intervals import clopper_pearson
from .harness import DELTA, N_LAW, build_explainer, check_needing, n_samples_if_settable

#: The document of the perturbation-law checks: 60 distinct words, so that two rows are (almost) never the same
#: text and an explainer asking the model each distinct text once still shows every row to the spy (expected
#: number of equal pairs among 4 000 rows: 7e-4 at p = 0.2).
LAW_TOKENS = tuple(f"w{i:02d}" for i in range(60))
#: A document with capitals and a punctuation token.
RAW_TOKENS = ("The", "FOOD", "was", "Great", "!")
#: The vocabulary of the mask check's model: the kit's review words and scikit-learn's 318 English stop words.
MODEL_VOCABULARY = frozenset(ENGLISH_STOP_WORDS).union(POSITIVE_WORDS, NEGATIVE_WORDS, NEGATIONS, STOP_WORDS,
                                                       SUBJECT_WORDS)
#: The review of the mask check: stop words, a negation and repeated words, all of them in the model's vocabulary.
MASK_REVIEW = ("the", "food", "was", "not", "good", "and", "the", "service", "was", "bad")


def _law_rows(make_explainer, tags: ExplainerTags, p: float, tokens=LAW_TOKENS, n: int = N_LAW, max_len: int = 1):
    """The rows a Monte Carlo explainer sends to the model for one explanation, read as perturbation patterns."""
    spy = Spy(lenient_classifier(tokens))
    text = " ".join(tokens)
    build_explainer(make_explainer, spy, False).explain(text, label=1, p=p, eps=EPS, max_len=max_len,
                                                        n_samples=n_samples_if_settable(tags, n))
    rows, replacements, broken = read_patterns(spy.rows(text), tokens)
    return spy, rows, replacements, broken


def _keeps_or_masks(spy: Spy, tokens: Sequence[str]) -> None:
    _, replacements, broken = read_patterns(spy.texts(), tokens)
    b = len(tokens)
    assert not broken, (f"{len(broken)} text(s) sent to the model do not keep the {b} whitespace tokens of "
                        f"{' '.join(tokens)!r}, e.g. {broken[0]!r}")
    assert replacements, "no text sent to the model perturbs any position"
    assert len(replacements) == 1, (f"perturbed positions hold {len(replacements)} different tokens "
                                    f"({sorted(replacements)[:6]}): mask sampling puts one mask token there and "
                                    "keeps every other token as it is in the document")
    assert not replacements & set(tokens), f"the mask token {replacements} is a word of the document"


def _ps(tags: ExplainerTags) -> tuple[float, ...]:
    """The paper's p, and 0.2 (where a sampler using 1 - p shows) when p is settable."""
    return (P, 0.2) if tags.settable_p else (P,)


@check_needing()
def check_rows_keep_or_mask_each_token(make_explainer) -> None:
    """Mask sampling (section 2.3): every text sent to the model keeps the document's positions, each token
    either as it is or replaced by one mask token that is not a word of the document."""
    spy, *_ = _law_rows(make_explainer, get_tags(make_explainer), P)
    _keeps_or_masks(spy, LAW_TOKENS)


@check_needing()
def check_document_reaches_the_model_unchanged(make_explainer) -> None:
    """The explained prediction is f(xi) on the text as given (section 2.1; the protocol's positions are those of
    ``text.split()``): a document with capitals and a punctuation token reaches the model unnormalised."""
    spy, *_ = _law_rows(make_explainer, get_tags(make_explainer), P, RAW_TOKENS)
    _keeps_or_masks(spy, RAW_TOKENS)


@check_needing()
def check_mask_token_is_unseen(make_explainer) -> None:
    """Mask sampling masks removed tokens "with a predefined token" (line 379), which Prop. 1 assumes "is not in the
    fitted corpus" (line 477): replacing a word by it must remove the word, not add another. On a review every word
    of which the model knows (a word-presence model over the kit's review words and scikit-learn's English stop
    words), the token at perturbed positions is no word of the document and, lowercased, none of the model's."""
    tags = get_tags(make_explainer)
    spy = Spy(vocabulary_classifier(MODEL_VOCABULARY))
    text = " ".join(MASK_REVIEW)
    build_explainer(make_explainer, spy, tags.exact).explain(
        text, label=1, p=P, eps=EPS, max_len=2, n_samples=None if tags.exact else n_samples_if_settable(tags, 64))
    _, replacements, broken = read_patterns(spy.rows(text), MASK_REVIEW)
    assert not broken, (f"{len(broken)} text(s) sent to the model do not keep the {len(MASK_REVIEW)} tokens of "
                        f"{text!r}, e.g. {broken[0]!r} (see check_rows_keep_or_mask_each_token)")
    assert replacements, f"no text sent to the model perturbs any position of {text!r}"
    seen = sorted(replacements & set(MASK_REVIEW))
    assert not seen, (f"the mask token {seen[0]!r} is a word of the document {text!r}: a position masked with it is "
                      "indistinguishable from the word kept (lines 379, 477)")
    known = sorted(r for r in replacements if r.lower() in MODEL_VOCABULARY)
    assert not known, (f"the mask token {known[0]!r} is a word of the model's vocabulary (line 477 assumes the mask "
                       f"is in no fitted corpus; this model knows {len(MODEL_VOCABULARY)} words: the kit's review "
                       "words and scikit-learn's English stop words), so masking a word adds one the model reads")


@check_needing()
def check_perturbation_rate_is_p(make_explainer) -> None:
    """Section 2.3 and Lemma 1's sampling law: each position is perturbed with probability p (p = 1/2, and p = 0.2
    when p is settable, which catches a sampler using 1 - p). Clopper-Pearson, DELTA split over positions and p."""
    tags = get_tags(make_explainer)
    ps = _ps(tags)
    for p in ps:
        _, rows, _, broken = _law_rows(make_explainer, tags, p)
        assert not broken, "rows do not keep the document's positions (see check_rows_keep_or_mask_each_token)"
        n, counts = len(rows), rows.sum(axis=0)
        low, high = clopper_pearson(counts, n, DELTA / (len(LAW_TOKENS) * len(ps)))
        bad = np.flatnonzero((p < low) | (p > high))
        assert not len(bad), (f"at p={p}, {len(bad)} of {len(LAW_TOKENS)} positions are perturbed at a rate outside "
                              f"their Clopper-Pearson interval (delta={DELTA}); position {bad[0]}: {counts[bad[0]]} of "
                              f"{n} rows ({counts[bad[0]] / n:.4f}), interval [{low[bad[0]]:.4f}, {high[bad[0]]:.4f}]")


@check_needing()
def check_positions_perturbed_independently(make_explainer) -> None:
    """Section 2.3: positions are perturbed independently: every pair is perturbed together at rate p^2
    (Clopper-Pearson, DELTA split over the pairs and p). Catches span masking and LIME-style samplers."""
    tags = get_tags(make_explainer)
    ps = _ps(tags)
    i, j = np.triu_indices(len(LAW_TOKENS), 1)
    for p in ps:
        _, rows, _, broken = _law_rows(make_explainer, tags, p)
        assert not broken, "rows do not keep the document's positions (see check_rows_keep_or_mask_each_token)"
        z = rows.astype(np.int64)
        n, both = len(rows), (z.T @ z)[i, j]
        low, high = clopper_pearson(both, n, DELTA / (len(i) * len(ps)))
        bad = np.flatnonzero((p * p < low) | (p * p > high))
        assert not len(bad), (
            f"at p={p}, {len(bad)} of {len(i)} pairs of positions are perturbed together at a rate outside their "
            f"Clopper-Pearson interval around p^2={p * p:.4f} (delta={DELTA}); pair ({i[bad[0]]}, {j[bad[0]]}): "
            f"{both[bad[0]]} of {n} rows ({both[bad[0]] / n:.4f}), interval [{low[bad[0]]:.4f}, {high[bad[0]]:.4f}]")


@check_needing("settable_n_samples")
def check_n_samples_is_honoured(make_explainer) -> None:
    """Algorithm 1's input n_sample: an explanation with ``n_samples=n`` scores exactly n perturbed rows."""
    tags = get_tags(make_explainer)
    for n in (7, 37, 250):
        spy, rows, _, _ = _law_rows(make_explainer, tags, P, n=n)
        distinct = len(set(spy.rows(" ".join(LAW_TOKENS))))
        assert len(rows) == n, (
            f"n_samples={n}: the model scored {len(rows)} rows ({distinct} distinct texts; calls of sizes "
            f"{[len(c) for c in spy.calls]}). An explainer asking each distinct text once shows fewer rows only when "
            "rows repeat, which the paper's law makes negligible on this 60-word document")


@check_needing()
def check_default_n_samples_is_lemma2(make_explainer) -> None:
    """Lemma 2 (general p): without ``n_samples``, n = ceil(log(1 - alpha) / log(1 - p^l)) rows with alpha = 0.95
    and l = min(max_len, b), the smallest n covering a candidate of size l with probability alpha. (Checked with
    max_len <= b on the 60-word document: with b < max_len rows repeat, and an explainer asking the model each
    distinct text once hides them from the spy.)"""
    tags = get_tags(make_explainer)
    cases = [(P, 3), (P, 5)] + ([(0.3, 2)] if tags.settable_p else [])
    text = " ".join(LAW_TOKENS)
    for p, max_len in cases:
        spy = Spy(lenient_classifier(LAW_TOKENS))
        build_explainer(make_explainer, spy, False).explain(text, label=1, p=p, eps=EPS, max_len=max_len)
        want = sample_size_rational(ALPHA, p, max_len)
        got = len(spy.rows(text))
        assert got == want, f"p={p}, max_len={max_len}: {got} rows, Lemma 2 gives {want} (alpha = {ALPHA})"
