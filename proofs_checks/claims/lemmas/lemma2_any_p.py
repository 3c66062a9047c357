"""Lemma 2 beyond p = 1/2, this project's question: Algorithm 1 takes p as an input, but Lemma 2's n is computed
from 1/2**l_max and its proof fixes p = 1/2 (the paper does not claim its n for other p).

With another p a row perturbs a size-l candidate with probability p**l, so the paper's n covers it with
probability 1 - (1 - p**l)**n, which increases with p: enough exactly for p >= p*(alpha, l_max) =
(1 - (1 - alpha)**(1/n))**(1/l_max), a threshold at most 1/2 (the ceiling leaves some room below 1/2). The
corrected n, ceil(log(1 - alpha) / log(1 - p**l_max)), is fred.sample_size.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import strategies as st

from analytic import coverage_sym, covers, sample_size_sym
from analytic.referee import code_of, popcounts
from fred import sample_size
from fred.sampling import MAX_SAMPLES
from fred_constants import ALPHA_EXACT, MAX_LEN, P_EXACT

from ...verdicts.counterexamples import minimal_counterexample
from ...verdicts.results import Claim, ClaimResult, Quote, StepResult, hypotheses
from .lemma2_proof import (
    lemma2_conditions,
    paper_n,
    proof_binomial_identity,
    proof_row_probability,
    proof_smaller_candidates,
    proof_solve_for_n,
)

CLAIM = Claim("lemma2-any-p")
SOURCE = (
    Quote(404, r"\State \textbf{input} model $\model$, example $\xi$, threshold $\epsilon$, max\_len $\ell_{max}$, "
               r"p\_perturb $p$, n\_sample $n$"),
    Quote(355, r"\item for each sample, each token is independently selected with probability $p$;"),
    Quote(366, r"If the sample size $n$ is higher or equal than the quantity $\frac{\logs{1 - \alpha}}{\logs{1 - "
               r"1/2^{\ell_{max}}}}$, then, for any candidate $\candidate$ with size smaller or equal than "
               r"$\length_{max}$, there exists at least one sample not containing it, with probability higher or "
               r"equal than $\alpha$"),
    Quote(993, r"$\proba{\candidate \notin x_i} = \frac{1}{2^\length}$, since word removals are \emph{i.i.d.} with "
               r"probability $1/2$."),
    Quote(372, r"As \say{high probability,} we set by default $\alpha = 0.95$ and the token perturbation "
               r"probability $p=0.5$."),
    Quote(402, r"By default, we set $\epsilon=0.15$, $\ell_{max} = 10$, $p=0.5$, and compute the sample size $n$ "
               r"according to Lemma \ref{lemma:n-sample}."),
    Quote(1183, r"Comparison on a logistic classifier for Restaurant reviews ($p=0.1$, $\epsilon=0.15$)."),
)
STATEMENT = (
    "This project's extension; the paper does not claim it: Lemma 2's formula uses 1/2**l_max (line 366), its proof "
    "fixes 'word removals are i.i.d. with probability 1/2' (line 993), and the text pairs Lemma 2's n with the "
    "default p = 0.5 (lines 372, 402). Algorithm 1 takes p as an input ('p_perturb p', line 404) and the appendix "
    "tables run p = 0.1 (e.g. line 1183), so we ask whether Lemma 2's n = ceil(log(1 - alpha) / log(1 - "
    "1/2**l_max)), used with any p in (0, 1), covers any fixed candidate c with |c| <= l_max with probability "
    ">= alpha: P(exists i in [n]: c not in x_i) >= alpha."
)

#: The counterexample search: the paper's alpha, l_max = 1..10 and p on the grid k/20, p just below 1/2 first.
SEARCH_L_MAX = tuple(range(1, 11))
P_ORDER = tuple(Fraction(k, 20) for k in range(9, 0, -1)) + tuple(Fraction(k, 20) for k in range(10, 20))
#: p = 0.1 of the appendix tables, with Lemma 2's n at the defaults (alpha = 0.95, l_max = 10).
TABLES_P = Fraction(1, 10)
TABLES_SIZES = (4, 5, 10)
#: The thresholds p*(alpha, l_max) are bracketed between decimals of this many digits.
THRESHOLD_DIGITS = 12
#: The grid on which fred.sample_size is compared with the exact minimum (binary floats, as fred reads them).
GRID_ALPHAS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
GRID_PS = (0.1, 0.25, 0.3, 0.5, 0.7, 0.9)
GRID_LENGTHS = tuple(range(1, 13))
#: What a check computes (holds, values), and what the counterexample search returns (holds, values, example).
Checked = tuple[bool, dict]
Search = tuple[bool, dict, "dict | None"]


def statement_hypotheses(*, alpha, p, l_max: int, n: int, sizes) -> dict:
    """The extension's hypotheses computed on a case: p in (0, 1) (any p, the extension's own), alpha in (0, 1),
    l_max >= 1, each candidate of size 1..l_max, and n is Lemma 2's n (sympy's ceiling of the formula with
    1/2**l_max, hence also n >= the lemma's quantity); a :func:`hypotheses` record."""
    return hypotheses(p_in_open_unit_interval=0 < Fraction(p) < 1, n_is_lemma2s_ceiling=n == paper_n(alpha, l_max),
                      **lemma2_conditions(alpha, l_max, n, sizes))


def _order(l_max: int, p: Fraction) -> tuple[int, int]:
    """The order of 'smaller' cases: a smaller l_max (fewer tokens, fewer rows), then p closer to 1/2 from below."""
    return l_max, P_ORDER.index(p)


def _case_hypotheses(l_max: int, p: Fraction) -> dict:
    """The hypotheses record of a search case: one candidate of size l_max, Lemma 2's n, the paper's alpha."""
    return statement_hypotheses(alpha=ALPHA_EXACT, p=p, l_max=l_max, n=paper_n(ALPHA_EXACT, l_max), sizes=(l_max,))


def _breaks(case) -> bool:
    """A counterexample: inside the extension's hypotheses, and the candidate is covered with probability < alpha."""
    l_max, p = case
    return (_case_hypotheses(l_max, p)["satisfies_hypotheses"]
            and coverage_sym(paper_n(ALPHA_EXACT, l_max), p, l_max) < ALPHA_EXACT)


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


def _counterexample() -> Search:
    """Search, confirm by enumerating designs, and check minimality over every smaller case of the grid."""
    found = minimal_counterexample(st.tuples(st.sampled_from(SEARCH_L_MAX), st.sampled_from(P_ORDER)), _breaks)
    sweep = {(l, p): _breaks((l, p)) for l in SEARCH_L_MAX for p in P_ORDER}
    grid = {"alpha": str(ALPHA_EXACT), "l_max": list(SEARCH_L_MAX), "p": [str(p) for p in P_ORDER],
            "smaller": "smaller l_max first, then p closer to 1/2 from below (9/20, 8/20, ..., 1/20), then p >= 1/2",
            "failing_cases": sum(sweep.values()), "cases": len(sweep),
            "fails_for_every_p_below_half": all(sweep[(l, p)] for l in SEARCH_L_MAX for p in P_ORDER if p < 1 / 2),
            "holds_for_every_p_at_least_half": not any(sweep[(l, p)] for l in SEARCH_L_MAX for p in P_ORDER
                                                       if p >= 1 / 2)}
    if found is None:
        inside = all(_case_hypotheses(*case)["satisfies_hypotheses"] for case in sweep)
        return True, dict(grid, found=None, **hypotheses(every_searched_case_inside_hypotheses=inside)), None
    l_max, p = found
    n = paper_n(ALPHA_EXACT, l_max)
    closed = coverage_sym(n, p, l_max)
    enumerated = coverage_by_enumeration(n, p, l_max)
    confirmed = enumerated == closed and enumerated < ALPHA_EXACT
    smaller = [c for c in sweep if _order(*c) < _order(l_max, p)]
    minimal = not any(sweep[c] for c in smaller)
    record = _case_hypotheses(l_max, p)
    example = {**record, "p": float(p), "p_exact": str(p), "l_max": l_max, "alpha": float(ALPHA_EXACT), "n_paper": n,
               "coverage": float(enumerated), "coverage_exact": str(enumerated),
               "lemma2_own_hypothesis_p_is_one_half": p == P_EXACT,
               "note": "Lemma 2's n (from 1/2**l_max) used with perturbation probability p: a counterexample to this "
                       "project's extension, not to Lemma 2, whose hypothesis p = 1/2 it does not satisfy"}
    values = dict(grid, **record, found=example,
                  confirmed_by=f"enumeration of all {(2 ** l_max) ** n} designs in Fractions",
                  confirmed=confirmed, minimal=minimal, smaller_cases_checked=len(smaller))
    return not confirmed, values, example


def _tables_p() -> Checked:
    """p = 0.1 (the appendix tables) with Lemma 2's n at the defaults: coverage of one candidate of size 4, 5, 10,
    in Fractions, and the n each would need."""
    n = paper_n(ALPHA_EXACT, MAX_LEN)
    rows, short = [], []
    for size in TABLES_SIZES:
        needed = sample_size_sym(sp.Rational(ALPHA_EXACT), sp.Rational(TABLES_P), size)
        cov = coverage_sym(n, TABLES_P, size)
        with mpmath.workdps(30):
            decimal = mpmath.nstr(mpmath.mpf(cov.numerator) / cov.denominator, 12)
        record = statement_hypotheses(alpha=ALPHA_EXACT, p=TABLES_P, l_max=MAX_LEN, n=n, sizes=(size,))
        rows.append({**record, "size": size, "n": n, "coverage": float(cov), "coverage_12_digits": decimal,
                     "n_needed_for_alpha": int(needed)})
        if record["satisfies_hypotheses"] and cov < ALPHA_EXACT:
            short.append(size)
    return not short, {"p": str(TABLES_P), "alpha": str(ALPHA_EXACT), "l_max": MAX_LEN, "n_paper": n,
                       "which_n_the_tables_used": "not stated by the paper", "cases": rows,
                       "below_alpha": len(short), "below_alpha_sizes": short}


def _thresholds() -> Checked:
    """Where Lemma 2's n stops covering, at alpha = 0.95 and l_max = 1..10.

    Coverage 1 - (1 - p**l)**n increases with p (step s3), so n covers exactly for p >= p* = (1 - (1 -
    alpha)**(1/n))**(1/l): sympy checks coverage(p*) = alpha exactly, and the decimals lo < p* < hi of
    THRESHOLD_DIGITS digits are checked exactly (:func:`analytic.covers`): lo does not cover, hi does.
    p* <= 1/2 because n >= log(1 - alpha) / log(1 - 1/2**l).
    """
    rows, wrong = [], []
    scale = 10**THRESHOLD_DIGITS
    for l_max in SEARCH_L_MAX:
        n = paper_n(ALPHA_EXACT, l_max)
        a = sp.Rational(ALPHA_EXACT)
        p_star = (1 - (1 - a) ** sp.Rational(1, n)) ** sp.Rational(1, l_max)
        residual = sp.simplify(1 - (1 - p_star**l_max) ** n - a)
        lo = Fraction(int(sp.floor(p_star * scale)), scale)
        hi = lo + Fraction(1, scale)
        ok = (residual == 0 and not covers(ALPHA_EXACT, n, lo, l_max) and covers(ALPHA_EXACT, n, hi, l_max)
              and hi <= P_EXACT)
        rows.append({"l_max": l_max, "n_paper": n, "p_star": f"(1 - (1 - alpha)**(1/{n}))**(1/{l_max})",
                     "p_star_decimal": str(sp.N(p_star, THRESHOLD_DIGITS + 3)), "bracket": [str(lo), str(hi)],
                     "bracket_decimal": [str(Decimal(x.numerator) / Decimal(x.denominator)) for x in (lo, hi)],
                     "coverage_at_p_star_minus_alpha": str(residual), "brackets_and_below_half": ok})
        if not ok:
            wrong.append(l_max)
    return not wrong, {"alpha": str(ALPHA_EXACT), "digits": THRESHOLD_DIGITS, "cases": rows, "violations": wrong}


def check() -> ClaimResult:
    """The minimal counterexample (p < 1/2), p = 0.1 of the tables, the exact thresholds, the general n proved."""
    counterexample, tables, thresholds = _counterexample(), _tables_p(), _thresholds()
    steps = (
        counterexample_below_half(counterexample, thresholds),
        paper_p_one_tenth(tables),
        coverage_increases_with_p(),
        general_n_covers(),
        sample_size_is_minimal(),
        corrected_n_at_the_counterexamples(counterexample, tables),
        threshold_below_half(thresholds),
    )
    return CLAIM.result(kind="extension", statement=STATEMENT, conditions=_conditions(tables),
                        counterexample=counterexample[2], steps=steps, corrected=_corrected(thresholds),
                        source=SOURCE)


def _by(rows: list[dict], key: str) -> dict:
    """The rows of a step's values by one of their fields."""
    return {r[key]: r for r in rows}


def counterexample_below_half(counterexample: Search, thresholds: Checked) -> StepResult:
    """s1: the minimal counterexample of the search, inside the extension's hypotheses."""
    holds, seen, _ = counterexample
    found, star = seen.get("found"), _by(thresholds[1]["cases"], "l_max")
    if found is None:
        found_note = "no counterexample found"
    else:
        largest = max(p for p in P_ORDER if p < Fraction(star[found["l_max"]]["bracket"][0]))
        found_note = (
            f"Lemma 2's n at alpha = 0.95, l_max = {found['l_max']} (n = {found['n_paper']}) with p = "
            f"{found['p_exact']} covers the candidate with probability {found['coverage_exact']} = "
            f"{found['coverage']:.5f} < 0.95 (confirmed by enumerating all designs in Fractions). Inside the "
            f"extension's hypotheses (computed: {found['satisfies_hypotheses']}); outside Lemma 2's own p = 1/2. "
            f"Minimal ({seen['minimal']}) in the order: smaller l_max first, then, on the grid k/20, p closer to 1/2 "
            f"from below: the largest k/20 below the threshold p*(0.95, {found['l_max']}) of step s7 is {largest}")
    return CLAIM.checked(
        "s1-counterexample-below-half", "statement", "counterexample",
        f"Hypothesis search, inside the extension's hypotheses, over l_max in 1..10 and p in {{1/20, ..., 19/20}} at "
        f"alpha = 0.95: {found_note}. On this grid (which has no p strictly between 9/20 and 1/2) every p < 1/2 fails "
        f"({seen['fails_for_every_p_below_half']}) and every p >= 1/2 covers "
        f"({seen['holds_for_every_p_at_least_half']}); off the grid, see step s7.", holds=holds, values=seen)


def paper_p_one_tenth(tables: Checked) -> StepResult:
    """s2: p = 0.1 of the appendix tables with Lemma 2's n at the defaults, in Fractions."""
    holds, seen = tables
    by = _by(seen["cases"], "size")
    sizes = "; ".join(f"|c| = {size}: {by[size]['coverage_12_digits']} ({by[size]['n_needed_for_alpha']} rows "
                      "needed)" for size in TABLES_SIZES)
    return CLAIM.checked(
        "s2-paper-p-one-tenth", "statement", "exhaustive",
        f"If Lemma 2's n at the defaults (n = {seen['n_paper']}: alpha = 0.95, l_max = 10) were used with p = 0.1, "
        "the p of the appendix tables (the paper does not say which n those runs used), one candidate would be "
        f"covered, 1 - (1 - 0.1**|c|)**n in Fractions: {sizes}. {seen['below_alpha']} of the {len(seen['cases'])} "
        "cases are below alpha = 0.95.", holds=holds, values=seen)


def coverage_increases_with_p() -> StepResult:
    """s3: d/dp [1 - (1 - p^l)^n] = l n p^(l-1) (1 - p^l)^(n-1) > 0 (sympy, with s = 1 - p^l > 0)."""
    p, s, ell, n = sp.symbols("p s ell n", positive=True)
    derivative = sp.diff(1 - (1 - p**ell) ** n, p)
    as_s = sp.simplify(derivative.subs(1 - p**ell, s))
    return CLAIM.checked(
        "s3-coverage-increases-with-p", "proof", "symbolic",
        "d/dp [1 - (1 - p**l)**n] = l n p**(l-1) (1 - p**l)**(n-1) > 0 on (0,1) (sympy, with s = 1 - p**l > 0): "
        "coverage increases with p, so Lemma 2's n (which covers at p = 1/2, claim lemma2) covers at every p >= 1/2.",
        holds=as_s.is_positive is True,
        values={"d_coverage_dp": str(derivative), "with_s_equal_1_minus_p_pow_l": str(as_s),
                "is_positive": as_s.is_positive is True})


def general_n_covers() -> StepResult:
    """s4: Lemma 2's proof with p left symbolic (:mod:`proofs_checks.claims.lemmas.lemma2_proof`, also the proof steps
    of claim lemma2)."""
    parts = {"row_probability_p_pow_l": proof_row_probability(), "binomial_identity": proof_binomial_identity(),
             "solve_for_n_with_q_p_pow_l_max": proof_solve_for_n(),
             "smaller_candidates": proof_smaller_candidates()}
    return CLAIM.checked(
        "s4-general-n-covers", "proof", "symbolic",
        "Lemma 2's proof for any p in (0,1) (p symbolic; proofs_checks.claims.lemmas.lemma2_proof, the steps of claim "
        "lemma2): one row perturbs c with probability p**|c|, n rows cover it with probability 1 - (1 - p**|c|)**n "
        "(binomial identity), >= alpha <=> n >= log(1-alpha)/log(1-p**l_max) for |c| = l_max, and smaller candidates "
        "are covered at least as well; so n(p) = ceil(log(1-alpha)/log(1-p**l_max)) covers with probability >= alpha, "
        "and no smaller n does.",
        holds=all(ok for ok, _ in parts.values()), values={name: dict(v, holds=ok) for name, (ok, v) in parts.items()})


def sample_size_is_minimal() -> StepResult:
    """s5: fred.sample_size(alpha, p, l) is the smallest n with coverage >= alpha on every case of the grid; it may
    refuse a case only when that minimum exceeds fred's MAX_SAMPLES."""
    wrong, refused, accepted = [], [], 0
    for a, p, size in itertools.product(GRID_ALPHAS, GRID_PS, GRID_LENGTHS):
        try:
            n = sample_size(a, p, size)
        except ValueError:
            refused.append([a, p, size])
            if covers(a, MAX_SAMPLES, p, size):  # the minimum is <= MAX_SAMPLES: a wrong refusal
                wrong.append([a, p, size, "refused"])
            continue
        accepted += 1
        if not (covers(a, n, p, size) and (n == 1 or not covers(a, n - 1, p, size))):
            wrong.append([a, p, size, n])
    return CLAIM.checked(
        "s5-sample-size-is-minimal", "correction", "exhaustive",
        f"fred.sample_size(alpha, p, l) is the exact minimum n(p): coverage(n) >= alpha and coverage(n-1) < alpha on "
        f"all {accepted} cases it accepts of alpha in {GRID_ALPHAS}, p in {GRID_PS}, l in 1..{GRID_LENGTHS[-1]}; the "
        f"{len(refused)} cases it refuses need more than MAX_SAMPLES = {MAX_SAMPLES} rows. Decided exactly for the "
        f"binary floats; violations: {len(wrong)}.", holds=not wrong,
        values={"alphas": list(GRID_ALPHAS), "ps": list(GRID_PS), "lengths": list(GRID_LENGTHS),
                "cases_checked": accepted, "max_samples": MAX_SAMPLES, "refused_above_max_samples": refused,
                "violations": wrong,
                "arithmetic": "exact values of the binary floats: Fractions for n <= 400, a 400-bit interval "
                              "enclosure of n log(1 - p^l) - log(1 - alpha) above (Fractions if it contains 0)"})


def corrected_n_at_the_counterexamples(counterexample: Search, tables: Checked) -> StepResult:
    """s6: the corrected n(p) (sympy's ceiling of the formula, decimals read exactly) where Lemma 2's n failed: at the
    counterexample and at p = 0.1 of the tables; it covers, n(p) - 1 does not, and fred.sample_size returns it."""
    example, rows, wrong = counterexample[2], [], []
    failed = [(Fraction(example["p_exact"]), example["l_max"], example["n_paper"])] if example else []
    # fred.sample_size refuses beyond MAX_SAMPLES rows (|c| = 10 at p = 0.1 needs about 3e10): those stay out
    failed += [(TABLES_P, r["size"], r["n"]) for r in tables[1]["cases"]
               if r["size"] in tables[1]["below_alpha_sizes"] and r["n_needed_for_alpha"] <= MAX_SAMPLES]
    for p, size, n_paper in failed:
        n = int(sample_size_sym(sp.Rational(ALPHA_EXACT), sp.Rational(p), size))
        fred_n = sample_size(float(ALPHA_EXACT), float(p), size)
        ok = covers(ALPHA_EXACT, n, p, size) and not covers(ALPHA_EXACT, n - 1, p, size) and fred_n == n
        rows.append({"alpha": str(ALPHA_EXACT), "p": str(p), "size": size, "n_corrected": n,
                     "fred_sample_size": fred_n, "n_paper": n_paper, "minimal_and_covers": ok})
        if not ok:
            wrong.append(rows[-1])
    return CLAIM.checked(
        "s6-corrected-n-at-the-counterexamples", "correction", "exhaustive",
        "The corrected n(p) where Lemma 2's n failed (alpha = 0.95): "
        + "; ".join(f"p = {r['p']}, |c| = {r['size']}: n(p) = {r['n_corrected']} (Lemma 2's n {r['n_paper']})"
                    for r in rows)
        + ". Each covers with probability >= alpha, n(p) - 1 does not (Fractions, or a 400-bit interval for n > 400), "
        "and fred.sample_size returns it.", holds=not wrong, values={"cases": rows, "violations": len(wrong)})


def threshold_below_half(thresholds: Checked) -> StepResult:
    """s7: the exact threshold p* below which Lemma 2's n stops covering, bracketed by decimals, and p* <= 1/2."""
    holds, seen = thresholds
    star = _by(seen["cases"], "l_max")
    brackets = "; ".join(f"l_max = {l} (n = {star[l]['n_paper']}): p* in [{', '.join(star[l]['bracket_decimal'])}]"
                         for l in (1, MAX_LEN))
    return CLAIM.checked(
        "s7-threshold-below-half", "correction", "exhaustive",
        "Exactly which p Lemma 2's n serves, at alpha = 0.95, l_max = 1..10: coverage increases with p (s3), so n "
        "covers exactly for p >= p*(alpha, l_max) = (1 - (1 - alpha)**(1/n))**(1/l_max); sympy gives coverage(p*) = "
        "alpha exactly, and 12-digit decimals lo < p* < hi are checked exactly (lo does not cover, hi does, hi <= "
        f"1/2): {brackets}. Because n is a ceiling above the lemma's quantity, p* < 1/2 in every case here: Lemma 2's "
        f"n still serves slightly below 1/2; violations: {len(seen['violations'])}.", holds=holds, values=seen)


def _corrected(thresholds: Checked) -> str:
    """The corrected statement, with p* at l_max = 1 and at the defaults from step s7."""
    star = _by(thresholds[1]["cases"], "l_max")
    return (
        "n(p) = ceil(log(1 - alpha) / log(1 - p**l_max)) rows cover any fixed candidate with |c| <= l_max with "
        "probability >= alpha, for any p in (0, 1), and no smaller n does (fred.sample_size computes it). Lemma 2's n "
        "(from 1/2**l_max) serves exactly the p >= p*(alpha, l_max) = (1 - (1 - alpha)**(1/n))**(1/l_max), which is "
        f"at most 1/2: at alpha = 0.95, p* = {float(Fraction(star[1]['bracket'][0])):.5f} for l_max = 1 (n = "
        f"{star[1]['n_paper']}) and {float(Fraction(star[MAX_LEN]['bracket'][0])):.8f} at the defaults l_max = 10 "
        f"(n = {star[MAX_LEN]['n_paper']})."
    )


def _conditions(tables: Checked) -> str:
    """The conditions, with the corrected n at p = 0.1, |c| = 10 from step s2."""
    return (
        "This project's question, not a claim of the paper (its proof fixes p = 1/2, line 993). Lemma 2's n extends "
        "to every p >= p*(alpha, l_max), a threshold at most 1/2 (steps s3, s7), and to no p < p*: at alpha = 0.95 "
        "every p < 1/2 of the grid k/20 fails (step s1), and so would p = 0.1, the p of the appendix tables, if those "
        "runs used Lemma 2's n (step s2). The corrected n grows like log(1/(1-alpha)) / p**l_max: at p = 0.1, |c| = "
        f"10 it is {_by(tables[1]['cases'], 'size')[MAX_LEN]['n_needed_for_alpha']} rows."
    )
