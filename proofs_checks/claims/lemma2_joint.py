"""Section 2.3's reading of Lemma 2: "for each c in C, n_c >= 1 with probability higher than alpha", read jointly.

Lemma 2 covers one fixed candidate. Read as "all candidates of size <= l_max are covered at once", the
sentence fails as soon as the document has more than l_max tokens; it holds when b <= l_max, where the
whole document is itself a candidate and covering it covers every candidate.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import strategies as st

from analytic import joint_coverage, joint_coverage_all_sizes, joint_coverage_upper_bound

from ..counterexamples import minimal_counterexample
from ..results import ClaimResult, argued, checked
from .lemma2 import (
    paper_n,
    proof_binomial_identity,
    proof_row_probability,
    proof_smaller_candidates,
    proof_solve_for_n,
)

CLAIM = "lemma2-joint"
STATEMENT = (
    "Section 2.3: the sample size n of Lemma 2 (p = 1/2) is such that 'for each c in C, n_c >= 1 with probability "
    "higher than alpha', read jointly: all candidates c of size <= l_max of a b-token document are entirely "
    "perturbed in some row at once, P(for all c in C, exists i in [n]: c not in x_i) >= alpha."
)
CORRECTED = (
    "When the document has b <= l_max tokens (p = 1/2, n from Lemma 2), all candidates are covered at once exactly "
    "when the whole document is perturbed in some row, with probability 1 - (1 - 1/2**b)**n >= "
    "1 - (1 - 1/2**l_max)**n >= alpha. For b > l_max the guarantee is per candidate only."
)

ALPHA = Fraction(19, 20)
HALF = Fraction(1, 2)
#: The counterexample search: documents of b = 1..5 tokens, l_max = 1..4, at the paper's alpha and p.
SEARCH_B = tuple(range(1, 6))
SEARCH_L_MAX = tuple(range(1, 5))
#: The paper's defaults for the second-moment bound.
DEFAULT_L_MAX, DEFAULT_N, DEFAULT_BS = 10, 3067, (15, 20, 150)
#: The grid of the correction: b = 1..4 tokens, l_max = b..6, these alphas, p = 1/2.
GRID_B = tuple(range(1, 5))
GRID_L_MAX = 6
GRID_ALPHAS = ("0.5", "0.8", "0.9", "0.95", "0.99")


def _joint(b: int, l_max: int) -> Fraction:
    """Inclusion-exclusion over the candidates of the largest size min(l_max, b), at the paper's n and p = 1/2."""
    return joint_coverage(b, paper_n(ALPHA, l_max), HALF, min(l_max, b))


def _counterexample() -> tuple[bool, dict, dict | None]:
    found = minimal_counterexample(st.tuples(st.sampled_from(SEARCH_B), st.sampled_from(SEARCH_L_MAX)),
                                   lambda case: _joint(*case) < ALPHA)
    sweep = {(b, l): _joint(b, l) < ALPHA for b in SEARCH_B for l in SEARCH_L_MAX}
    grid = {"alpha": str(ALPHA), "p": "1/2", "b": list(SEARCH_B), "l_max": list(SEARCH_L_MAX),
            "smaller": "a shorter document b first, then a smaller l_max (hence fewer rows n)",
            "cases": len(sweep), "failing_cases": sum(sweep.values()),
            "fails_exactly_when_l_max_below_b": all(sweep[(b, l)] == (l < b) for b, l in sweep)}
    if found is None:
        return True, dict(grid, found=None), None
    b, l_max = found
    n = paper_n(ALPHA, l_max)
    by_inclusion_exclusion = joint_coverage(b, n, HALF, min(l_max, b))
    row_by_row = joint_coverage_all_sizes(b, n, HALF, l_max)
    confirmed = by_inclusion_exclusion == row_by_row < ALPHA
    smaller = [c for c in sweep if c < (b, l_max)]
    minimal = not any(sweep[c] for c in smaller)
    example = {"b": b, "l_max": l_max, "p": 0.5, "alpha": float(ALPHA), "n": n,
               "joint_coverage": str(row_by_row), "joint_coverage_float": float(row_by_row),
               "per_candidate_coverage": str(1 - (1 - HALF**l_max) ** n)}
    values = dict(grid, found=example, confirmed=confirmed, minimal=minimal, smaller_cases_checked=len(smaller),
                  confirmed_by="inclusion-exclusion (analytic.lemma2.joint_coverage) and the row-by-row "
                               "distribution of the covered candidates (joint_coverage_all_sizes), in Fractions")
    return not confirmed, values, example


def _paper_defaults() -> tuple[bool, dict]:
    """Second-moment upper bound on the joint coverage at alpha = 0.95, l_max = 10, n = 3067, p = 1/2."""
    bounds = {b: joint_coverage_upper_bound(b, DEFAULT_N, 0.5, DEFAULT_L_MAX) for b in DEFAULT_BS}
    return all(u >= float(ALPHA) for u in bounds.values()), {
        "alpha": 0.95, "l_max": DEFAULT_L_MAX, "n": DEFAULT_N, "p": 0.5,
        "candidates_of_size_l_max": {str(b): math.comb(b, DEFAULT_L_MAX) for b in DEFAULT_BS},
        "upper_bound": {str(b): u for b, u in bounds.items()},
        "arithmetic": "P(X = 0) <= Var X / (E X)^2, X the number of uncovered size-l_max candidates, 80 digits"}


def _whole_document() -> tuple[bool, dict]:
    """b <= l_max: the joint coverage (row by row, all candidates) equals 1 - (1 - 1/2**b)**n and reaches alpha."""
    wrong, cases = [], 0
    for b in GRID_B:
        for l_max in range(b, GRID_L_MAX + 1):
            for a in GRID_ALPHAS:
                n = paper_n(a, l_max)
                joint = joint_coverage_all_sizes(b, n, HALF, l_max)
                single = 1 - (1 - HALF**b) ** n
                cases += 1
                if not (joint == single >= Fraction(a)):
                    wrong.append({"b": b, "l_max": l_max, "alpha": a, "n": n, "joint": str(joint),
                                  "whole_document": str(single)})
    return not wrong, {"b": list(GRID_B), "l_max": f"b..{GRID_L_MAX}", "alphas": list(GRID_ALPHAS), "p": "1/2",
                       "cases": cases, "violations": wrong}


def check() -> ClaimResult:
    """The minimal counterexample, how far below alpha the paper's defaults are, and the b <= l_max case."""
    ce_holds, ce_values, example = _counterexample()
    bound_holds, bound_values = _paper_defaults()
    whole_ok, whole_values = _whole_document()
    lemma = {"row_probability": proof_row_probability(), "binomial_identity": proof_binomial_identity(),
             "solve_for_n": proof_solve_for_n(), "smaller_candidates": proof_smaller_candidates()}
    lemma_ok = all(ok for ok, _ in lemma.values())
    ce_note = ("no counterexample found" if example is None else
               f"b = {example['b']} tokens, l_max = {example['l_max']}, p = 1/2, alpha = 0.95, the paper's n = "
               f"{example['n']}: all candidates covered with probability {example['joint_coverage']} = "
               f"{example['joint_coverage_float']:.6f} < 0.95 (each one alone: {example['per_candidate_coverage']}); "
               f"confirmed in Fractions by inclusion-exclusion and by the row-by-row distribution; minimal: "
               f"{ce_values['minimal']} (smaller: a shorter document, then a smaller l_max)")
    upper = bound_values["upper_bound"]
    steps = (
        checked(f"{CLAIM}.s1-minimal-counterexample", CLAIM, "statement", "counterexample",
                f"Hypothesis search over b in 1..5, l_max in 1..4: {ce_note}. Over the whole family the joint "
                f"coverage is below alpha exactly when l_max < b ({ce_values['fails_exactly_when_l_max_below_b']}).",
                holds=ce_holds, values=ce_values),
        checked(f"{CLAIM}.s2-paper-defaults", CLAIM, "statement", "exhaustive",
                "At the paper's defaults (alpha = 0.95, l_max = 10, n = 3067, p = 1/2) the probability that all "
                "size-10 candidates are covered at once is at most "
                + ", ".join(f"{u:.3g} (b = {b})" for b, u in upper.items())
                + " (second-moment bound, 80-digit arithmetic), against 0.95 per candidate.",
                holds=bound_holds, values=bound_values),
        argued(f"{CLAIM}.s3-whole-document-is-enough", CLAIM, "proof",
               "When b <= l_max the whole document D is itself a candidate (|D| = b <= l_max) and every candidate is "
               "a subset of D; a row that perturbs all of D perturbs every candidate, so 'all candidates covered' "
               "and 'D covered' are the same event."),
        checked(f"{CLAIM}.s4-whole-document-covered", CLAIM, "proof", "symbolic",
                "D is a fixed candidate of size b <= l_max, so Lemma 2 (claim lemma2's symbolic steps s1-s4) covers "
                "it with probability 1 - (1 - 1/2**b)**n >= 1 - (1 - 1/2**l_max)**n >= alpha at the paper's n.",
                holds=lemma_ok, values={name: dict(v, holds=ok) for name, (ok, v) in lemma.items()}),
        checked(f"{CLAIM}.s5-whole-document-exact", CLAIM, "correction", "exhaustive",
                f"b <= l_max, p = 1/2, the paper's n: the probability that every candidate of size <= l_max is "
                "covered, computed row by row over all candidates (no inclusion-exclusion, no use of s3), equals "
                f"1 - (1 - 1/2**b)**n and is >= alpha on all {whole_values['cases']} cases of b in 1..{GRID_B[-1]}, "
                f"l_max in b..{GRID_L_MAX}, alpha in {{{', '.join(GRID_ALPHAS)}}}, in Fractions; violations: "
                f"{len(whole_values['violations'])}.", holds=whole_ok, values=whole_values),
    )
    return ClaimResult(
        id=CLAIM,
        kind="statement",
        statement=STATEMENT,
        conditions="Holds when b <= l_max (the whole document covers every candidate; steps s3-s5). For b > l_max "
                   "it fails: below alpha on every b > l_max of the searched family (step s1), and far below at the "
                   "paper's defaults (step s2). Lemma 2 itself (one fixed candidate) is claim lemma2.",
        counterexample=example,
        steps=steps,
        corrected=CORRECTED,
    )
