"""The kit checks issue 38 added or widened, against independent computations: Eq. (2)'s boundary
(``check_threshold_is_reached_at_equality``), the unseen mask (``check_mask_token_is_unseen``), the paper's defaults
(``check_defaults_are_the_papers``) and a label refused for a regression output (``check_invalid_label_is_refused``).

The pinned cases are verified here in exact rationals (the tests' own referee, :func:`tests._helpers.
drops_by_enumeration`, and closed forms) and in floating point summed in several orders; the checks are shown to
flag what they defend against and to pass valid variants.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from fred import Fred
from proofs_checks.kit import check_explainer, explainer_tags, monte_carlo_mode
from proofs_checks.kit.checks.interface import DEFAULTS_BOXES
from proofs_checks.kit.checks.sampling import MASK_REVIEW, MODEL_VOCABULARY
from proofs_checks.kit.checks.selection import BELOW, EXACT_BOUNDARY, ZERO_BOUNDARY, _boundary_cases
from proofs_checks.kit.planted import ToyFred
from proofs_checks.kit.tolerances import EXACT_RTOL
from tests._helpers import drops_by_enumeration, load_tool

HALF = Fraction(1, 2)


def _status(factory, check: str) -> tuple[str, str]:
    outcome = check_explainer(factory, checks=[check]).outcomes[0]
    return outcome.status, outcome.message


def _exact_case(table, eps):
    """(eps E[f], best drop of each size) in rationals, at p = 1/2."""
    b = len(table).bit_length() - 1
    f = [Fraction(v) for v in table]
    mean, drops = drops_by_enumeration(lambda z: f[sum(bit << i for i, bit in enumerate(z))], b, HALF)
    best = {k: max(d for s, d in drops.items() if len(s) == k) for k in range(1, b + 1)}
    return Fraction(eps) * mean, drops, best


@pytest.mark.parametrize("tokens, table, eps, selection", EXACT_BOUNDARY)
def test_exact_boundary_cases_sit_on_the_threshold(tokens, table, eps, selection):
    """Catches a pinned case that is not on Eq. (2)'s boundary (the check would then test nothing): in rationals the
    selection's drop equals eps E[f], it is its size's unique best, every smaller size falls short; the 'just below'
    table puts it below by more than ten thousand times the kit's exact tolerance, smaller sizes still short."""
    threshold, drops, best = _exact_case(table, eps)
    k = len(selection)
    assert drops[selection] == threshold == best[k]
    assert sum(d == best[k] for s, d in drops.items() if len(s) == k) == 1
    assert all(best[j] < threshold for j in range(1, k))
    below = list(table[:-1]) + [Fraction(table[-1]) + Fraction(BELOW)]
    threshold_below, drops_below, best_below = _exact_case(below, eps)
    margin = threshold_below - best_below[k]
    assert margin > 10_000 * EXACT_RTOL * max(1, max(abs(v) for v in below)) and best_below[k] == drops_below[selection]
    assert all(best_below[j] < threshold_below for j in range(1, k))


@pytest.mark.parametrize("tokens, table, eps, selection", EXACT_BOUNDARY)
def test_exact_boundary_is_exact_in_floating_point(tokens, table, eps, selection):
    """Catches a case whose equality would hold in rationals only: Eq. (1)'s sums over the 2^b patterns, taken in
    forward, reversed and pairwise (numpy) order in float64, give a drop equal to eps E[f] bit for bit."""
    b = len(tokens)
    codes = range(2 ** b)
    weights = [0.5 ** b] * 2 ** b
    covered = [c for c in codes if all(c >> i & 1 for i in selection)]
    for order in (list, lambda xs: list(reversed(xs))):
        mean = sum(order([w * table[c] for c, w in zip(codes, weights)]))
        conditional = sum(order([weights[c] * table[c] for c in covered])) / sum(weights[c] for c in covered)
        assert mean - conditional == eps * mean
    mean = float(np.dot(weights, table))
    assert mean - float(np.mean([table[c] for c in covered])) == eps * mean


def _running_mean(values):
    """Welford's running mean, another valid way to average (it rounds otherwise than sum-then-divide)."""
    mean = 0.0
    for k, v in enumerate(values, 1):
        mean += (v - mean) / k
    return mean


def test_zero_boundary_holds_however_the_means_are_computed():
    """Catches an 'at the threshold' case that rounding could move: with f = 0 every mean, sum-then-divide or
    running, is 0, so each singleton's drop (0) equals eps E[f] (0) on any rows."""
    tokens, table, eps, size = ZERO_BOUNDARY
    assert set(table) == {0.0} and size == 1
    for values in ([0.0] * 64, [0.0] * 7):
        assert _running_mean(values) == sum(values) / len(values) == 0.0 == eps * 0.0


def test_monte_carlo_below_cases_fall_short_on_any_rows():
    """Catches a Monte Carlo 'just below' case that some rows, or some valid way of averaging, could lift to the
    threshold: for every split of 64 rows over the patterns (b = 1: every count of masked rows; b = 2: every
    composition), with the means taken sum-then-divide and as running means, and each drop taken as E[f] minus the
    conditional mean or as the mean of E[f] - f over the candidate's rows, every defined drop stays below eps E[f] by
    more than BELOW / 2 (in rationals, by at least BELOW)."""
    cases = [(box, eps) for box, eps, size in _boundary_cases(exact=False) if size == 0]
    assert [box.b for box, _ in cases] == [1, 2]
    for box, eps in cases:
        for counts in itertools.product(range(65), repeat=2 ** box.b - 1):
            if sum(counts) > 64:
                continue
            n = (64 - sum(counts), *counts)
            rows = [box.table[c] for c in range(2 ** box.b) for _ in range(n[c])]
            codes = [c for c in range(2 ** box.b) for _ in range(n[c])]
            for mean in (sum(rows) / 64, _running_mean(rows)):
                for candidate in range(1, 2 ** box.b):
                    covered = [v for v, c in zip(rows, codes) if c & candidate == candidate]
                    if not covered:
                        continue
                    for drop in (mean - sum(covered) / len(covered), _running_mean([mean - v for v in covered])):
                        assert drop < eps * mean - BELOW / 2
                exact_rows = [Fraction(v) for v in rows]
                exact_mean = sum(exact_rows) / 64
                full = [Fraction(v) for v, c in zip(rows, codes) if c == 2 ** box.b - 1]
                if full:
                    assert exact_mean - sum(full) / len(full) <= eps * exact_mean - Fraction(BELOW)


def test_boundary_check_flags_strict_comparison_in_both_modes():
    """Catches the check missing ``>`` for ``>=`` in either mode (issue 38's second named modification), and a false
    alarm on the same plain explainer with ``>=``."""
    strict = explainer_tags(exact=True)(lambda fn, exact=False: ToyFred(fn, exact, strict=True))
    plain = explainer_tags(exact=True)(lambda fn, exact=False: ToyFred(fn, exact))
    for factory in (strict, monte_carlo_mode(strict)):
        status, message = _status(factory, "check_threshold_is_reached_at_equality")
        assert status == "failed" and "drop equal to eps E[f]" in message and "line 258" in message
    for factory in (plain, monte_carlo_mode(plain)):
        assert _status(factory, "check_threshold_is_reached_at_equality")[0] == "passed"


def _fred_with_mask(mask: str):
    return explainer_tags(exact=True)(
        lambda fn, exact=False: Fred(fn, sampler="exact" if exact else "mask", random_state=0, mask_token=mask))


def test_mask_check_flags_a_word_of_the_vocabulary_or_of_the_document():
    """Catches the check missing a mask the model reads (issue 38's first named modification): a vocabulary word
    absent from the review ('Movie', read lowercased) and a word of the review ('food'); each message names it."""
    cases = {"Movie": _fred_with_mask("Movie"),
             "food": explainer_tags(exact=True)(lambda fn, exact=False: ToyFred(fn, exact, mask="food"))}
    assert "movie" in MODEL_VOCABULARY and "food" in MASK_REVIEW
    for mask, factory in cases.items():
        for mode in (factory, monte_carlo_mode(factory)):
            status, message = _status(mode, "check_mask_token_is_unseen")
            assert status == "failed" and f"mask token {mask!r}" in message, message


def test_mask_check_passes_unusual_but_unseen_masks():
    """Catches a false alarm: '[MASK]', '<unk>' and 'UNK' are words of neither the review nor the vocabulary."""
    for mask in ("[MASK]", "<unk>", "UNK"):
        factory = _fred_with_mask(mask)
        for mode in (factory, monte_carlo_mode(factory)):
            assert _status(mode, "check_mask_token_is_unseen") == ("passed", "")


def test_default_boxes_tell_max_len_and_eps_apart():
    """Catches DEFAULTS_BOXES that would not detect a default max_len of 9 or 11 or a default eps off 0.15: on the
    linear model f = c + w (kept tokens), the drop of any k perturbed tokens is k w (1 - p) (each kept token adds w,
    kept with probability 1 - p independently of the others); at p = 1/2, eps = 0.15 the first size reaching eps E[f]
    is 10, 11, 10, 11, and size 10's drop is within 0.0002 E[f] above and below 0.15 E[f] on the last two."""
    firsts, ratios = [], []
    for box in DEFAULTS_BOXES:
        w, c, b = Fraction(box.weights[0]), Fraction(box.intercept), box.b
        assert set(box.weights) == {box.weights[0]}
        mean = c + b * w * HALF
        firsts.append(next(k for k in range(1, b + 1) if k * w * HALF >= Fraction(3, 20) * mean))
        ratios.append(10 * w * HALF / mean)
    assert firsts == [10, 11, 10, 11]
    assert Fraction(3, 20) < ratios[2] < Fraction(3, 20) + Fraction(2, 10_000)
    assert Fraction(3, 20) - Fraction(2, 10_000) < ratios[3] < Fraction(3, 20)


@pytest.mark.parametrize("max_len, eps, modes", [(9, 0.15, 2), (11, 0.15, 2), (10, 0.1498, 1), (10, 0.1502, 1)])
def test_defaults_check_flags_other_defaults(max_len, eps, modes):
    """Catches the defaults check missing an explainer whose default l_max or eps is not the paper's (line 402): l_max
    9 or 11 in both modes, eps 0.0002 off in exact mode."""

    class OtherDefault(Fred):
        def explain(self, text, label=None, p=0.5, eps=eps, max_len=max_len, n_samples=None):
            return super().explain(text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)

    factory = explainer_tags(exact=True)(
        lambda fn, exact=False: OtherDefault(fn, sampler="exact" if exact else "mask", random_state=0))
    for mode in (factory, monte_carlo_mode(factory))[:modes]:
        status, message = _status(mode, "check_defaults_are_the_papers")
        assert status == "failed" and "differ in" in message, message


def test_label_check_flags_a_label_accepted_for_a_regression_output():
    """Catches the label check missing an explainer that explains a regression output under label 0 or 1 (a column
    it does not have): the plain FRED of docs/examples without its refusal."""
    kit_mutation = load_tool("kit_mutation")
    source = kit_mutation.SUBJECT.read_text()
    refusal = 'raise ValueError("label must be None when the model returns one number per text (regression)")'
    assert refusal in source
    factory = kit_mutation.subject_factory(source.replace(refusal, "pass"))
    for mode in (factory, monte_carlo_mode(factory)):
        status, message = _status(mode, "check_invalid_label_is_refused")
        assert status == "failed" and "accepted 0, 1" in message, message
