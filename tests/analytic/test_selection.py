"""Selection consistency (analytic/selection.py): the exact distribution of FRED's empirical choice against FRED
itself on every design, the bound against that exact agreement, and the bound's pieces against exact sums.

The claim that uses them: tests/claims/test_lemma1_selection.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from analytic import exact_explain, linear_table, linear_table_rational, table_classifier
from analytic.selection import (
    MAX_COMPOSITIONS,
    agreement_bound,
    agreement_probability,
    agreement_sample_size,
    candidate_failure,
    exact_selection,
    selection_distribution,
    selection_margins,
)
from fred import Fred, Perturbations
from fred.sampling import render_masked
from proofs_checks.strategies import black_box_tables, epsilons, probabilities
from tests._helpers import drops_by_enumeration

TIE = linear_table_rational([Fraction(1, 20), Fraction(1, 20)])
ON_THRESHOLD = linear_table_rational([Fraction(3, 10)], Fraction(17, 20))


class FixedDesign:
    """A sampler (fred.Sampler protocol) returning one given design with weights 1/n, so that Fred's own search
    runs on every design of an enumeration."""

    name = "fixed"
    exact = False

    def __init__(self, perturbed: np.ndarray):
        self.perturbed = perturbed

    def draw(self, n_tokens, p, n_samples, rng) -> Perturbations:
        return Perturbations(self.perturbed, np.full(len(self.perturbed), 1.0 / len(self.perturbed)))

    def render(self, tokens, perturbed, rng) -> list[str]:
        return render_masked(tokens, perturbed, "UNK")


def fred_on_every_design(table, n: int, p: float, eps: float, max_len: int, baseline: str = "mean") -> dict:
    """P(Fred returns (positions, found)) summed over all 2^(b n) designs of n rows, each weighted by its
    probability prod p^k (1 - p)^(b - k): FRED's own search, no code shared with analytic.selection."""
    table = np.array([float(f) for f in table])
    b = int(np.log2(table.size))
    tokens = [f"w{i}" for i in range(b)]
    black_box = table_classifier(tokens, table, n_classes=2)
    out: dict = {}
    for bits in itertools.product((False, True), repeat=b * n):
        perturbed = np.array(bits).reshape(n, b)
        k = int(perturbed.sum())
        weight = p**k * (1 - p) ** (b * n - k)
        e = Fred(black_box, sampler=FixedDesign(perturbed), baseline=baseline).explain(
            " ".join(tokens), label=1, p=p, eps=eps, max_len=max_len, n_samples=n)
        key = (tuple(e.best_ids), bool(e.found))
        out[key] = out.get(key, 0.0) + weight
    return out


@pytest.mark.parametrize("name, table, n, p, eps, max_len, baseline", [
    ("margin", linear_table([0.5, 0.1]), 4, 0.5, 0.15, 2, "mean"),
    ("tie", TIE, 4, 0.5, 0.15, 2, "mean"),
    ("threshold", ON_THRESHOLD, 7, 0.5, 0.15, 1, "mean"),
    ("not found", [1.0, 0.95, 0.97, 0.93], 4, 0.5, 0.15, 2, "mean"),
    ("original baseline, p = 0.3", [0.9, 0.2, 0.6, 0.1], 4, 0.3, 0.3, 2, "original"),
    ("b = 3, max_len = 2", [0.8, 0.1, 0.5, 0.3, 0.9, 0.0, 0.4, 0.2], 2, 0.4, 0.2, 2, "mean"),
])
def test_distribution_is_freds_on_every_design(name, table, n, p, eps, max_len, baseline):
    """Catches an enumeration that does not reproduce FRED: a wrong multinomial weight, a candidate with n_c = 0
    taken as defined, a wrong tie rule (smallest tuple; a later size must beat the best by more than the
    tolerance), the reference of the wrong baseline, or found set wrongly. FRED runs its own search on each of
    the 2^(b n) designs (equal-weight rows), rational inputs of analytic compared as floats."""
    rational = all(isinstance(f, Fraction) for f in table)
    p_in = Fraction(p).limit_denominator(100) if rational else p
    eps_in = Fraction(eps).limit_denominator(100) if rational else eps
    got = selection_distribution(table, n, p_in, eps_in, max_len, baseline=baseline)
    want = fred_on_every_design(table, n, p, eps, max_len, baseline)
    assert set(got) == {k for k, v in want.items() if v > 0}, (name, got, want)
    for key, value in want.items():
        assert_allclose(float(got[key]), value, rtol=1e-12, atol=1e-15, err_msg=f"{name} {key}")
    if rational:
        assert sum(got.values()) == 1


@given(black_box_tables(min_tokens=1, max_tokens=3), probabilities(), epsilons(), st.integers(1, 3))
def test_exact_selection_is_the_referee(table, p, eps, max_len):
    """Catches exact_selection (the target the agreement is measured against) departing from the referee
    analytic.exact_explain, or from Eq. (2)'s choice in rational arithmetic when a size reaches the threshold."""
    ref = exact_explain(table, p, eps, max_len)
    assert exact_selection(table, p, eps, max_len) == (ref.best_ids, ref.found)
    rational = [Fraction(f) for f in table]
    p_r, eps_r = Fraction(p).limit_denominator(64), Fraction(eps).limit_denominator(64)
    eq2 = exact_explain(rational, p_r, eps_r, max_len)
    choice, found = exact_selection(rational, p_r, eps_r, max_len)
    assert found == (eq2.size is not None)
    if found:
        assert choice == eq2.best_ids


def test_margins_by_hand():
    """Catches wrong margins. f = 0.5 kept_0 + 0.1 kept_1 at p = 1/2: E[f] = 0.3, drops (1 - p) a = (0.25, 0.05),
    threshold 0.15 * 0.3 = 0.045: {0} is chosen at size 1, 0.205 above the threshold and 0.2 above {1}. With
    f = 1 - 0.05 kept_0 - 0.02 kept_1 nothing reaches the threshold (drops are negative): {1} (drop -0.01) must
    stay above {0} (-0.025) by 0.015 and above {0, 1} (-0.035) by 0.025, and all below the threshold."""
    m = selection_margins(linear_table([0.5, 0.1]), 0.5, 0.15, 2, tie_rtol=0.0)
    assert (m.best_ids, m.found, m.candidates) == ((0,), True, ((0,), (1,)))
    assert_allclose(m.threshold_margin[0], 0.205, atol=1e-15)
    assert np.isnan(m.threshold_margin[1]) and np.isnan(m.gap[0])
    assert_allclose(m.gap[1], 0.2, atol=1e-15)
    assert_allclose(m.conditional_mean, [0.05, 0.25], atol=1e-15)
    none = selection_margins(linear_table([-0.05, -0.02], 1.0), 0.5, 0.15, 2, tie_rtol=0.0)
    assert (none.best_ids, none.found) == ((1,), False)
    assert_allclose(none.gap, [0.015, np.nan, 0.025], atol=1e-15)
    mean = 1 - 0.035
    assert_allclose(none.threshold_margin, [0.15 * mean + 0.025, 0.15 * mean + 0.01, 0.15 * mean + 0.035], atol=1e-15)


@given(black_box_tables(min_tokens=1, max_tokens=4), probabilities())
def test_margin_statistics_by_enumeration(table, p):
    """Catches wrong conditional statistics feeding the bound (m_c, sigma_c^2, R_c, M_c over the patterns that
    perturb c), against the tests' own enumeration: m_c = E[f] - Delta_c with Delta_c from
    tests/_helpers.drops_by_enumeration, and the variance and ranges pattern by pattern."""
    b = int(np.log2(table.size))
    f = lambda z: float(table[sum(bit << i for i, bit in enumerate(z))])  # noqa: E731
    mean, drops = drops_by_enumeration(f, b, p)
    m = selection_margins(table, p, 0.5, b)
    for i, c in enumerate(m.candidates):
        rows = [z for z in itertools.product((0, 1), repeat=b) if all(z[j] for j in c)]
        w = np.array([p ** sum(z) * (1 - p) ** (b - sum(z)) for z in rows])
        v = np.array([f(z) for z in rows])
        mc = w @ v / w.sum()
        assert_allclose(m.conditional_mean[i], mean - drops[c], atol=1e-12)
        assert_allclose(m.variance[i], w @ (v - mc) ** 2 / w.sum(), atol=1e-12)
        assert_allclose(m.value_range[i], v.max() - v.min(), atol=0)
        assert_allclose(m.max_deviation[i], np.abs(v - mc).max(), atol=1e-12)
        assert_allclose(m.q[i], p ** len(c), rtol=1e-12)


@given(st.floats(0.01, 1.0), st.floats(0.05, 1.0), st.integers(1, 300), st.floats(0.1, 2.0), st.floats(0, 1),
       st.floats(0, 1))
def test_candidate_failure_is_the_binomial_average(t, q, n, value_range, variance_share, deviation_share):
    """Catches a wrong generating-function step: E[1{K = 0} + 1{K >= 1} 2 e^{-a K}], K ~ Bin(n, q), summed term by
    term with scipy, equals 2 (1 - q + q e^{-a})^n - (1 - q)^n (capped at 1), with a = max(2 t^2 / R^2,
    t^2 / (2 sigma^2 + 2 M t / 3)) recomputed here."""
    deviation = value_range * (0.5 + 0.5 * deviation_share)  # M in [R/2, R]
    variance = variance_share * value_range**2 / 4
    a = max(2 * t**2 / value_range**2, t**2 / (2 * variance + 2 * deviation * t / 3))
    k = np.arange(n + 1)
    average = stats.binom.pmf(k, n, q) @ np.where(k == 0, 1.0, 2 * np.exp(-a * k))
    assert_allclose(candidate_failure(t, q, n, value_range, variance, deviation), min(1.0, average), rtol=1e-9,
                    atol=1e-300)


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), probabilities(), st.integers(1, 120), st.floats(0.01, 1.0))
def test_candidate_failure_bounds_the_exact_failure(f_kept, f_perturbed, p, n, t_share):
    """Catches a concentration bound that is not one (the argued step of the claim): for b = 2 and c = {0}, the
    rows perturbing c are codes 1 (prob 1 - p given c) and 3 (p), so given n_c = k the mean is
    (J f_3 + (k - J) f_1)/k with J ~ Bin(k, p). The exact P(n_c = 0 or |hat m_c - m_c| >= t) must not exceed
    candidate_failure with the statistics selection_margins reports."""
    table = np.array([0.5, f_kept, 0.5, f_perturbed])
    m = selection_margins(table, p, 0.5, 1)
    i = m.candidates.index((0,))
    mc = (1 - p) * f_kept + p * f_perturbed
    t = t_share * max(abs(f_perturbed - f_kept), 1e-3)
    exact = (1 - p) ** n
    for k in range(1, n + 1):
        j = np.arange(k + 1)
        means = (j * f_perturbed + (k - j) * f_kept) / k
        exact += stats.binom.pmf(k, n, p) * (stats.binom.pmf(j, k, p) @ (np.abs(means - mc) >= t))
    bound = float(candidate_failure(t, m.q[i], n, m.value_range[i], m.variance[i], m.max_deviation[i]))
    assert exact <= bound + 1e-12, (exact, bound)


def _bound_below_exact(table, p: float, eps: float, max_len: int, baseline: str = "mean") -> None:
    """At the smallest n where the bound reaches 1/2, and at a quarter and four times it, the exact agreement
    (the enumeration tested above against FRED) is at least the bound."""
    n_half = agreement_sample_size(table, 0.5, p, eps, max_len, baseline=baseline)
    for n in (max(1, n_half // 4), n_half, 4 * n_half):
        bound = agreement_bound(table, n, p, eps, max_len, baseline=baseline).value
        exact = agreement_probability(table, n, p, eps, max_len, baseline=baseline)
        assert exact >= bound - 1e-12, (n, bound, exact)
    assert agreement_bound(table, n_half, p, eps, max_len, baseline=baseline).value >= 0.5


@given(black_box_tables(min_tokens=1, max_tokens=1, integer=False), probabilities(0.2, 0.8), epsilons(0.05),
       st.sampled_from(["mean", "original"]))
def test_bound_is_below_the_exact_agreement_one_token(table, p, eps, baseline):
    """Catches a bound above the truth (a wrong margin, a tolerance applied the wrong way, the reference's error
    forgotten) on one-token documents, where the enumeration is cheap at any n."""
    try:
        n_half = agreement_sample_size(table, 0.5, p, eps, 1, baseline=baseline)
    except ValueError:  # a zero margin: no bound
        assume(False)
    assume(4 * n_half <= 20_000)
    _bound_below_exact(table, p, eps, 1, baseline)


@pytest.mark.parametrize("table, p, baseline", [
    (linear_table([0.5, 0.1]), 0.5, "mean"),
    (linear_table([0.4, 0.05], 0.1), 0.5, "mean"),
    ([0.9, 0.1, 0.8, 0.0], 0.5, "mean"),
    ([0.9, 0.1, 0.8, 0.0], 0.4, "original"),
])
def test_bound_is_below_the_exact_agreement_two_tokens(table, p, baseline):
    """Catches a bound above the truth where the union runs over several candidates and a rival (two tokens
    with large margins, so the bound reaches 1/2 at an n the enumeration affords)."""
    _bound_below_exact(table, p, 0.15, 2, baseline)


@given(black_box_tables(min_tokens=1, max_tokens=3, integer=False), probabilities(0.2, 0.8), epsilons(0.05),
       st.sampled_from(["mean", "original"]))
def test_bound_is_monotone_and_sample_size_minimal(table, p, eps, baseline):
    """Catches a bound that drops as n grows (bisection would then be wrong) or a sample size that is not the
    smallest n reaching the target."""
    try:
        needed = agreement_sample_size(table, 0.9, p, eps, 3, baseline=baseline)
    except ValueError:
        assume(False)
    ns = np.unique(np.geomspace(1, 4 * needed, 30).astype(int))
    values = [agreement_bound(table, int(n), p, eps, 3, baseline=baseline).value for n in ns]
    assert all(later >= earlier for earlier, later in zip(values, values[1:])), values
    assert 0 <= values[0] and values[-1] <= 1
    assert agreement_bound(table, needed, p, eps, 3, baseline=baseline).value >= 0.9
    if needed > 1:
        assert agreement_bound(table, needed - 1, p, eps, 3, baseline=baseline).value < 0.9


def test_event_implies_freds_agreement():
    """Catches an allocation that does not imply agreement (the proof's step 'event => agreement'): on 400 FRED
    runs per n, whenever every estimate lies within the bound's tolerances (errors computed here from the rows
    FRED drew), FRED returns the exact choice. The event must occur, or the test checks nothing."""
    table = linear_table([0.5, 0.1, 0.3], 0.05)
    tokens = ["w0", "w1", "w2"]
    exact = exact_explain(table, 0.5, 0.15, 3)
    black_box = table_classifier(tokens, table, n_classes=2)
    occurred = 0
    for n in (120, 300):
        bound = agreement_bound(table, n, 0.5, 0.15, 3)
        fred = Fred(black_box, random_state=np.random.default_rng(n))
        for _ in range(400):
            e = fred.explain(" ".join(tokens), label=1, p=0.5, eps=0.15, max_len=3, n_samples=n)
            f = table[e.sample_perturbed @ (1 << np.arange(3))]
            errors = []
            for c, mc in zip(bound.margins.candidates, bound.margins.conditional_mean):
                rows = e.sample_perturbed[:, list(c)].all(axis=1)
                errors.append(abs(f[rows].mean() - mc) if rows.any() else np.nan)
            if bound.event_holds(abs(f.mean() - table @ np.full(8, 1 / 8)), np.array(errors)):
                occurred += 1
                assert (e.best_ids, e.found) == (exact.best_ids, exact.found)
    assert occurred > 100, occurred


def test_zero_margins_are_refused():
    """Catches a bound returned where none exists: an exact tie at the top (two tokens of equal weight) and a
    drop equal to the threshold (f = 17/20 + 3/10 kept, E[f] = 1, drop 3/20 = 0.15 E[f])."""
    for table in (TIE, ON_THRESHOLD):
        with pytest.raises(ValueError, match="zero margin"):
            agreement_bound([float(f) for f in table], 100, 0.5, 0.15, 2)
        with pytest.raises(ValueError, match="zero margin"):
            agreement_sample_size([float(f) for f in table], 0.95, 0.5, 0.15, 2)


def test_bad_input_is_refused():
    """Catches silent nonsense on bad arguments: each error names the parameter and its allowed range."""
    table = linear_table([0.5, 0.1])
    with pytest.raises(ValueError, match="p must lie in"):
        agreement_bound(table, 10, 1.0, 0.15, 2)
    with pytest.raises(ValueError, match="eps must lie in"):
        agreement_bound(table, 10, 0.5, 0.0, 2)
    with pytest.raises(TypeError, match="max_len must be an integer"):
        agreement_bound(table, 10, 0.5, 0.15, 2.0)
    with pytest.raises(ValueError, match="max_len must be an integer >= 1"):
        selection_margins(table, 0.5, 0.15, 0)
    with pytest.raises(TypeError, match="n must be an integer"):
        agreement_bound(table, 10.0, 0.5, 0.15, 2)
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        selection_distribution(table, 0, 0.5, 0.15, 2)
    with pytest.raises(ValueError, match="baseline must be"):
        agreement_probability(table, 3, 0.5, 0.15, 2, baseline="median")
    with pytest.raises(ValueError, match="target must lie in"):
        agreement_sample_size(table, 1.0, 0.5, 0.15, 2)
    with pytest.raises(ValueError, match="table must"):
        selection_distribution([0.1, 0.2, 0.3], 3, 0.5, 0.15, 2)
    with pytest.raises(ValueError, match="MAX_COMPOSITIONS"):
        selection_distribution(table, 10**4, 0.5, 0.15, 2)
    assert math.comb(10**4 + 3, 3) > MAX_COMPOSITIONS
