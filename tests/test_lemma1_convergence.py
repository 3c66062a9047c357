"""Triangulation 3: Lemma 1 -- FRED's Monte Carlo drops converge to the exact limit, at rate 1/sqrt(n p^|c|).

Black boxes are lookup tables over the 2^b mask patterns (exact, and fast under
FRED's mask sampler); one table comes from a fitted scikit-learn decision tree
(non-linear), one from a TF-IDF + Ridge pipeline, one is arbitrary.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from numpy.testing import assert_allclose
from scipy import optimize, stats
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeClassifier

from analytic import (
    drop_asymptotic_variance,
    exact_drop,
    exact_explain,
    hoeffding_drop_bound,
    lemma1_limit,
    pattern_weights,
    table_classifier,
    table_from_classifier,
)
from proofs_checks.strategies import black_box_tables, probabilities
from fred import Fred

DOC = "the food was not good great".split()
WORDS = ["good", "great", "bad", "not", "food", "service", "the", "was"]


def tree_table() -> np.ndarray:
    """P(positive) of a decision tree fitted on a generated corpus: positive iff (good or great) and not 'not'."""
    rng = np.random.default_rng(0)
    corpus = [" ".join(rng.choice(WORDS, size=rng.integers(3, 8))) for _ in range(300)]
    labels = [int(("good" in d.split() or "great" in d.split()) and "not" not in d.split()) for d in corpus]
    vec = CountVectorizer().fit(corpus)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(vec.transform(corpus), labels)
    return table_from_classifier(lambda texts: tree.predict_proba(vec.transform(texts)), DOC, label=1)


def ridge_table() -> np.ndarray:
    """Decision values of a TF-IDF (norm=None) + Ridge pipeline on a generated corpus."""
    rng = np.random.default_rng(1)
    corpus = [" ".join(rng.choice(WORDS, size=rng.integers(3, 8))) for _ in range(100)]
    y = [d.count("good") + d.count("great") - 2.0 * d.count("not") for d in corpus]
    vec = TfidfVectorizer(norm=None).fit(corpus)
    model = Ridge(alpha=1.0).fit(vec.transform(corpus), y)
    return table_from_classifier(lambda texts: model.predict(vec.transform(texts)), DOC)


def random_table() -> np.ndarray:
    return np.random.default_rng(2).random(2 ** len(DOC))


TABLES = {"tree": tree_table, "ridge": ridge_table, "random": random_table}


def test_tree_black_box_is_non_linear():
    """Guards the premise: the tree's table is not additive over positions (else this file tests only a linear f)."""
    table = tree_table()
    b = len(DOC)
    codes = np.arange(2**b)
    bits = ((codes[:, None] >> np.arange(b)) & 1).astype(float)
    design = np.column_stack([np.ones(2**b), bits])
    residual = table - design @ np.linalg.lstsq(design, table, rcond=None)[0]
    assert np.ptp(table) > 0.5 and np.max(np.abs(residual)) > 0.1


@given(black_box_tables(max_tokens=5), probabilities())
def test_lemma1_limit_equals_referee_drop(table, p):
    """Catches a wrong P(c not in x) = p^|c| or a conditional mean mixed up with a joint one."""
    b = int(np.log2(len(table)))
    for r in range(1, b + 1):
        for s in itertools.combinations(range(b), r):
            assert_allclose(lemma1_limit(table, s, p), exact_drop(table, s, p), rtol=1e-12, atol=1e-12)


@given(black_box_tables(max_tokens=4), probabilities())
def test_delta_method_variance_matches_gradient_form(table, p):
    """Catches a wrong influence function: compares with g' Sigma g for h(a, b, c) = a - b / c of
    (mean f, mean fI, mean I), computed in exact rational arithmetic (the gradient form cancels
    catastrophically in floats when p^|c| is small), tolerance 1e-9 relative plus 1e-12 max(1, |f|)^2 / p^|c|
    absolute (the scale of sigma^2), for sigma^2 = 0 on a constant f."""
    b = int(np.log2(len(table)))
    q = Fraction(p)
    w = [q ** bin(code).count("1") * (1 - q) ** (b - bin(code).count("1")) for code in range(2**b)]
    f = [Fraction(float(v)) for v in table]
    for r in range(1, b + 1):
        full = (1 << r) - 1
        z = [(fi, fi * ((code & full) == full), Fraction((code & full) == full)) for code, fi in enumerate(f)]
        mean = [sum(wi * zi[k] for wi, zi in zip(w, z)) for k in range(3)]
        g = (1, -1 / mean[2], mean[1] / mean[2] ** 2)
        exact = sum(wi * sum(gk * (zi[k] - mean[k]) for k, gk in enumerate(g)) ** 2 for wi, zi in zip(w, z))
        assert_allclose(drop_asymptotic_variance(table, tuple(range(r)), p), float(exact), rtol=1e-9,
                        atol=1e-12 * max(1.0, float(np.max(np.abs(table)))) ** 2 / p**r,
                        err_msg=f"table={table.tolist()} p={p} c={tuple(range(r))}")


@pytest.mark.statistical
@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("p", [0.3, 0.5])
def test_monte_carlo_drops_within_hoeffding_bound(name, p):
    """Catches a biased or wrongly normalised empirical drop (Eq. 3) in fred's mask sampler.

    delta = 1e-6 per test: the bound is applied to every candidate of size <= 2
    (b + C(b, 2) = 21 of them, so it also covers the data-selected best one) for
    6 seeds, K = 126 estimates, each with delta1 = delta2 = 1e-6 / (2 K); by the
    union bound every check holds with probability >= 1 - 1e-6.
    Seeds 0..5, n = 400, max_len = 2; checked: the b importances and the selected drop.
    """
    table = TABLES[name]()
    clf = table_classifier(DOC, table, n_classes=2)
    value_range = float(np.ptp(table))
    seeds, n, b = range(6), 400, len(DOC)
    each = 1e-6 / (2 * len(seeds) * (b + b * (b - 1) // 2))
    for seed in seeds:
        exp = Fred(clf, random_state=seed).explain(" ".join(DOC), label=1, p=p, eps=0.15, max_len=2, n_samples=n)
        perturbed = exp.sample_perturbed
        checks = [((i,), exp.importances[i]) for i in range(b)] + [(exp.best_ids, exp.drop)]
        for cand, estimate in checks:
            n_c = int(perturbed[:, list(cand)].all(axis=1).sum())
            assert n_c >= 1
            limit = lemma1_limit(table, cand, p)
            bound = hoeffding_drop_bound(value_range, n, n_c, each, each)
            assert abs(estimate - limit) <= bound, (
                f"{name} p={p} seed={seed} c={cand} n={n} n_c={n_c}: |{estimate} - {limit}| > bound {bound}")


def median_ci(values: np.ndarray, delta: float) -> tuple[float, float]:
    """Distribution-free CI [X_(k), X_(R-k+1)] for the median, coverage >= 1 - delta (binomial order statistics)."""
    r = len(values)
    k = int(stats.binom.ppf(delta / 2, r, 0.5))  # P(Bin(R, 1/2) <= k - 1) <= delta / 2
    while stats.binom.cdf(k - 1, r, 0.5) > delta / 2:
        k -= 1
    assert k >= 1
    ordered = np.sort(values)
    return float(ordered[k - 1]), float(ordered[r - k])


@pytest.mark.statistical
def test_error_shrinks_like_inverse_sqrt_n_on_tree():
    """Catches an estimator whose error does not shrink like sigma / sqrt(n) (sigma^2 ~ 1/p^|c|, delta method).

    Decision-tree black box, candidate {3} ('not'), p = 0.5. For n1 = 100 and
    n2 = 16 n1 we run R = 800 independent explanations (seeds 0..799 and
    1000..1799) and take distribution-free CIs of the median |error|, each at
    delta = 5e-7 (total 1e-6). The ratio of medians then lies in
    [L1 / U2, U1 / L2]: it must contain 4 and exclude 1 and 16; each CI must
    contain the delta-method prediction 0.6745 sigma / sqrt(n).
    """
    table, p, pos, n1, reps = tree_table(), 0.5, 3, 100, 800
    clf = table_classifier(DOC, table, n_classes=2)
    limit = lemma1_limit(table, [pos], p)
    sigma = np.sqrt(drop_asymptotic_variance(table, [pos], p))
    errors = {}
    for n, offset in [(n1, 0), (16 * n1, 1000)]:
        errors[n] = np.array([
            abs(Fred(clf, random_state=offset + r).explain(" ".join(DOC), label=1, p=p, max_len=1, n_samples=n)
                .importances[pos] - limit)
            for r in range(reps)])
    (l1, u1), (l2, u2) = median_ci(errors[n1], 5e-7), median_ci(errors[16 * n1], 5e-7)
    low, high = l1 / u2, u1 / l2
    slope = np.log(np.median(errors[16 * n1]) / np.median(errors[n1])) / np.log(16)
    msg = (f"ratio CI [{low:.3f}, {high:.3f}] (slope CI [{-np.log(high) / np.log(16):.3f}, "
           f"{-np.log(low) / np.log(16):.3f}]), fitted log-log slope {slope:.3f} (expected -0.5), sigma={sigma:.4f}")
    assert low <= 4 <= high, msg
    assert high < 16 and low > 1, msg
    for n, (lo, hi) in [(n1, (l1, u1)), (16 * n1, (l2, u2))]:
        predicted = stats.norm.ppf(0.75) * sigma / np.sqrt(n)
        assert lo <= predicted <= hi, f"n={n}: predicted median |error| {predicted:.5f} not in [{lo:.5f}, {hi:.5f}]"


def test_exact_referee_matches_fred_exact_on_tree():
    """Catches fred's exact sampler disagreeing with the referee on the non-linear tree (tolerance 1e-10)."""
    table = tree_table()
    exp = Fred(table_classifier(DOC, table, n_classes=2), sampler="exact").explain(
        " ".join(DOC), label=1, p=0.5, eps=0.15, max_len=3)
    ref = exact_explain(table, 0.5, 0.15, 3)
    assert exp.best_ids == ref.best_ids and exp.found == ref.found
    assert_allclose(exp.importances, ref.importances, rtol=0, atol=1e-10)
    assert_allclose(exp.drop, ref.drop, rtol=0, atol=1e-10)


def hoeffding_radius(value_range: float, n: int, delta: float) -> float:
    """Solve 2 exp(-2 n t^2 / R^2) = delta for t by root finding (Hoeffding's two-sided tail, inverted)."""
    return optimize.brentq(lambda t: 2 * np.exp(-2 * n * t**2 / value_range**2) - delta, 0.0, value_range, xtol=1e-15)


@pytest.mark.parametrize("value_range, n, n_c, delta1, delta2", [(1.0, 200, 50, 0.5, 0.5), (3.0, 5, 7, 0.01, 0.2),
                                                                  (0.5, 10_000, 13, 1e-6, 1e-3)])
def test_hoeffding_bound_is_the_sum_of_two_inverted_tails(value_range, n, n_c, delta1, delta2):
    """Catches any slip in the bound's formula (constants, n and n_c or the deltas swapped)."""
    expected = hoeffding_radius(value_range, n, delta1) + hoeffding_radius(value_range, n_c, delta2)
    assert_allclose(hoeffding_drop_bound(value_range, n, n_c, delta1, delta2), expected, rtol=1e-12)


def test_hoeffding_bound_accepts_its_boundary_arguments():
    """Catches refusing R = 0 or a single row: both are valid (a constant f has no error)."""
    assert hoeffding_drop_bound(0.0, 1, 1, 0.5, 0.5) == 0.0
    assert_allclose(hoeffding_drop_bound(1.0, 1, 1, 2 / np.e, 2 / np.e), 2 * np.sqrt(0.5), rtol=1e-12)


@pytest.mark.parametrize("args", [(-1e-9, 5, 5, 0.1, 0.1), (1.0, 0, 5, 0.1, 0.1), (1.0, 5, 0, 0.1, 0.1),
                                  (1.0, 5, 5, 0.0, 0.1), (1.0, 5, 5, 1.0, 0.1), (1.0, 5, 5, 0.1, 0.0),
                                  (1.0, 5, 5, 0.1, 1.0)])
def test_hoeffding_bound_refuses_each_bad_argument(args):
    """Catches a validation that needs two violations at once or admits delta = 0 or 1."""
    with pytest.raises(ValueError, match="deltas in"):
        hoeffding_drop_bound(*args)


@pytest.mark.parametrize("positions", [[], [3], [0, 3], [4]])
def test_lemma1_refuses_empty_or_out_of_range_candidates(positions):
    """Catches a candidate check that accepts the empty set or positions >= b (silently all-False coverage)."""
    table = np.arange(8.0)  # b = 3
    with pytest.raises(ValueError, match=r"^positions must be a non-empty subset of \[0, 3\)"):
        lemma1_limit(table, positions, 0.5)
    with pytest.raises(ValueError, match=r"^positions must be a non-empty subset of \[0, 3\)"):
        drop_asymptotic_variance(table, positions, 0.5)
