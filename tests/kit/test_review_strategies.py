"""Realistic documents in the kit's strategies (issue 28, item 4): review snippets, the lexicon sentiment boxes on
them, class scores in [0, 1], and the same seed giving the same examples."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.kit.black_boxes import (
    NEGATED_BAD,
    NEGATED_GOOD,
    in_unit_interval,
    linear_box,
    review_box,
)
from proofs_checks.kit.checks.harness import for_all
from proofs_checks.strategies import (
    NEGATIONS,
    NEGATIVE_WORDS,
    POSITIVE_WORDS,
    STOP_WORDS,
    SUBJECT_WORDS,
    black_boxes,
    review_documents,
    review_models,
)

VOCABULARY = set(NEGATIONS + NEGATIVE_WORDS + POSITIVE_WORDS + STOP_WORDS + SUBJECT_WORDS)


def _lexicon_on_text(text: str, sentiment: dict, stop_weights: dict, intercept: float) -> float:
    """The review model computed on a text by reading its words left to right (a masked word is any word that is
    not in the lexicon): the independent computation the box's table is compared with."""
    z, previous = intercept, None
    for word in text.split():
        z += sentiment.get(word, 0.0) * (-1 if previous in NEGATIONS else 1) + stop_weights.get(word, 0.0)
        previous = word
    return 1 / (1 + math.exp(-z))


@settings(max_examples=15)
@given(review_documents(1, 6), st.integers(-8, 8), st.data())
def test_review_box_table_is_the_lexicon_model_on_masked_texts(tokens, intercept4, data):
    """Catches a review box reading the wrong bit of a pattern, flipping a word after a masked negation, or
    forgetting a stop word's weight: every entry of its table equals the model scored on the masked text."""
    sentiment = {w: 2.0 for w in POSITIVE_WORDS} | {w: -1.5 for w in NEGATIVE_WORDS}
    stops = {w: data.draw(st.sampled_from([-1.0, 0.0, 0.75])) for w in STOP_WORDS}
    box = review_box(tokens, sentiment, NEGATIONS, stops, intercept4 / 4)
    for code in range(2 ** len(tokens)):
        text = " ".join("UNK" if code >> i & 1 else t for i, t in enumerate(tokens))
        assert abs(box.table[code] - _lexicon_on_text(text, sentiment, stops, intercept4 / 4)) <= 1e-12, text


@settings(max_examples=20)
@given(review_documents(2, 5))
def test_review_documents_are_snippets_of_the_vocabulary(tokens):
    """Catches a snippet of the wrong length, a word outside the embedded vocabulary, or a snippet with no
    sentiment word (every clause ends with one, so the prediction has something to explain)."""
    assert 2 <= len(tokens) <= 5 and set(tokens) <= VOCABULARY
    assert set(tokens) & set(POSITIVE_WORDS + NEGATIVE_WORDS)


@settings(max_examples=30)
@given(black_boxes(max_tokens=4))
def test_every_generated_box_gives_class_scores_in_the_unit_interval(box):
    """Catches a generated model whose class scores leave [0, 1] (a failure message once showed negative
    "probabilities" for a class label)."""
    assert box.table.min() >= 0.0 and box.table.max() <= 1.0


def test_unit_interval_map_keeps_a_linear_box_linear_and_dyadic():
    """Catches the map into [1/4, 3/4] breaking the box's parameters (the Prop. 1 check reads them) or exact ties:
    the mapped table is the linear table of the mapped weights and intercept, and equal entries stay equal."""
    box = linear_box(("a", "b", "c"), (1.5, -2.0, 1.5), 0.5)
    mapped = in_unit_interval(box)
    assert mapped.table.min() >= 0.25 and mapped.table.max() <= 0.75
    assert np.array_equal(mapped.table, linear_box(box.tokens, mapped.weights, mapped.intercept).table)
    assert mapped.table[0b001] == mapped.table[0b100]


def test_negation_boxes_make_the_negation_decisive():
    """Catches the fixed boxes of check_negation_decides_the_selection losing their point: masking "not" alone
    moves the explained class score by more than masking any other token (computed from the table)."""
    for box, label, position in ((NEGATED_GOOD, 0, 3), (NEGATED_BAD, 1, 2)):
        column = box.column(label)
        moved = [column[0] - column[1 << i] for i in range(box.b)]
        assert int(np.argmax(moved)) == position and box.tokens[position] == "not"


def test_the_same_seed_gives_the_same_examples():
    """Catches a strategy drawing from a source other than hypothesis (global random state, a set's order): two
    draws of 20 review models under one seed are equal."""
    draws: list[list[str]] = [[], []]
    for drawn in draws:
        for_all(review_models(2, 5), lambda box, delta, out=drawn: out.append(repr(box) + str(box.table.tolist())),
                shrink=False, seed=5, examples=20)
    assert draws[0] == draws[1] and len(set(draws[0])) > 1
