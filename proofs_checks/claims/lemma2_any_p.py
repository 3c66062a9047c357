"""Lemma 2 beyond p = 1/2: Algorithm 1 takes p as an input, but the paper's n is computed from 1/2**l_max.

With another p a row perturbs a size-l candidate with probability p**l, so the paper's n covers it with
probability 1 - (1 - p**l)**n: enough for p >= 1/2, too little for p < 1/2 (the paper's own appendix runs
p = 0.1). The corrected n, ceil(log(1 - alpha) / log(1 - p**l_max)), is fred.sample_size.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import strategies as st

from analytic import coverage_sym, covers, sample_size_sym
from analytic.referee import code_of, popcounts
from fred import sample_size
from fred.sampling import MAX_SAMPLES

from ..counterexamples import minimal_counterexample
from ..results import ClaimResult, checked
from .lemma2 import (
    paper_n,
    proof_binomial_identity,
    proof_row_probability,
    proof_smaller_candidates,
    proof_solve_for_n,
)

CLAIM = "lemma2-any-p"
STATEMENT = (
    "Algorithm 1 takes the perturbation probability p as an input: Lemma 2's n = ceil(log(1 - alpha) / "
    "log(1 - 1/2**l_max)), used with any p in (0, 1), covers any fixed candidate c with |c| <= l_max with "
    "probability >= alpha: P(exists i in [n]: c not in x_i) >= alpha."
)
CORRECTED = (
    "n = ceil(log(1 - alpha) / log(1 - p**l_max)) rows cover any fixed candidate with |c| <= l_max with "
    "probability >= alpha, for any p in (0, 1), and this n is the smallest that does (fred.sample_size computes "
    "it); the paper's n (from 1/2**l_max) is enough for every p >= 1/2 and not for p < 1/2 in general."
)

#: The counterexample search: the paper's alpha, l_max = 1..10 and p on the grid k/20, p just below 1/2 first.
ALPHA = Fraction(19, 20)
SEARCH_L_MAX = tuple(range(1, 11))
P_ORDER = tuple(Fraction(k, 20) for k in range(9, 0, -1)) + tuple(Fraction(k, 20) for k in range(10, 20))
#: The paper's own p = 0.1 (appendix tables), its n at alpha = 0.95, l_max = 10, and n = 5000 (the authors' n).
PAPER_P = Fraction(1, 10)
PAPER_SIZES = (4, 5, 10)
PAPER_NS = (3067, 5000)
#: The grid on which fred.sample_size is compared with the exact minimum (binary floats, as fred reads them).
GRID_ALPHAS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
GRID_PS = (0.1, 0.25, 0.3, 0.5, 0.7, 0.9)
GRID_LENGTHS = tuple(range(1, 13))


def _order(l_max: int, p: Fraction) -> tuple[int, int]:
    """The order of 'smaller' cases: a smaller l_max (fewer tokens, fewer rows), then p closer to 1/2 from below."""
    return l_max, P_ORDER.index(p)


def _breaks(case) -> bool:
    l_max, p = case
    return coverage_sym(paper_n(ALPHA, l_max), p, l_max) < ALPHA


def coverage_by_enumeration(n: int, p: Fraction, size: int) -> Fraction:
    """P(some of n rows perturbs all of a size-``size`` document), summing every design of n rows in Fractions.

    A row is one of the 2**size pattern codes of the referee (:mod:`analytic.referee`), of probability
    p^k (1-p)^(size-k) with k perturbed positions; a design covers the candidate when some row is the full code.
    """
    if (2**size) ** n > 2**20:
        raise ValueError(f"{(2 ** size) ** n} designs: too many to enumerate")
    k = popcounts(size)
    weight = [p ** int(k[c]) * (1 - p) ** (size - int(k[c])) for c in range(2**size)]
    full = code_of(range(size))
    total = Fraction(0)
    for design in itertools.product(range(2**size), repeat=n):
        if full in design:
            w = Fraction(1)
            for c in design:
                w *= weight[c]
            total += w
    return total


def _counterexample() -> tuple[bool, dict, dict | None]:
    """Search, confirm by enumerating designs, and check minimality over every smaller case of the grid."""
    found = minimal_counterexample(st.tuples(st.sampled_from(SEARCH_L_MAX), st.sampled_from(P_ORDER)), _breaks)
    sweep = {(l, p): _breaks((l, p)) for l in SEARCH_L_MAX for p in P_ORDER}
    grid = {"alpha": str(ALPHA), "l_max": list(SEARCH_L_MAX), "p": [str(p) for p in P_ORDER],
            "smaller": "smaller l_max first, then p closer to 1/2 from below (9/20, 8/20, ..., 1/20), then p >= 1/2",
            "failing_cases": sum(sweep.values()), "cases": len(sweep),
            "fails_for_every_p_below_half": all(sweep[(l, p)] for l in SEARCH_L_MAX for p in P_ORDER if p < 1 / 2),
            "holds_for_every_p_at_least_half": not any(sweep[(l, p)] for l in SEARCH_L_MAX for p in P_ORDER
                                                       if p >= 1 / 2)}
    if found is None:
        return True, dict(grid, found=None), None
    l_max, p = found
    n = paper_n(ALPHA, l_max)
    closed = coverage_sym(n, p, l_max)
    enumerated = coverage_by_enumeration(n, p, l_max)
    confirmed = enumerated == closed and enumerated < ALPHA
    smaller = [c for c in sweep if _order(*c) < _order(l_max, p)]
    minimal = not any(sweep[c] for c in smaller)
    example = {"p": float(p), "p_exact": str(p), "l_max": l_max, "alpha": float(ALPHA), "n_paper": n,
               "coverage": float(enumerated), "coverage_exact": str(enumerated),
               "note": "n from the paper's formula (1/2**l_max) used with perturbation probability p"}
    values = dict(grid, found=example, confirmed_by=f"enumeration of all {(2 ** l_max) ** n} designs in Fractions",
                  confirmed=confirmed, minimal=minimal, smaller_cases_checked=len(smaller))
    return not confirmed, values, example


def _paper_p() -> tuple[bool, dict]:
    """The paper's p = 0.1: coverage of one candidate of size 4, 5, 10 with n = 3067 and n = 5000, in Fractions."""
    rows, short = [], []
    for size in PAPER_SIZES:
        needed = sample_size_sym(sp.Rational(19, 20), sp.Rational(1, 10), size)
        for n in PAPER_NS:
            cov = coverage_sym(n, PAPER_P, size)
            with mpmath.workdps(30):
                decimal = mpmath.nstr(mpmath.mpf(cov.numerator) / cov.denominator, 12)
            rows.append({"size": size, "n": n, "coverage": float(cov), "coverage_12_digits": decimal,
                         "n_needed_for_alpha": int(needed)})
            if cov < ALPHA:
                short.append((size, n))
    return not short, {"p": "1/10", "alpha": "19/20", "l_max": 10, "n_paper": paper_n(ALPHA, 10),
                       "n_authors": 5000, "cases": rows, "below_alpha": len(short)}


def _coverage_increases_with_p() -> tuple[bool, dict]:
    """d/dp [1 - (1 - p^l)^n] = l n p^(l-1) (1 - p^l)^(n-1) > 0 (sympy, with s = 1 - p^l > 0)."""
    p, s, ell, n = sp.symbols("p s ell n", positive=True)
    derivative = sp.diff(1 - (1 - p**ell) ** n, p)
    as_s = sp.simplify(derivative.subs(1 - p**ell, s))
    return as_s.is_positive is True, {"d_coverage_dp": str(derivative), "with_s_equal_1_minus_p_pow_l": str(as_s),
                      "is_positive": as_s.is_positive is True}


def _general_n_covers() -> tuple[bool, dict]:
    """Lemma 2's proof with p left symbolic (the steps of claim lemma2, reused)."""
    parts = {"row_probability_p_pow_l": proof_row_probability(), "binomial_identity": proof_binomial_identity(),
             "solve_for_n_with_q_p_pow_l_max": proof_solve_for_n(),
             "smaller_candidates": proof_smaller_candidates()}
    return all(ok for ok, _ in parts.values()), {name: dict(v, holds=ok) for name, (ok, v) in parts.items()}


def _sample_size_is_minimal() -> tuple[bool, dict]:
    """fred.sample_size(alpha, p, l) is the smallest n with coverage >= alpha on every case of the grid; it may
    refuse a case only when that minimum exceeds fred's MAX_SAMPLES."""
    wrong, refused, checked_ = [], [], 0
    for a, p, size in itertools.product(GRID_ALPHAS, GRID_PS, GRID_LENGTHS):
        try:
            n = sample_size(a, p, size)
        except ValueError:
            refused.append([a, p, size])
            if covers(a, MAX_SAMPLES, p, size):  # the minimum is <= MAX_SAMPLES: a wrong refusal
                wrong.append([a, p, size, "refused"])
            continue
        checked_ += 1
        if not (covers(a, n, p, size) and (n == 1 or not covers(a, n - 1, p, size))):
            wrong.append([a, p, size, n])
    return not wrong, {"alphas": list(GRID_ALPHAS), "ps": list(GRID_PS), "lengths": list(GRID_LENGTHS),
                       "cases_checked": checked_, "max_samples": MAX_SAMPLES,
                       "refused_above_max_samples": refused, "violations": wrong,
                       "arithmetic": "exact values of the binary floats: Fractions for n <= 400, a 400-bit "
                                     "interval enclosure of n log(1 - p^l) - log(1 - alpha) above (Fractions "
                                     "if it contains 0)"}


def _corrected_n_at_the_counterexamples() -> tuple[bool, dict]:
    """The corrected n(p) (sympy's ceiling of the formula, decimals read exactly) on the cases that broke the paper's
    n: it covers, n(p) - 1 does not, and fred.sample_size returns it."""
    rows, wrong = [], []
    for alpha, p, size in ((ALPHA, Fraction(9, 20), 1), (ALPHA, PAPER_P, 4), (ALPHA, PAPER_P, 5)):
        n = int(sample_size_sym(sp.Rational(alpha), sp.Rational(p), size))
        fred_n = sample_size(float(alpha), float(p), size)
        ok = covers(alpha, n, p, size) and not covers(alpha, n - 1, p, size) and fred_n == n
        rows.append({"alpha": str(alpha), "p": str(p), "size": size, "n_corrected": n, "fred_sample_size": fred_n,
                     "n_paper": paper_n(ALPHA, 10 if p == PAPER_P else size), "minimal_and_covers": ok})
        if not ok:
            wrong.append(rows[-1])
    return not wrong, {"cases": rows, "violations": len(wrong)}


def check() -> ClaimResult:
    """Counterexamples to the paper's n with p < 1/2 (minimal, and at the paper's p = 0.1); the general n proved."""
    ce_holds, ce_values, example = _counterexample()
    paper_holds, paper_values = _paper_p()
    increase_ok, increase_values = _coverage_increases_with_p()
    general_ok, general_values = _general_n_covers()
    minimal_ok, minimal_values = _sample_size_is_minimal()
    fixed_ok, fixed_values = _corrected_n_at_the_counterexamples()
    found = ce_values.get("found")
    ce_note = ("no counterexample found" if found is None else
               f"the paper's n at alpha = 0.95, l_max = {found['l_max']} (n = {found['n_paper']}) with "
               f"p = {found['p_exact']} covers the candidate with probability {found['coverage_exact']} = "
               f"{found['coverage']:.5f} < 0.95 (confirmed by enumerating all designs in Fractions; minimal: "
               f"{ce_values['minimal']}, nothing is smaller in the order: smaller l_max, then p closer to 1/2 "
               "from below)")
    by = {(r["size"], r["n"]): r for r in paper_values["cases"]}
    paper_note = "; ".join(
        f"|c| = {size}: {by[(size, 3067)]['coverage_12_digits']} with n = 3067, "
        f"{by[(size, 5000)]['coverage_12_digits']} with n = 5000 (n = {by[(size, 3067)]['n_needed_for_alpha']} "
        "needed)" for size in PAPER_SIZES)
    steps = (
        checked(f"{CLAIM}.s1-counterexample-below-half", CLAIM, "statement", "counterexample",
                f"Hypothesis search over l_max in 1..10 and p in {{1/20, ..., 19/20}} at the paper's alpha = 0.95: "
                f"{ce_note}. The whole grid in Fractions: the paper's n fails for every p < 1/2 "
                f"({ce_values['fails_for_every_p_below_half']}) and holds for every p >= 1/2 "
                f"({ce_values['holds_for_every_p_at_least_half']}).",
                holds=ce_holds, values=ce_values),
        checked(f"{CLAIM}.s2-paper-p-one-tenth", CLAIM, "statement", "exhaustive",
                "The paper's own p = 0.1 (its appendix tables) with its n = 3067 (alpha = 0.95, l_max = 10) and with "
                f"the authors' n = 5000, one candidate, coverage 1 - (1 - 0.1**|c|)**n in Fractions: {paper_note}. "
                f"{paper_values['below_alpha']} of the {len(paper_values['cases'])} cases are below alpha = 0.95.",
                holds=paper_holds, values=paper_values),
        checked(f"{CLAIM}.s3-coverage-increases-with-p", CLAIM, "proof", "symbolic",
                "d/dp [1 - (1 - p**l)**n] = l n p**(l-1) (1 - p**l)**(n-1) > 0 on (0,1) (sympy, with s = 1 - p**l "
                "> 0): coverage increases with p, so the paper's n (which covers at p = 1/2, claim lemma2) covers "
                "at every p >= 1/2.", holds=increase_ok, values=increase_values),
        checked(f"{CLAIM}.s4-general-n-covers", CLAIM, "proof", "symbolic",
                "Lemma 2's proof for any p in (0,1) (claim lemma2's steps s1-s4, p symbolic): one row perturbs c with "
                "probability p**|c|, n rows cover it with probability 1 - (1 - p**|c|)**n (binomial identity), "
                ">= alpha <=> n >= log(1-alpha)/log(1-p**l_max) for |c| = l_max, and smaller candidates are "
                "covered at least as well; so n(p) = ceil(log(1-alpha)/log(1-p**l_max)) covers with probability "
                ">= alpha, and no smaller n does.", holds=general_ok, values=general_values),
        checked(f"{CLAIM}.s5-sample-size-is-minimal", CLAIM, "correction", "exhaustive",
                f"fred.sample_size(alpha, p, l) is the exact minimum n(p): coverage(n) >= alpha and coverage(n-1) < "
                f"alpha on all {minimal_values['cases_checked']} cases it accepts of alpha in {GRID_ALPHAS}, p in "
                f"{GRID_PS}, l in 1..{GRID_LENGTHS[-1]}; the {len(minimal_values['refused_above_max_samples'])} "
                f"cases it refuses need more than MAX_SAMPLES = {MAX_SAMPLES} rows. Decided exactly for the binary "
                f"floats; violations: {len(minimal_values['violations'])}.", holds=minimal_ok, values=minimal_values),
        checked(f"{CLAIM}.s6-corrected-n-at-the-counterexamples", CLAIM, "correction", "exhaustive",
                "The corrected n(p) where the paper's n failed (alpha = 0.95): "
                + "; ".join(f"p = {r['p']}, |c| = {r['size']}: n(p) = {r['n_corrected']} (paper's n "
                            f"{r['n_paper']})" for r in fixed_values["cases"])
                + ". Each covers with probability >= alpha, n(p) - 1 does not (Fractions, or a 400-bit interval for "
                "n > 400), and fred.sample_size returns it.", holds=fixed_ok, values=fixed_values),
    )
    return ClaimResult(
        id=CLAIM,
        kind="extension",
        statement=STATEMENT,
        conditions="Holds as written for every p >= 1/2 (coverage increases with p, step s3) and fails for p < 1/2 "
                   "(every p < 1/2 of the grid k/20, step s1; the paper's own p = 0.1, step s2). The corrected n "
                   "grows like log(1/(1-alpha)) / p**l_max: at p = 0.1, l_max = 10 it is about 3.0e10 rows.",
        counterexample=example,
        steps=steps,
        corrected=CORRECTED,
    )
