"""The exact sampler as FRED uses it: its design (every pattern once, each with its probability, the caller's own
arrays), no generator read, each row's text asked in order, and the samplers around it (subclasses, a draw replaced
on an instance, a sampler with only the protocol's attributes, column-major scores) explained as before.

Each test compares with a computation written here (itertools, Fractions) or with the same explanation reached
another way (the grouped path, row-major scores, the built-in exact sampler).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from analytic.referee import table_classifier
from fred import Fred
from fred.sampling import ExactSampler, Perturbations


@pytest.mark.parametrize("b, p", [(1, 0.5), (3, 0.3), (12, 0.9), (13, 0.25)])
def test_exact_designs_are_every_pattern_and_belong_to_their_caller(b, p):
    """The exact sampler's rows are every pattern in code order with weight p**k (1-p)**(b-k) (compared with
    itertools.product and the closed form), for b cached (<= 12) and not (13). Catches a cached design handed out
    by reference: a caller editing its rows or weights (an explanation exposes them) would change every later
    draw; and a cache keyed on b alone (p = 0.3 after 0.5 would get the wrong weights)."""
    for p in (p, p, 1 - p / 2):  # the same design twice, then another p of the same b
        design = ExactSampler().draw(b, p, None, None)
        rows = [tuple(bool(code >> j & 1) for j in range(b)) for code in range(2**b)]
        assert [tuple(r) for r in design.perturbed.tolist()] == rows
        for r, got in zip(rows, design.weights.tolist()):
            k = sum(r)
            want = Fraction(p) ** k * (1 - Fraction(p)) ** (b - k)  # exact, from the float p
            # exp(k log p + (b-k) log(1-p)): each log within an ulp, so the exponent within (|x| + 2) ulps of x,
            # and exp adds one relative ulp of its result.
            x = abs(k * math.log(p)) + abs((b - k) * math.log1p(-p))
            assert abs(Fraction(got) - want) <= want * Fraction((x + 4) * 2.0**-52), (b, p, r, got, float(want))
        design.perturbed[:] = ~design.perturbed  # the next draw must not see this
        design.weights[:] = -1.0


class _SeededExact(ExactSampler):
    """The exact design with rows shuffled by the generator: an exact sampler whose draw reads it."""

    def draw(self, n_tokens, p, n_samples, rng):
        design = super().draw(n_tokens, p, n_samples, rng)
        order = rng.permutation(len(design.weights))
        return Perturbations(design.perturbed[order], design.weights[order])


def test_the_exact_sampler_reads_no_generator_and_a_subclass_drawing_one_gets_it():
    """The exact explanation is the same for every random_state and leaves a Generator where it was (no generator
    is made for the exact sampler's own draw and rendering); a subclass whose draw reads the generator still gets
    the one random_state gives. Catches the shortcut applied to any exact sampler (a crash on None) and a
    generator made but not passed."""
    clf = table_classifier(["a", "b", "c"], np.linspace(0.9, 0.1, 8), n_classes=2)
    gen = np.random.default_rng(3)
    state = gen.bit_generator.state
    got = [Fred(clf, sampler="exact", random_state=r).explain("a b c", eps=0.4) for r in (None, 0, 7, gen)]
    assert gen.bit_generator.state == state
    assert len({(e.best_ids, e.drop, e.importances.tobytes(), e.sample_texts) for e in got}) == 1
    on_instance = ExactSampler()
    on_instance.draw = _SeededExact().draw  # replaced on the instance, as a user might
    for sampler in (_SeededExact(), on_instance):
        seeded = [Fred(clf, sampler=sampler, random_state=r).explain("a b c", eps=0.4) for r in (5, 5, 6)]
        rows = [e.sample_perturbed.tobytes() for e in seeded]
        assert rows[0] == rows[1] != rows[2]  # the seed decides the row order
        assert all((e.best_ids, e.found) == (got[0].best_ids, got[0].found) for e in seeded)


def test_column_major_scores_give_the_explanation_of_row_major_ones():
    """A classifier returning its two columns column-major (``np.vstack([1 - f, f]).T``, a DataFrame) explains bit
    for bit as the same scores row-major, on the exact design with and without the mask among the tokens (every
    row its own text, or rows grouped). Catches scores kept column-major on one path: BLAS then sums the weighted
    mean E[f] in another order, and the threshold, drops and importances move in their last bits."""
    def scores(texts):
        f = np.array([(sum(map(ord, t)) % 997) / 997 for t in texts])
        return np.vstack([1 - f, f]).T

    assert not scores(["a", "b"]).flags.c_contiguous
    for text in (" ".join(f"w{j}" for j in range(12)), "UNK " + " ".join(f"w{j}" for j in range(11))):
        for p in (0.5, 0.3, 0.8):
            got, want = (Fred(clf, sampler="exact").explain(text, label=1, p=p, max_len=2)
                         for clf in (scores, lambda texts: np.ascontiguousarray(scores(texts))))
            assert (got.mean_prediction, got.threshold, got.drop, got.best_ids, got.importances.tobytes()) == \
                (want.mean_prediction, want.threshold, want.drop, want.best_ids, want.importances.tobytes()), (text, p)


class _BareSampler:
    """What the fred.Sampler protocol asks, nothing more (no mask_token): every pattern once, rendered with "_"."""

    name, exact = "bare", True

    def draw(self, n_tokens, p, n_samples, rng):
        return ExactSampler().draw(n_tokens, p, None, rng)

    def render(self, tokens, perturbed, rng):
        return [" ".join("_" if z else t for t, z in zip(tokens, row)) for row in perturbed]


def test_a_sampler_with_only_the_protocols_attributes_explains():
    """Catches the explainer reading attributes the protocol does not ask for (an AttributeError on mask_token):
    the bare sampler must give the exact sampler's selection (its "_" plays the mask)."""
    clf = table_classifier(["a", "b", "c"], np.linspace(0.9, 0.1, 8), mask_token="_", n_classes=2)
    want = Fred(clf, sampler="exact", mask_token="_").explain("a b c", eps=0.4)
    got = Fred(clf, sampler=_BareSampler()).explain("a b c", eps=0.4)
    assert (got.best_ids, got.found, got.sample_texts) == (want.best_ids, want.found, want.sample_texts)
