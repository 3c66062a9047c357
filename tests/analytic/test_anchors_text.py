"""Anchors exactly (analytic/anchors_text.py): precision and coverage against a direct count over the patterns,
the anchors meeting the threshold and their minimality against a subset-by-subset search, and anchor-exp's own
UNK sampler against the exact precision (statistical).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytic import table_classifier
from analytic.anchors_text import (
    ANCHOR_THRESHOLD,
    agreement_counts,
    anchor_coverage,
    anchor_precision,
    anchors_meeting,
)
from fred_constants import DELTA
from proofs_checks.statistics.seeds import statistical_seed


@st.composite
def label_tables(draw, max_tokens: int = 5):
    b = draw(st.integers(1, max_tokens))
    return np.array(draw(st.lists(st.integers(0, 2), min_size=2**b, max_size=2**b)))


def patterns_keeping(b: int, anchor):
    """Every keep/remove pattern (tuple of b booleans, True = kept) with the anchor kept, by itertools."""
    return [z for z in itertools.product([True, False], repeat=b) if all(z[i] for i in anchor)]


def label_of(labels, z) -> int:
    return int(labels[sum(1 << i for i, kept in enumerate(z) if not kept)])


@given(label_tables())
def test_precision_and_coverage_equal_a_direct_count(labels):
    """Catches a subset sum taken over the wrong codes (anchor bits read as removed, the reversal c -> ~c
    forgotten) or a wrong coverage 2^-|A|: against counting the patterns that keep the anchor, for every anchor."""
    b = len(labels).bit_length() - 1
    counts = agreement_counts(labels)
    for size in range(b + 1):
        for anchor in itertools.combinations(range(b), size):
            kept = patterns_keeping(b, anchor)
            agree = sum(label_of(labels, z) == labels[0] for z in kept)
            assert anchor_precision(labels, anchor) == Fraction(agree, len(kept))
            assert counts[sum(1 << i for i in anchor)] == agree
            assert anchor_coverage(b, anchor) == Fraction(len(kept), 2**b)


@given(label_tables(), st.sampled_from([ANCHOR_THRESHOLD, Fraction(1, 2), Fraction(1), 0.75]))
def test_anchors_meeting_equal_a_subset_search(labels, threshold):
    """Catches a missed or extra anchor, a wrong order (smallest first, then precision) or a wrong minimality
    flag (a meeting proper subset that is not one position smaller): against anchor_precision on every subset
    and itertools over every proper subset."""
    b = len(labels).bit_length() - 1
    limit = Fraction(str(threshold)) if isinstance(threshold, float) else threshold
    meeting = {a for r in range(b + 1) for a in itertools.combinations(range(b), r)
               if anchor_precision(labels, a) >= limit}
    found = anchors_meeting(labels, threshold)
    assert {a.positions for a in found} == meeting
    assert [len(a.positions) for a in found] == sorted(len(a.positions) for a in found)
    for a in found:
        proper = [s for r in range(len(a.positions)) for s in itertools.combinations(a.positions, r)]
        assert a.minimal == (not any(s in meeting for s in proper))


def test_minimal_anchor_of_a_two_word_rule():
    """Catches a wrong precision on a hand-computed case: label 1 iff positions 0 and 1 are both kept (b = 3).
    The empty anchor agrees on 2 of 8 patterns, {0} on 2 of 4, {0, 1} on 4 of 4: the only minimal anchor."""
    labels = np.array([1 if code & 0b011 == 0 else 0 for code in range(8)])
    assert anchor_precision(labels, []) == Fraction(1, 4)
    assert anchor_precision(labels, [0]) == Fraction(1, 2)
    found = anchors_meeting(labels)
    assert [(a.positions, a.minimal) for a in found] == [((0, 1), True), ((0, 1, 2), False)]
    assert found[0].coverage == Fraction(1, 4)


def test_invalid_arguments_name_the_parameter():
    """Catches silent acceptance of bad input."""
    with pytest.raises(TypeError, match="labels"):
        anchors_meeting(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="labels"):
        anchors_meeting(np.array([0, 1, 1]))
    with pytest.raises(ValueError, match="threshold"):
        anchors_meeting(np.array([0, 1]), threshold=1.5)
    with pytest.raises(ValueError, match="anchor"):
        anchor_precision(np.array([0, 1]), [3])
    with pytest.raises(ValueError, match="anchor"):
        anchor_coverage(2, [0, 2])


@dataclass(frozen=True)
class Token:
    """What anchor-exp reads of a spaCy token: its text and character offset."""

    text: str
    idx: int


def whitespace_tokens(text: str) -> list[Token]:
    return [Token(m.group(), m.start()) for m in re.finditer(r"\S+", text)]


@pytest.mark.statistical
def test_package_sampler_matches_exact_precision():
    """Catches a misread anchor-exp perturbation (a replacement probability other than 1/2, dependence between
    words, anchor words perturbed): for 4 anchors of a 3-token rule, the share of anchor-exp's n = 5 000 samples
    (its own sample_fn with use_unk_distribution=True) whose label agrees is within the two-sided Hoeffding
    bound sqrt(log(2 * 4 / delta) / (2 n)) = 0.040 of the exact precision, delta = 1e-6 in all
    (seed statistical_seed(41) for numpy's global generator, the only one anchor-exp reads; restored after).
    The tokenizer is a whitespace stand-in for the evaluation's spacy.blank("en") (the same tokens on these
    words; the perturbation law does not depend on it), which keeps spaCy's import out of the test's time."""
    anchor_text = pytest.importorskip("anchor.anchor_text")
    tokens = ["good", "food", "here"]
    labels = np.array([1 if code & 0b011 == 0 or code == 0b110 else 0 for code in range(8)])
    classify = table_classifier(tokens, labels)
    explainer = anchor_text.AnchorText(whitespace_tokens, ["0", "1"], use_unk_distribution=True)
    # a replacement probability of 0.4 instead of 1/2 moves the empty anchor's precision from 3/8 to 0.456
    n, anchors = 5_000, [(), (0,), (2,), (0, 1)]
    tolerance = math.sqrt(math.log(2 * len(anchors) / DELTA) / (2 * n))
    saved = np.random.get_state()
    np.random.seed(statistical_seed(41))
    try:
        _, _, _, sample_fn = explainer.get_sample_fn(" ".join(tokens), lambda texts: classify(list(texts)).astype(int))
        shares = {a: sample_fn(list(a), n)[2].mean() for a in anchors}
    finally:
        np.random.set_state(saved)
    for a in anchors:
        assert abs(shares[a] - float(anchor_precision(labels, a))) <= tolerance, a
