"""The linear model of Eq. (6) (Prop. 1, analytic/prop1_linear.py): sympy closed forms == numpy twins == exact
enumeration by the referee.

Tolerances: see tests/analytic/_cases.py (1e-12 relative / 1e-12 absolute).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import (
    all_drops,
    all_drops_rational,
    best_drop_of_size,
    exact_drop,
    exact_explain,
    expected_prediction,
    is_top_set,
    kept_count_sym,
    linear_best_drops,
    linear_drop,
    linear_drop_as_written,
    linear_drop_sym,
    linear_expected_prediction,
    linear_expected_prediction_sym,
    linear_minimal_size,
    linear_optimal_counts,
    linear_optimal_positions,
    linear_table,
    linear_table_rational,
    logistic_table_sym,
    top_positions,
)
from proofs_checks.strategies import coefficients, documents, epsilons, probabilities
from tests._helpers import drops_by_enumeration
from tests.analytic._cases import ATOL, RTOL, P, count_vectors, first_occurrences


@st.composite
def linear_cases(draw):
    tokens = draw(documents(max_tokens=7))
    words = sorted(set(tokens))
    a_word = dict(zip(words, draw(coefficients(len(words)))))
    intercept = draw(st.integers(-8, 8)) / 4
    return tokens, words, a_word, intercept


@given(linear_cases(), probabilities())
def test_linear_sympy_numpy_exact_agree(case, p):
    """Catches a wrong E[f] or drop formula for any p (e.g. the paper's p instead of 1 - p)."""
    tokens, words, a_word, intercept = case
    m = [tokens.count(w) for w in words]
    a = [a_word[w] for w in words]
    a_pos = np.array([a_word[t] for t in tokens])
    table = linear_table(a_pos, intercept)
    mean_sym = float(linear_expected_prediction_sym(a, m, intercept, P).subs(P, p))
    mean_np = linear_expected_prediction(a, m, intercept, p)
    assert_allclose([mean_sym, mean_np], expected_prediction(table, p), rtol=RTOL, atol=ATOL)
    drop_expr = linear_drop_sym(a, [sp.Symbol(f"c{j}") for j in range(len(a))], P)
    for c in count_vectors(m):
        if not any(c):
            continue
        positions = first_occurrences(tokens, dict(zip(words, c)))
        expected = exact_drop(table, positions, p)
        got_sym = float(drop_expr.subs({P: p, **{sp.Symbol(f"c{j}"): cj for j, cj in enumerate(c)}}))
        assert_allclose([got_sym, linear_drop(a, c, p)], expected, rtol=RTOL, atol=ATOL,
                        err_msg=f"tokens={tokens} a={a} c={c} p={p}")


@given(linear_cases(), probabilities())
def test_linear_optimal_candidate_of_each_size(case, p):
    """Catches a wrong greedy order or tie-break (Prop. 1 (ii)) against brute force over position sets."""
    tokens, _, a_word, intercept = case
    a_pos = np.array([a_word[t] for t in tokens])
    table = linear_table(a_pos, intercept)
    best = linear_best_drops(a_pos, np.ones(len(tokens), int), p, len(tokens))
    for size in range(1, len(tokens) + 1):
        top, argmax = best_drop_of_size(table, p, size)
        assert_allclose(best[size - 1], top, rtol=RTOL, atol=ATOL)
        assert linear_optimal_positions(a_pos, size) == min(argmax), f"a={a_pos} size={size} ties={argmax}"


@given(linear_cases(), probabilities(), epsilons(), st.sampled_from(["mean", "original"]))
def test_linear_minimal_size_and_positive_words(case, p, eps, baseline):
    """Catches a wrong minimal size (Eq. 2) and checks Prop. 1 (i): no non-positive word in a minimal candidate."""
    tokens, _, a_word, intercept = case
    a_pos = np.array([a_word[t] for t in tokens])
    table = linear_table(a_pos, intercept)
    exact = exact_explain(table, p, eps, len(tokens), baseline=baseline)
    assume(np.all(np.abs(exact.best_drop_by_size - exact.threshold) > 1e-9))  # no float-boundary cases
    size = linear_minimal_size(a_pos, np.ones(len(tokens), int), intercept, p, eps, len(tokens), baseline=baseline)
    assert size == (len(exact.best_ids) if exact.found else None), f"a={a_pos} p={p} eps={eps} exact={exact}"
    if exact.found and exact.threshold > 0:
        assert np.all(a_pos[list(exact.best_ids)] > 0), f"a={a_pos} chosen={exact.best_ids}"


def test_linear_drop_symbolic_derivation_and_paper_variant():
    """Catches linear_drop written with the proof's p in place of 1 - p (it must equal the exact drop at p = 0.2,
    where the proof's form is off by 1.5) or a wrong E[kept occurrences | c] = (1 - p)(m - c), derived here from
    the binomial law; the proof's p (m - c) agrees only at p = 1/2."""
    for m in range(1, 5):
        for c in range(m + 1):
            k = sp.Symbol("k", integer=True)
            kept = sp.summation(k * sp.binomial(m - c, k) * (1 - P) ** k * P ** (m - c - k), (k, 0, m - c))
            assert sp.simplify(kept - (m - c) * (1 - P)) == 0
    a, c = [1.5, -0.5, 2.0], [1, 2, 1]
    assert linear_drop(a, c, 0.5) == linear_drop_as_written(a, c, 0.5)
    table = linear_table([1.5, -0.5, -0.5, 2.0], 0.0)
    assert_allclose(exact_drop(table, [0, 1, 2, 3], 0.2), linear_drop(a, c, 0.2), rtol=RTOL)
    assert abs(linear_drop_as_written(a, c, 0.2) - exact_drop(table, [0, 1, 2, 3], 0.2)) > 1.0

def test_kept_count_sym_enumeration_equals_one_minus_p_times_the_others():
    """Catches kept_count_sym weighting a kept occurrence by p instead of 1 - p (the proof's E[M_j] = p m_j),
    counting perturbed instead of kept occurrences, or enumerating the wrong number of other occurrences
    (m or m - count - 1 instead of m - count): its pattern-by-pattern sum must expand to the closed form
    (1 - p)(m - count), written here by hand, for m = 1..5 and every count 0..m, with its default symbol,
    with a given symbol, and at p = 1/3 exactly."""
    default = sp.Symbol("p")  # the symbol kept_count_sym builds when p is not given
    third = sp.Rational(1, 3)
    for m in range(1, 6):
        for count in range(m + 1):
            assert sp.expand(kept_count_sym(m, count) - (1 - default) * (m - count)) == 0, (m, count)
            assert sp.expand(kept_count_sym(m, count, P) - (1 - P) * (m - count)) == 0, (m, count)
            assert kept_count_sym(m, count, third) == sp.Rational(2 * (m - count), 3), (m, count)


# --------------------------------------------------------------------------- edges mutation testing found
# Each test below was written for a mutant that survived the hypothesis tests above: boundaries
# the strategies rarely hit (eps = 1, size 0, max_len = l*, exact ties), defaults and argument checks.


def test_linear_minimal_size_counts_a_drop_equal_to_the_threshold():
    """Catches ``drops > eps * ref``: with dyadic numbers the size-1 drop equals eps E[f] exactly and suffices."""
    # a = (1, 1), p = 1/2, intercept 0: E[f] = 1, best drop of size 1 = 1/2 = eps E[f] at eps = 1/2
    assert linear_minimal_size([1.0, 1.0], [1, 1], 0.0, 0.5, 0.5, 2) == 1
    assert linear_minimal_size([1.0, 1.0], [1, 1], 0.0, 0.5, 0.5 + 2**-40, 2) == 2


def test_linear_minimal_size_uses_the_baseline_it_is_given():
    """Catches ``baseline`` ignored: with baseline "original" (reference f(xi) = 3 > E[f] = 1.5) every drop
    rises by 1.5 and one token suffices; with E[f] two are needed."""
    assert linear_minimal_size([1.0, 1.0, 1.0], [1, 1, 1], 0.0, 0.5, 0.5, 3) == 2
    assert linear_minimal_size([1.0, 1.0, 1.0], [1, 1, 1], 0.0, 0.5, 0.5, 3, baseline="original") == 1


def test_linear_optimal_counts_accepts_size_zero_and_refuses_too_large():
    """Catches refusing the empty candidate or allowing more occurrences than the document has."""
    assert linear_optimal_counts([1.0, -2.0], [2, 1], 0).tolist() == [0, 0]
    assert linear_optimal_counts([1.0, -2.0], [2, 1], 3).tolist() == [2, 1]
    with pytest.raises(ValueError, match=r"size must lie in \[0, 3\]"):
        linear_optimal_counts([1.0, -2.0], [2, 1], 4)


# --------------------------------------------------------------------------- exact arithmetic: Eq. (2)'s solutions
# linear_table_rational, all_drops_rational, exact_explain and logistic_table_sym (used by the claims prop1-linear and
# prop1-logistic) against the float referee (analytic.referee, numpy) and against brute force written here.


@given(linear_cases(), st.sampled_from([Fraction(1, 2), Fraction(1, 10), Fraction(3, 4)]))
def test_all_drops_rational_equal_the_float_referee(case, p):
    """Catches a wrong code order (bit i = position i perturbed), pattern weight or conditional mean in the
    rational enumeration: its table and every drop must equal the referee's floats (dyadic weights: exact)."""
    tokens, _, a_word, intercept = case
    a = [Fraction(a_word[t]) for t in tokens]
    table = linear_table_rational(a, Fraction(intercept))
    assert [float(x) for x in table] == linear_table([float(x) for x in a], intercept).tolist()
    mean, drops = all_drops_rational(table, p)
    floats = all_drops(np.array([float(x) for x in table]), float(p))
    assert_allclose(float(mean), expected_prediction([float(x) for x in table], float(p)), rtol=RTOL, atol=ATOL)
    assert len(drops) == 2 ** len(tokens) - 1
    for s, d in drops.items():
        assert_allclose(float(d), floats[sum(1 << i for i in s)], rtol=RTOL, atol=ATOL)


@given(linear_cases(), st.sampled_from([Fraction(1, 2), Fraction(1, 4)]),
       st.sampled_from([Fraction(1, 20), Fraction(15, 100), Fraction(1, 2), Fraction(1)]))
def test_exact_solutions_are_every_minimiser_and_the_choice_the_largest(case, p, eps):
    """Catches exact_explain (exact arithmetic) missing a minimiser, returning a set of the wrong size, or a FRED
    choice that is not the largest drop (ties to the smallest tuple): brute force over position sets here, on E[f]
    and drops enumerated independently of analytic (tests/_helpers.py, Fractions), and the float referee's choice
    (exact_explain) when no drop lies at the threshold."""
    tokens, _, a_word, intercept = case
    a = [Fraction(a_word[t]) for t in tokens]
    b = len(a)
    table = linear_table_rational(a, Fraction(intercept))
    got = exact_explain(table, p, eps, b)
    mean, drops = drops_by_enumeration(lambda z: Fraction(intercept) + sum(ai for ai, zi in zip(a, z) if not zi), b, p)
    assert got.mean_prediction == mean and got.drops == drops
    threshold = eps * mean
    sizes = [n for n in range(1, b + 1) if any(drops[s] >= threshold for s in itertools.combinations(range(b), n))]
    if not sizes:
        assert (got.size, got.solutions, got.found) == (None, (), False)
        return
    want = tuple(s for s in itertools.combinations(range(b), sizes[0]) if drops[s] >= threshold)
    assert (got.size, got.solutions, got.threshold) == (sizes[0], want, threshold)
    top = max(drops[s] for s in want)
    assert got.best_ids == min(s for s in want if drops[s] == top)
    if all(d != threshold for d in drops.values()):
        referee = exact_explain(linear_table([float(x) for x in a], intercept), float(p), float(eps), b)
        assert referee.found and referee.best_ids == got.best_ids


def test_logistic_table_sym_is_sigma_of_the_linear_table():
    """Catches a sign error in the logistic table (sigma(-z)) or a wrong code order: sigma(log 3) = 3/4 exactly,
    and every entry equals 1 / (1 + exp(-z)) of the float linear table."""
    assert logistic_table_sym([sp.log(3)], 0) == [sp.Rational(3, 4), sp.Rational(1, 2)]
    a, l0 = [1, sp.Rational(-1, 2), 2], sp.Rational(-1, 4)
    exact = [float(v) for v in logistic_table_sym(a, l0)]
    z = linear_table([1.0, -0.5, 2.0], -0.25)
    assert_allclose(exact, 1 / (1 + np.exp(-z)), rtol=1e-14)


def test_top_positions_and_exact_is_top_set_by_brute_force():
    """Catches top_positions breaking ties towards larger positions or returning unsorted positions,
    linear_optimal_positions breaking ties another way (one tie rule), and is_top_set(tol=0) accepting a set whose
    weights are not the largest multiset (or rejecting a tied one), against every subset of small integer weight
    vectors with many ties (Fractions, exact)."""
    rng = np.random.default_rng(3)
    for _ in range(60):
        b = int(rng.integers(1, 6))
        a = [Fraction(int(x), 3) for x in rng.integers(-2, 3, size=b)]
        for size in range(b + 1):
            subsets = list(itertools.combinations(range(b), size))
            best = max(sum(a[i] for i in s) for s in subsets)
            tops = [s for s in subsets if sum(a[i] for i in s) == best]  # a top multiset has the largest sum
            assert top_positions(a, size) == min(tops), (a, size)
            assert linear_optimal_positions(np.array([float(x) for x in a]), size) == min(tops), (a, size)
            for s in subsets:
                assert is_top_set(a, s, tol=0) == (s in tops), (a, s)


def test_is_top_set_reads_nan_as_numpy_sorts_it():
    """Catches the float path sorting NaN inconsistently (Python's sorted): numpy puts NaN above every weight, so
    a set without the NaN position is not top, and with tol=0 an infinite weight still equals itself."""
    assert not is_top_set([0.5, float("nan"), 0.2], (0,))
    assert not is_top_set([0.5, 0.2, float("nan")], (0,))
    assert is_top_set([float("inf"), 0.0], (0,), tol=0)
