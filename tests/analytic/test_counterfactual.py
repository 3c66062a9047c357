"""Counterfactuals on a linear score (analytic/counterfactual.py): the closed forms against brute force over every
position subset, and the probabilities against every design of n mask-sampler rows, in exact rational arithmetic.

The brute force here scores each subset directly, s = lambda_0 + sum of a_i over the kept positions, class 1 iff
s > 0; it shares no code with the module (no greedy order, no branch and bound, no signed weights).
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from analytic.counterfactual import (
    counterfactual_sample_size,
    first_counterfactual_size_distribution,
    flip_sets,
    greedy_flip_positions,
    minimal_flip_probability,
    minimal_flip_probability_sym,
    minimal_flip_row_probability,
    minimal_flip_sets,
    minimal_flip_size,
    predicted_class,
)

GRID_A = (-2, -1, 0, 1, 2)
GRID_INTERCEPT = (Fraction(-2), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(2))


def brute_flips(a, intercept) -> dict[int, list[tuple[int, ...]]]:
    """Every flipping subset, by size, by scoring each subset's kept positions."""
    b = len(a)
    original = 1 if intercept + sum(a) > 0 else 0
    out: dict[int, list[tuple[int, ...]]] = {}
    for size in range(1, b + 1):
        for s in itertools.combinations(range(b), size):
            kept = intercept + sum(a[i] for i in range(b) if i not in s)
            if (1 if kept > 0 else 0) != original:
                out.setdefault(size, []).append(s)
    return out


def brute_first_size(design, flipping: set[tuple[int, ...]]):
    """FRED's first counterfactual by its definition: fewest perturbed positions, earliest row on ties."""
    best = None
    for row in design:
        if row in flipping and (best is None or len(row) < len(best)):
            best = row
    return best


def enumerate_designs(a, intercept, n, p):
    """Exact distribution of (size of the first counterfactual, the set itself) over all (2^b)^n designs."""
    b = len(a)
    flipping = {s for v in brute_flips(a, intercept).values() for s in v}
    patterns = [s for size in range(b + 1) for s in itertools.combinations(range(b), size)]
    sizes, sets = {}, {}
    for design in itertools.product(patterns, repeat=n):
        w = Fraction(1)
        for row in design:
            w *= p ** len(row) * (1 - p) ** (b - len(row))
        first = brute_first_size(design, flipping)
        key = None if first is None else len(first)
        sizes[key] = sizes.get(key, 0) + w
        sets[first] = sets.get(first, 0) + w
    return sizes, sets


def _grid(max_b):
    for b in range(1, max_b + 1):
        for a in itertools.product(GRID_A, repeat=b):
            for c in GRID_INTERCEPT:
                yield [Fraction(x) for x in a], c


def test_closed_forms_equal_brute_force_on_every_grid_case():
    """Every a in {-2..2}^b, b <= 4, five intercepts (integers: scores exactly 0 occur, class 0). Catches a greedy
    that is not optimal (e.g. sorting by |a_i| or by a_i for the negative class), a wrong tie convention (s >= 0 as
    class 1), or a branch and bound that prunes a flipping set."""
    cases = 0
    for a, c in _grid(4):
        cases += 1
        flips = brute_flips(a, c)
        size = min(flips) if flips else None
        assert minimal_flip_size(a, c) == size, (a, c)
        for k in range(1, len(a) + 1):
            assert sorted(flip_sets(a, c, k)) == flips.get(k, []), (a, c, k)
        assert minimal_flip_sets(a, c) == tuple(flips.get(size, [])), (a, c)
        greedy = greedy_flip_positions(a, c)
        if size is None:
            assert greedy is None
            continue
        assert greedy in flips[size]
        # The greedy set removes the most weight towards the other class among all sets of its size.
        toward = 1 if c + sum(a) > 0 else -1
        best = max(sum(toward * a[i] for i in s) for s in itertools.combinations(range(len(a)), size))
        assert sum(toward * a[i] for i in greedy) == best
    assert cases == 5 * (5 + 25 + 125 + 625)


@given(st.lists(st.fractions(min_value=-3, max_value=3, max_denominator=6), min_size=1, max_size=7),
       st.fractions(min_value=-3, max_value=3, max_denominator=6))
def test_closed_forms_equal_brute_force_on_random_rationals(a, intercept):
    """Catches the same bugs on longer documents (b <= 7) and non-integer weights."""
    flips = brute_flips(a, intercept)
    size = min(flips) if flips else None
    assert minimal_flip_size(a, intercept) == size
    assert minimal_flip_sets(a, intercept) == tuple(flips.get(size, []))
    for k in range(1, len(a) + 1):
        assert sorted(flip_sets(a, intercept, k)) == flips.get(k, [])


@given(st.lists(st.floats(-3, 3), min_size=1, max_size=6), st.floats(-3, 3))
def test_floats_agree_with_their_exact_values_away_from_the_boundary(a, intercept):
    """Float weights give the sets their exact binary values give, when no subset score is within 1e-9 of 0.
    Catches a float path that differs from the exact one (e.g. a prune on a rounded partial sum)."""
    exact = [Fraction(x) for x in a]
    scores = [Fraction(intercept) + sum(exact[i] for i in range(len(a)) if not code >> i & 1)
              for code in range(2 ** len(a))]
    if min(abs(s) for s in scores) < Fraction(1, 10**9):
        return
    assert minimal_flip_sets(a, intercept) == minimal_flip_sets(exact, Fraction(intercept))
    assert greedy_flip_positions(a, intercept) == greedy_flip_positions(exact, Fraction(intercept))


def test_greedy_ties_go_to_the_lower_position():
    """a = (1, 2, 2), lambda_0 = -7/2: s = 3/2, removing either 2 flips (the 1 does not); the greedy set is the
    lower one, (1,).
    For the negative class the most negative weight goes first: a = (-1, -3, 2), lambda_0 = 1 (s = -1) gives (1,).
    Catches a greedy order that breaks ties upwards or ignores the class."""
    assert greedy_flip_positions([1, 2, 2], Fraction(-7, 2)) == (1,)
    assert minimal_flip_sets([1, 2, 2], Fraction(-7, 2)) == ((1,), (2,))
    assert greedy_flip_positions([-1, -3, 2], 1) == (1,)


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 3)])
def test_probabilities_equal_enumeration_of_every_design(p):
    """b <= 2 with n <= 3 and b = 3 with n <= 2, every grid case, p = 1/2 and 1/3 (asymmetric: catches p and 1 - p
    swapped). The size distribution of the first counterfactual (None: no counterfactual), P(minimal) =
    1 - (1 - q)^n and P(the first one is a given minimal set) = P(minimal) / M against the sum over all designs.
    Catches a q without the factor M, a wrong exponent, or a distribution that counts rows of larger sets as
    minimal."""
    for b, n_max in ((1, 3), (2, 3), (3, 2)):
        for a, c in _grid(b):
            if len(a) != b:
                continue
            for n in range(1, n_max + 1):
                sizes, sets = enumerate_designs(a, c, n, p)
                closed = first_counterfactual_size_distribution(a, c, n, p)
                assert {k: v for k, v in closed.items() if v} == {k: v for k, v in sizes.items() if v}, (a, c, n)
                size = minimal_flip_size(a, c)
                assert minimal_flip_probability(a, c, n, p) == (sizes.get(size, 0) if size else 0)
                for s in minimal_flip_sets(a, c):
                    assert sets[s] * len(minimal_flip_sets(a, c)) == minimal_flip_probability(a, c, n, p)


def test_symbolic_probability_equals_the_enumerated_polynomial():
    """a = (1, 1), lambda_0 = -3/2 (either word flips), n = 2, p symbolic: summing the 16 designs by hand-written
    enumeration gives a polynomial in p equal to 1 - (1 - 2 p (1 - p))^2. Catches a sympy twin with a wrong
    exponent that the p = 1/2 checks cannot see."""
    p = sp.Symbol("p")
    flipping = {(0,), (1,), (0, 1)}
    patterns = [(), (0,), (1,), (0, 1)]
    total = 0
    for design in itertools.product(patterns, repeat=2):
        first = brute_first_size(design, flipping)
        if first is not None and len(first) == 1:
            total += sp.Mul(*[p ** len(r) * (1 - p) ** (2 - len(r)) for r in design])
    assert sp.expand(total - minimal_flip_probability_sym(2, 1, 2, 2, p)) == 0


@pytest.mark.parametrize("a, intercept", [([1, 1], Fraction(-3, 2)), ([2, -1, 0], Fraction(-1, 2)),
                                          ([1, 1, 1, 1], Fraction(-5, 2)), ([Fraction(1, 3)] * 5, Fraction(-1))])
@pytest.mark.parametrize("alpha", [0.5, 0.95, 0.99])
def test_sample_size_is_the_smallest_n_reaching_alpha(a, intercept, alpha):
    """(1 - q)^n <= 1 - alpha < (1 - q)^(n - 1), q from the brute-force minimal sets, p = 1/2 and 1/4, alpha read as
    its decimal. Catches an off-by-one n or a q that ignores M."""
    for p in (0.5, 0.25):
        flips = brute_flips(a, intercept)
        k = min(flips)
        q = len(flips[k]) * Fraction(str(p)) ** k * (1 - Fraction(str(p))) ** (len(a) - k)
        n = counterfactual_sample_size(a, intercept, alpha, p)
        assert (1 - q) ** n <= 1 - Fraction(str(alpha)) < (1 - q) ** (n - 1)
        assert minimal_flip_row_probability(a, intercept, Fraction(str(p))) == q


def test_no_flip_means_no_counterfactual():
    """a = (1, 1), lambda_0 = 1: every subset keeps s >= 1. Catches a closed form that reports a flip anyway."""
    assert minimal_flip_size([1, 1], 1) is None and minimal_flip_sets([1, 1], 1) == ()
    assert minimal_flip_probability([1, 1], 1, 5, Fraction(1, 2)) == 0
    assert counterfactual_sample_size([1, 1], 1, 0.95, 0.5) is None
    assert first_counterfactual_size_distribution([1, 1], 1, 3, Fraction(1, 2)) == {None: 1}


def test_long_document_probability_is_lemma2_like():
    """One decisive word among 19 neutral ones, p = 1/2: q = 2^-20 and P = 1 - (1 - 2^-20)^n, here with n = 3067
    (FRED's default for max_len = 10) computed with log1p. Catches a q computed with b = max_len."""
    a = [1.0] + [0.0] * 19
    value = float(minimal_flip_probability(a, -0.5, 3067, Fraction(1, 2)))
    assert math.isclose(value, -math.expm1(3067 * math.log1p(-(2.0**-20))), rel_tol=1e-12)
    assert predicted_class(0) == 0 and predicted_class(Fraction(1, 10**30)) == 1


@pytest.mark.parametrize("call, error, words", [
    (lambda: minimal_flip_size([], 0), ValueError, "a must hold at least one"),
    (lambda: minimal_flip_size("ab", 0), TypeError, "a must be a sequence"),
    (lambda: minimal_flip_size([1, "x"], 0), TypeError, "a must be a finite real"),
    (lambda: minimal_flip_size([1, float("nan")], 0), ValueError, "a must be a finite real"),
    (lambda: minimal_flip_size([1], True), TypeError, "intercept must be a finite real"),
    (lambda: list(flip_sets([1, 2], 0, 3)), ValueError, "size must be an integer in [1, 2]"),
    (lambda: list(flip_sets([1, 2], 0, 1.0)), TypeError, "size must be an integer"),
    (lambda: minimal_flip_probability([1], -0.5, 0, 0.5), ValueError, "n must be an integer >= 1"),
    (lambda: minimal_flip_probability([1], -0.5, 2.0, 0.5), TypeError, "n must be an integer"),
    (lambda: minimal_flip_probability([1], -0.5, 2, 1), ValueError, "p must lie in (0, 1)"),
    (lambda: minimal_flip_row_probability([1], -0.5, "0.5"), TypeError, "p must be a real number"),
    (lambda: counterfactual_sample_size([1], -0.5, 1.0, 0.5), ValueError, "alpha must lie in (0, 1)"),
    (lambda: first_counterfactual_size_distribution([0.0] * 23, -0.5, 1, 0.5), ValueError, "at most 22"),
])
def test_bad_arguments_name_the_parameter_and_range(call, error, words):
    """Catches a silent wrong answer (or an unrelated exception) on bad input."""
    with pytest.raises(error, match=re.escape(words)):
        call()

