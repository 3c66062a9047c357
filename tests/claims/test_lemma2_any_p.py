"""Claim lemma2-any-p (proofs_checks/claims/lemmas/lemma2_any_p.py, an extension, ours: the paper's proof fixes p = 1/2;
verdict: does not extend; corrected: holds): Lemma 2's n (from 1/2**l_max) serves exactly the p >= p*(alpha,
l_max) = (1 - (1 - alpha)**(1/n))**(1/l_max), a threshold just below 1/2 (0.4507 at l_max = 1); below it, e.g. at
p = 0.1 (the p of the appendix tables), it is too small; the corrected n is ceil(log(1 - alpha) / log(1 -
p**l_max)) = fred.sample_size.

Every number is recomputed here independently of the claim module: designs enumerated by hand, coverages in
mpmath at 50 digits or in Fractions, minima on their definition (n rows reach alpha, n - 1 do not).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st

from analytic import sample_size_numeric, sample_size_rational
from fred import sample_size
from fred.sampling import MAX_SAMPLES


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("lemma2-any-p")  # the session's one run of the claim (tests/conftest.py)


def _values(result, step: str) -> dict:
    return next(s.values for s in result.steps if s.id == f"lemma2-any-p.{step}")


def test_lemma2_any_p_step_statuses_and_verdict(result):
    """Pins every step (role, evidence, status) and both verdicts: catches a counterexample that disappears, p = 0.1
    reported as covered, a proof step no longer proved by sympy, fred.sample_size drifting from the exact minimum
    (the correction step), or a threshold that stops bracketing; and the kind: an extension (ours), never a failed
    statement of the paper."""
    got = {s.id: (s.role, s.evidence, s.status) for s in result.steps}
    assert got == {
        "lemma2-any-p.s1-counterexample-below-half": ("statement", "counterexample", "fails"),
        "lemma2-any-p.s2-paper-p-one-tenth": ("statement", "exhaustive", "fails"),
        "lemma2-any-p.s3-coverage-increases-with-p": ("proof", "symbolic", "holds"),
        "lemma2-any-p.s4-general-n-covers": ("proof", "symbolic", "holds"),
        "lemma2-any-p.s5-sample-size-is-minimal": ("correction", "exhaustive", "holds"),
        "lemma2-any-p.s6-corrected-n-at-the-counterexamples": ("correction", "exhaustive", "holds"),
        "lemma2-any-p.s7-threshold-below-half": ("correction", "exhaustive", "holds"),
    }
    assert (result.kind, result.status, result.verdict, result.corrected_status, result.ours) == (
        "extension", "fails", "does not extend", "holds", True)
    assert "p**l_max" in result.corrected and result.readings == ()


def coverage_by_designs(n: int, p: Fraction) -> Fraction:
    """One token, n rows: sum the probability of every one of the 2**n designs in which some row perturbs it."""
    total = Fraction(0)
    for design in itertools.product((0, 1), repeat=n):
        if any(design):
            w = Fraction(1)
            for bit in design:
                w *= p if bit else 1 - p
            total += w
    return total


def test_lemma2_any_p_minimal_counterexample_by_brute_force(result):
    """The counterexample: alpha = 0.95, l_max = 1, the paper's n = 5 (ceil(log 0.05 / log 0.5)), p = 9/20:
    enumerating the 2**5 designs gives coverage 3038949/3200000 = 0.94967 < 0.95. Minimal: l_max = 1 is the
    smallest and 9/20 the grid's p closest to 1/2 from below, and every p >= 1/2 of the grid covers at l_max = 1
    (checked here too). Catches a counterexample that is not one, or a search that stops at a non-minimal case."""
    ce = result.counterexample
    assert (ce["l_max"], ce["p_exact"], ce["n_paper"], ce["alpha"]) == (1, "9/20", 5, 0.95)
    # inside the extension's hypotheses (any p in (0, 1)), outside Lemma 2's own p = 1/2
    assert ce["satisfies_hypotheses"] is True and all(ce["hypotheses"].values())
    assert ce["lemma2_own_hypothesis_p_is_one_half"] is False
    assert _values(result, "s1-counterexample-below-half")["satisfies_hypotheses"] is True
    assert 1 - Fraction(1, 2) ** 5 >= Fraction(19, 20) > 1 - Fraction(1, 2) ** 4  # the paper's n for l_max = 1
    cov = coverage_by_designs(5, Fraction(9, 20))
    assert cov == Fraction(3038949, 3200000) == Fraction(ce["coverage_exact"]) < Fraction(19, 20)
    assert all(coverage_by_designs(5, Fraction(k, 20)) >= Fraction(19, 20) for k in range(10, 20))
    values = _values(result, "s1-counterexample-below-half")
    assert values["confirmed"] and values["minimal"] and values["smaller_cases_checked"] == 0
    assert values["fails_for_every_p_below_half"] and values["holds_for_every_p_at_least_half"]


def test_lemma2_any_p_p_one_tenth_coverages(result):
    """p = 0.1, the p of the appendix tables, with Lemma 2's n at the defaults (alpha = 0.95, l_max = 10, n = 3067;
    the paper does not say which n those runs used): one candidate of size 4, 5, 10 is covered with probability
    0.264, 0.0302, 3.07e-7, recomputed as -expm1(n log1p(-0.1^l)) with 50-digit mpmath. The n needed for 0.95
    (29956, 299572, 29957322735) is checked on its definition. Catches p**l misread as p*l or 2**-l, or a coverage
    computed in floats (1 - (1 - 1e-10)**n loses every digit)."""
    values = _values(result, "s2-paper-p-one-tenth")
    by = {row["size"]: row for row in values["cases"]}
    assert set(by) == {4, 5, 10} and values["below_alpha"] == 3 and values["n_paper"] == 3067
    assert all(row["n"] == 3067 and row["satisfies_hypotheses"] for row in by.values())
    with mpmath.workdps(50):
        for size, row in by.items():
            want = -mpmath.expm1(3067 * mpmath.log1p(-mpmath.mpf(10) ** -size))
            assert abs(row["coverage"] - float(want)) <= 1e-15 * float(want), size
            assert row["coverage_12_digits"] == mpmath.nstr(want, 12), size
            assert want < mpmath.mpf(19) / 20
        target = mpmath.log(mpmath.mpf(1) / 20)
        for size, needed in {4: 29956, 5: 299572, 10: 29957322735}.items():
            log_miss = mpmath.log1p(-mpmath.mpf(10) ** -size)
            assert by[size]["n_needed_for_alpha"] == needed
            assert needed * log_miss <= target < (needed - 1) * log_miss, size
    assert [round(by[s]["coverage"], 4) for s in (4, 5)] == [0.2641, 0.0302]


def test_lemma2_any_p_says_only_what_the_paper_says(result):
    """Regression (fresh-context review): the report said the paper used 'its n = 3067' and 'the authors' n =
    5000' at p = 0.1; the paper states neither (no '5000' anywhere in fred-paper.tex, checked when it is present),
    and it never claims Lemma 2's n for p other than 1/2. Catches those sentences coming back and the statement
    losing its 'the paper does not claim it'."""
    from proofs_checks.verdicts.quotes import paper_path

    text = " ".join([result.statement, result.conditions, result.corrected] + [s.note for s in result.steps])
    assert "5000" not in text and "authors' n" not in text and "its n = 3067" not in text
    assert "the paper does not claim it" in result.statement
    assert _values(result, "s2-paper-p-one-tenth")["which_n_the_tables_used"] == "not stated by the paper"
    path = paper_path()
    if path is not None:
        assert "5000" not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("l_max, n, star", [(1, 5, "0.450719728346941"), (10, 3067, "0.499985850204122")])
def test_lemma2_any_p_threshold_below_half(result, l_max, n, star):
    """Regression (fresh-context review): 'fails for p < 1/2' was too broad. Because n is a ceiling, Lemma 2's n
    covers exactly for p >= p* = (1 - 0.05**(1/n))**(1/l_max) < 1/2: p* = 0.4507197283... at l_max = 1 (n = 5) and
    0.4999858502... at the defaults (n = 3067), 50-digit mpmath here. The step's 12-digit bracket must contain p*,
    with coverage at lo below 0.95 and at hi at least 0.95 (decided here with 50-digit logarithms, far from the
    ~1e-11 gaps). At l_max = 1, p = 0.49 covers (1 - (51/100)**5 = 0.9655, Fractions) and the largest failing p of
    the grid k/20 is 9/20. Catches a threshold computed from 1/2**l_max instead of n, or a bracket on the wrong side."""
    rows = {r["l_max"]: r for r in _values(result, "s7-threshold-below-half")["cases"]}
    row = rows[l_max]
    lo, hi = (Fraction(x) for x in row["bracket"])
    assert row["n_paper"] == n and hi - lo == Fraction(1, 10**12) and hi < Fraction(1, 2)
    with mpmath.workdps(50):
        p_star = (1 - mpmath.mpf(1) / 20 ** (mpmath.mpf(1) / n)) ** (mpmath.mpf(1) / l_max)
        assert mpmath.nstr(p_star, 15) == star
        assert mpmath.mpf(lo.numerator) / lo.denominator < p_star < mpmath.mpf(hi.numerator) / hi.denominator
        target = mpmath.log(mpmath.mpf(1) / 20)
        for p, covers_ in ((lo, False), (hi, True)):
            gap = n * mpmath.log1p(-(mpmath.mpf(p.numerator) / p.denominator) ** l_max) - target
            assert (gap <= 0) == covers_ and abs(gap) > mpmath.mpf(10) ** -30, (p, gap)
    if l_max == 1:
        assert 1 - Fraction(51, 100) ** 5 >= Fraction(19, 20) > 1 - Fraction(11, 20) ** 5
        assert max(Fraction(k, 20) for k in range(1, 20) if Fraction(k, 20) < lo) == Fraction(9, 20)
    # every l_max of the step: 9/20 < p* < 1/2, so on the grid k/20 exactly the p < 1/2 fail
    assert all(Fraction(9, 20) < Fraction(r["bracket"][0]) and Fraction(r["bracket"][1]) < Fraction(1, 2)
               for r in rows.values())
    assert sorted(rows) == list(range(1, 11))


def test_lemma2_any_p_hypotheses_are_computed_on_the_case():
    """Catches an extension predicate that does not compute: p must lie in (0, 1) and n must be Lemma 2's ceiling
    (at alpha = 0.95, l_max = 1: 5 = ceil(4.32...), checked here by counting up in Fractions); n = 6 is not Lemma 2's
    n, p = 1 is not a perturbation probability of the extension."""
    from proofs_checks.claims.lemmas.lemma2_any_p import statement_hypotheses

    n = next(k for k in range(1, 10) if Fraction(1, 2) ** k <= Fraction(1, 20))
    assert n == 5
    ok = statement_hypotheses(alpha=Fraction(19, 20), p=Fraction(9, 20), l_max=1, n=n, sizes=(1,))
    assert ok["satisfies_hypotheses"]
    six = statement_hypotheses(alpha=Fraction(19, 20), p=Fraction(9, 20), l_max=1, n=6, sizes=(1,))
    assert [k for k, v in six["hypotheses"].items() if not v] == ["n_is_lemma2s_ceiling"]
    one = statement_hypotheses(alpha=Fraction(19, 20), p=Fraction(1), l_max=1, n=n, sizes=(1,))
    assert [k for k, v in one["hypotheses"].items() if not v] == ["p_in_open_unit_interval"]


@pytest.mark.parametrize("alpha, p, size", [(0.95, 0.1, 1), (0.95, 0.1, 4), (0.99, 0.3, 5), (0.9, 0.7, 12),
                                            (0.5, 0.25, 3), (0.999, 0.9, 2), (0.8, 0.5, 10)])
def test_lemma2_any_p_corrected_n_is_the_minimum(alpha, p, size):
    """The correction: fred.sample_size(alpha, p, l) = ceil(log(1 - alpha) / log(1 - p**l)) is the smallest n with
    1 - (1 - p^l)^n >= alpha, checked on the definition in Fractions of the binary floats (e.g. 29956 rows for
    p = 0.1, |c| = 4 against the paper's 3067). Catches the paper's 1/2 left in the formula or an off-by-one."""
    n = sample_size(alpha, p, size)
    miss, a = 1 - Fraction(p) ** size, Fraction(alpha)
    assert miss**n <= 1 - a < miss ** (n - 1), (alpha, p, size, n)
    if (alpha, p, size) == (0.95, 0.1, 4):
        assert n == 29956


def test_lemma2_any_p_refusals_need_more_than_max_samples(result):
    """Catches fred.sample_size refusing a case it could serve: each refused case of the correction's grid needs
    more than MAX_SAMPLES rows (MAX_SAMPLES rows miss with probability > 1 - alpha, 50-digit mpmath, where the
    margin is many orders above the precision)."""
    values = _values(result, "s5-sample-size-is-minimal")
    assert values["violations"] == [] and values["cases_checked"] == 387
    assert len(values["refused_above_max_samples"]) == 45
    # which grid cases need more than MAX_SAMPLES rows, decided here: MAX_SAMPLES rows miss w.p. > 1 - alpha
    grid = list(itertools.product(values["alphas"], values["ps"], values["lengths"]))
    with mpmath.workdps(50):
        needs_more = [[a, p, size] for a, p, size in grid
                      if MAX_SAMPLES * mpmath.log1p(-mpmath.mpf(p) ** size) - mpmath.log1p(-mpmath.mpf(a)) > 0]
    assert sorted(values["refused_above_max_samples"]) == sorted(needs_more)
    assert values["cases_checked"] == len(grid) - len(needs_more)
    with mpmath.workdps(50):
        for alpha, p, size in values["refused_above_max_samples"]:
            gap = MAX_SAMPLES * mpmath.log1p(-mpmath.mpf(p) ** size) - mpmath.log1p(-mpmath.mpf(alpha))
            assert gap > mpmath.mpf(10) ** -30, (alpha, p, size)
            with pytest.raises(ValueError, match="exceeds"):
                sample_size(alpha, p, size)


def test_lemma2_any_p_coverage_increases_with_p(result):
    """Independent of sympy (step s3): on p = k/20, n in {1, 5, 3067}, l in {1, 4, 10}, the exact coverage
    1 - (1 - p^l)^n is strictly increasing in p, so the paper's n covers at every p >= 1/2 of the grid. Catches a
    coverage formula with p and 1 - p swapped (which decreases), and a step s3 that differentiates another
    coverage: its derivative must be l n p^(l-1) (1 - p^l)^(n-1), written here by hand."""
    p, ell, n = sp.symbols("p ell n", positive=True)
    derivative = sp.sympify(_values(result, "s3-coverage-increases-with-p")["d_coverage_dp"],
                            locals={"p": p, "ell": ell, "n": n})
    assert sp.simplify(derivative - ell * n * p ** (ell - 1) * (1 - p**ell) ** (n - 1)) == 0
    for n, size in itertools.product((1, 5, 3067), (1, 4, 10)):
        covs = [1 - (1 - Fraction(k, 20) ** size) ** n for k in range(1, 20)]
        assert all(a < b for a, b in zip(covs, covs[1:])), (n, size)
    for size, n in ((1, 5), (4, 47), (10, 3067)):
        assert all(1 - (1 - Fraction(k, 20) ** size) ** n >= Fraction(19, 20) for k in range(10, 20))


def test_lemma2_any_p_corrected_n_repairs_the_counterexamples(result):
    """The correction where the paper's n failed: p = 9/20, |c| = 1 needs n = 6 (not 5): counting the 2**6 designs,
    coverage 1 - (11/20)**6 = 0.972 >= 0.95; at p = 0.1, |c| = 4 and 5 it needs 29956 and 299572 rows (checked
    on the definition with mpmath in the test above). Catches a corrected n that does not repair the
    counterexamples, or one that fred.sample_size does not return."""
    rows = {(r["p"], r["size"]): r for r in _values(result, "s6-corrected-n-at-the-counterexamples")["cases"]}
    assert {k: (r["n_corrected"], r["fred_sample_size"], r["n_paper"]) for k, r in rows.items()} == {
        ("9/20", 1): (6, 6, 5), ("1/10", 4): (29956, 29956, 3067), ("1/10", 5): (299572, 299572, 3067)}
    assert coverage_by_designs(6, Fraction(9, 20)) == 1 - Fraction(11, 20) ** 6 >= Fraction(19, 20)


# --------------------------------------------------------------------------- moved from test_lemma2.py


def test_lemma2_paper_n_is_too_small_for_p_below_half():
    """Lemma 2 with 1/2**l_max used at p = 0.05 (l_max = 1, alpha = 0.95): n = 5 rows cover a token with
    probability 1 - 0.95**5 = 0.226 < 0.95. Catches the p = 1/2 formula taken as general: fred.sample_size at
    p = 1/2 is the paper's 5, and at p = 0.05 it must return the minimal n on the definition (binary floats)."""
    n = math.ceil(math.log(0.05) / math.log(1 - 0.5))
    assert n == 5 == sample_size(0.95, 0.5, 1)
    assert 1 - (1 - Fraction(1, 20)) ** 5 == Fraction(723901, 3200000) < Fraction(95, 100)
    corrected, miss, a = sample_size(0.95, 0.05, 1), 1 - Fraction(0.05), Fraction(0.95)
    assert miss**corrected <= 1 - a < miss ** (corrected - 1) and corrected > n


@given(st.floats(0.5, 0.999), st.integers(1, 10), st.integers(1, 15).map(lambda k: k / 16))
def test_fred_sample_size_is_minimal(alpha, max_len, p):
    """Catches an off-by-one (n - 1 already enough, or n not enough) in fred.sample_size for any p."""
    assume(sample_size_numeric(alpha, p, max_len) <= 20_000)
    exact_alpha, exact_p = Fraction(alpha), Fraction(p)  # the floats' exact values
    miss = 1 - exact_p**max_len
    ratio = math.log1p(-alpha) / math.log1p(-(p**max_len))
    assume(abs(ratio - round(ratio)) > 1e-9)  # float logs cannot decide an exact boundary
    n = sample_size(alpha, p, max_len)
    assert n == sample_size_rational(exact_alpha, exact_p, max_len), f"alpha={alpha} l={max_len} p={p}"
    assert 1 - miss**n >= exact_alpha, f"n={n} does not reach alpha={alpha} (l={max_len}, p={p})"
    assert n == 1 or 1 - miss ** (n - 1) < exact_alpha, f"n-1={n - 1} already reaches alpha={alpha}"


def test_sample_size_is_minimal_at_exact_boundaries():
    """Regression: sample_size(0.99, 0.9, 1) returned 3 because 2*log(0.1) rounds above log(0.01); two rows
    already give coverage 1 - 0.1**2 >= 0.99 for the binary floats 0.9 and 0.99 (found by the lemma2 claim)."""
    from fractions import Fraction

    assert sample_size(0.99, 0.9, 1) == 2
    assert 1 - (1 - Fraction(0.9)) ** 2 >= Fraction(0.99)
    assert sample_size(0.75, 0.5, 1) == 2  # (1/2)**2 == 1 - 0.75 exactly: ">=" must accept equality
    assert sample_size(0.95, max_len=10) == 3067  # the paper's n ~ 3000
    # Exact boundaries where 50-digit logarithms get the sign of the gap wrong (about +1e-50): only the exact
    # rational comparison returns n rather than n + 1. alpha = 1 - (1 - p^l)^n exactly in binary.
    for alpha, size, p, n in [(0.9921875, 1, 0.5, 7), (0.7626953125, 2, 0.5, 5), (0.487091064453125, 3, 0.5, 5)]:
        assert 1 - (1 - Fraction(p) ** size) ** n == Fraction(alpha)
        assert sample_size(alpha, p, size) == n, (alpha, size, p)
