"""The mask sampler's texts: rendering by blocks, and grouping rows into distinct texts from their patterns.

References are built here independently: every text joined token by token with ``str.join``, and distinct
texts found by a dict scan over those texts in row order (the order in which ``classifier_fn`` must be asked).
"""

from __future__ import annotations

import numpy as np
import pytest

from fred import Fred
from fred.sampling import MaskSampler, first_occurrences, masked_text_groups, render_masked

MASK = "UNK"


def joined(tokens, perturbed) -> list[str]:
    """The masked texts, token by token."""
    return [" ".join(MASK if z else t for t, z in zip(tokens, row)) for row in perturbed]


def scan(values) -> tuple[list[int], list[int]]:
    """First row of each distinct value in row order, and each row's index among them, by a dict scan."""
    index: dict = {}
    inverse = [index.setdefault(v, len(index)) for v in values]
    first = [inverse.index(i) for i in range(len(index))]
    return first, inverse


def document(rng: np.random.Generator, b: int) -> list[str]:
    """b tokens drawn from a few words, the mask token and a non-ASCII word among them, so texts repeat."""
    return list(rng.choice(["good", "bad", MASK, "café", "x1"], size=b))


@pytest.mark.parametrize("b, n", [(1, 3), (2, 5), (5, 40), (3, 300), (9, 300), (10, 600), (16, 260), (17, 300),
                                  (40, 270)])
def test_render_masked_equals_the_token_by_token_join(b, n):
    """Catches block rendering that loses or doubles the space between two halves, splits a small document at
    the wrong position, or mislabels padding bits; the shapes cover blocks of one token, one block, two equal
    or unequal halves (concatenated) and three or more blocks (joined)."""
    rng = np.random.default_rng(b * 1000 + n)
    tokens = document(rng, b)
    perturbed = rng.random((n, b)) < 0.5
    assert render_masked(tokens, perturbed, MASK) == joined(tokens, perturbed)


@pytest.mark.parametrize("n, n_codes", [(1, 1), (50, 8), (300, 1024), (300, 2**20), (40, 2**62)])
def test_first_occurrences_matches_a_dict_scan(n, n_codes):
    """Catches groups listed in value order instead of row order, a later row taken as a group's first, or
    rows sent to the wrong group, on the table branch (few codes) and the sort branch (many)."""
    rng = np.random.default_rng(n)
    values = rng.integers(0, n_codes, size=max(1, n // 3), dtype=np.int64)  # spread over [0, n_codes), repeated
    codes = rng.choice(values, size=n)
    first, inverse = first_occurrences(codes, n_codes)
    assert (first.tolist(), inverse.tolist()) == scan(codes.tolist())


@pytest.mark.parametrize("b, n", [(4, 30), (7, 500), (12, 3000), (62, 50)])
def test_masked_text_groups_are_the_distinct_rendered_texts(b, n):
    """Catches grouping by the whole pattern, which keeps apart rows that render equal because the document
    holds the mask token, or a code that merges rows whose texts differ."""
    rng = np.random.default_rng(b)
    tokens = document(rng, b)
    perturbed = rng.random((n, b)) < 0.5
    first, inverse = masked_text_groups(tokens, perturbed, MASK)
    assert (first.tolist(), inverse.tolist()) == scan(joined(tokens, perturbed))


def test_masked_text_groups_declines_more_than_62_shown_positions():
    """Catches an int64 code overflowing (merging different texts) when 63 positions are not the mask token."""
    perturbed = np.zeros((2, 64), dtype=bool)
    assert masked_text_groups(["w"] * 63 + [MASK], perturbed, MASK) is None
    assert masked_text_groups(["w"] * 62 + [MASK] * 2, perturbed, MASK) is not None


def test_a_sampler_with_a_spaced_mask_asks_each_text_once():
    """Catches grouping from patterns when a MaskSampler built directly has a mask with a space: masking {0, 1}
    or {2, 3} of "a b a b" with "a b" renders the same text, which the classifier must be asked once."""
    perturbed = np.array([[1, 1, 0, 0], [0, 0, 1, 1]], dtype=bool)
    assert masked_text_groups(["a", "b", "a", "b"], perturbed, "a b") is None
    calls: list[list[str]] = []

    def classify(texts):
        calls.append(list(texts))
        return np.array([[1.0, float(len(t))] for t in texts])

    Fred(classify, sampler=MaskSampler(mask_token="a b"), random_state=0).explain("a b a b", n_samples=400)
    assert len(calls[1]) == len(set(calls[1])), "a text asked twice"


@pytest.mark.parametrize("sampler, words", [("mask", 10), ("exact", 6)])
def test_classifier_is_asked_the_distinct_texts_in_order_of_first_row(sampler, words):
    """Catches distinct texts handed to classifier_fn in another order than their first rows (sorted codes,
    say): the scores would be the same but the calls, and a classifier's side effects, would not."""
    calls: list[list[str]] = []

    def classify(texts):
        calls.append(list(texts))
        return np.array([[len(t) % 3, 1.0] for t in texts], dtype=float)

    text = " ".join(document(np.random.default_rng(words), words))
    exp = Fred(classify, sampler=sampler, random_state=5).explain(text, max_len=2)
    rendered = joined(text.split(), exp.sample_perturbed)
    assert calls == [[text], list(dict.fromkeys(rendered))]
    assert list(exp.sample_texts) == rendered


@pytest.mark.parametrize("text", ["good bad good café x1", "UNK good UNK bad"], ids=["no-mask", "masks"])
def test_the_exact_design_asks_each_distinct_text_once_in_row_order(text):
    """The exact design without the mask token among the tokens has one text per row (every pattern once), asked in
    row order without grouping; with it, rows rendering equal are asked once. Catches the ungrouped path taken when
    a token is the mask token (a text asked twice) and rows asked out of order."""
    calls: list[list[str]] = []

    def classify(texts):
        calls.append(list(texts))
        return np.array([[len(t) % 3, 1.0] for t in texts], dtype=float)

    exp = Fred(classify, sampler="exact").explain(text, max_len=2)
    rendered = joined(text.split(), exp.sample_perturbed)
    assert calls == [[text], list(dict.fromkeys(rendered))] and list(exp.sample_texts) == rendered
    assert (len(set(rendered)) == len(rendered)) == (MASK not in text.split())


class _FloatDesign(MaskSampler):
    """The mask sampler's draws handed over as 0/1 floats (the render casts them)."""

    def draw(self, n_tokens, p, n_samples, rng):
        drawn = super().draw(n_tokens, p, n_samples, rng)
        return type(drawn)(drawn.perturbed.astype(float), drawn.weights)


def test_designs_and_samplers_outside_the_plain_mask_take_the_text_path():
    """Catches the pattern grouping applied where it does not hold: a design of 0/1 floats (it crashed indexing
    with float codes), a render replaced on the instance (it was ignored), a mask that is no str (an
    AttributeError instead of the text path). Each must explain as the text path does: the same selection and
    drops as the boolean design, the instance's render called, and masked_text_groups declining."""
    def classify(texts):
        return np.array([[1.0, 0.1 * t.count("good") + 0.05 * len(t.split())] for t in texts])

    text = "good food but good slow service"
    plain = Fred(classify, random_state=4).explain(text, n_samples=500)
    floats = Fred(classify, sampler=_FloatDesign(), random_state=4).explain(text, n_samples=500)
    assert (floats.best_ids, floats.found, floats.drop) == (plain.best_ids, plain.found, plain.drop)
    assert np.array_equal(floats.importances, plain.importances, equal_nan=True)
    assert list(floats.sample_texts) == list(plain.sample_texts)

    sampler, rendered = MaskSampler(), []

    def render(tokens, perturbed, rng):
        rendered.append(len(perturbed))
        return render_masked(tokens, perturbed, "UNK")

    sampler.render = render
    Fred(classify, sampler=sampler, random_state=4).explain(text, n_samples=50)
    assert rendered == [50]
    assert masked_text_groups(["a"], np.zeros((1, 1), bool), None) is None
