"""Lemma 2 (choosing n) for the claims lemma2, lemma2-any-p and lemma2-joint: this project's proof, written for
any p in (0, 1), the paper's n, Lemma 2's hypotheses, and the per-candidate check at p = 1/2.

The three claims share these so that no claim module imports another. The proof: one row perturbs all of a
size-l candidate with probability p**l (the paper's 1/2**l at p = 1/2, appendix "Proof of Lemma 2"), n i.i.d.
rows cover it with probability 1 - (1 - p**l)**n, which is >= alpha exactly when n >= log(1 - alpha) /
log(1 - p**l), and smaller candidates are covered at least as well.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Callable

import sympy as sp

from analytic import coverage_sym, sample_size_sym
from fred_constants import P_EXACT

from ...verdicts.results import Claim, StepResult

#: The stated grid of the per-candidate check: alpha as decimals read exactly (0.95 = 19/20), l_max = 1..12.
GRID_ALPHAS = ("0.5", "0.75", "0.8", "0.9", "0.95", "0.99", "0.999")
GRID_L_MAX = tuple(range(1, 13))


# --------------------------------------------------------------------------- the proof, for any p in (0, 1)


@lru_cache(maxsize=None)
def _binomial_theorem() -> tuple[bool, dict]:
    """S(q) = sum_{k=0}^n C(n,k) q^k (1-q)^(n-k) = 1 for q in (0, 1) and symbolic n.

    sympy sums it in closed form on q <= 1/2 (a Piecewise); reindexing k -> n - k gives S(q) = S(1 - q),
    which carries the closed form to q > 1/2.
    """
    q = sp.Symbol("q", positive=True)
    n = sp.Symbol("n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    term = sp.binomial(n, k) * q**k * (1 - q) ** (n - k)
    total = sp.Sum(term, (k, 0, n))
    closed = sp.simplify(total.doit())
    if closed == 1:
        low_half = True
    else:
        first = closed.args[0] if isinstance(closed, sp.Piecewise) else None
        low_half = first is not None and first.expr == 1 and first.cond == sp.Le(q, sp.Rational(1, 2))
    reversed_ = total.change_index(k, n - k, k)
    reflection = sp.simplify(reversed_.function - term.subs(q, 1 - q))
    reflects = reflection == 0 and reversed_.limits == total.limits
    return bool(low_half and reflects), {"closed_form": str(closed), "reflection_residual": str(reflection)}


@lru_cache(maxsize=None)
def proof_row_probability() -> tuple[bool, dict]:
    """One row perturbs all of a size-l candidate with probability p**l (1/2**l at p = 1/2).

    With m other positions, the patterns perturbing all of c have total probability
    sum_j C(m,j) p^(l+j) (1-p)^(m-j) = p^l S_m(p) = p^l by the binomial theorem.
    """
    p = sp.Symbol("p", positive=True)
    ell = sp.Symbol("ell", integer=True, positive=True)
    m = sp.Symbol("m", integer=True, nonnegative=True)
    j = sp.Symbol("j", integer=True, nonnegative=True)
    ratio = sp.simplify(sp.binomial(m, j) * p ** (ell + j) * (1 - p) ** (m - j)
                        / (p**ell * sp.binomial(m, j) * p**j * (1 - p) ** (m - j)))
    theorem, theorem_values = _binomial_theorem()
    at_half = sp.simplify((p**ell).subs(p, sp.Rational(1, 2)) - 1 / 2**ell)
    ok = ratio == 1 and theorem and at_half == 0
    return bool(ok), {"factor_ratio": str(ratio), "binomial_theorem": theorem_values,
                      "p_pow_l_minus_2_pow_minus_l_at_half": str(at_half)}


@lru_cache(maxsize=None)
def proof_binomial_identity() -> tuple[bool, dict]:
    """The proof's identity sum_{k=1}^n C(n,k) q^k (1-q)^(n-k) = 1 - (1-q)^n, q in (0, 1), n symbolic."""
    q = sp.Symbol("q", positive=True)
    n = sp.Symbol("n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    k0 = sp.simplify((sp.binomial(n, k) * q**k * (1 - q) ** (n - k)).subs(k, 0) - (1 - q) ** n)
    theorem, theorem_values = _binomial_theorem()
    return bool(theorem and k0 == 0), {"binomial_theorem": theorem_values, "k0_term_minus_miss": str(k0)}


@lru_cache(maxsize=None)
def proof_solve_for_n() -> tuple[bool, dict]:
    """For q, alpha in (0, 1): 1 - (1-q)^n >= alpha <=> n >= n0 = log(1-alpha)/log(1-q); ceil(n0) >= n0 covers.

    Written with 1 - q = 1/(1 + t), t > 0, and a = 1 - alpha > 0, so that sympy knows 0 < 1 - q < 1.
    """
    t, a, n = sp.symbols("t a n", positive=True)
    miss = 1 / (1 + t)
    derivative = sp.diff(miss**n, n)
    n0 = sp.log(a) / sp.log(miss)
    at_n0 = sp.simplify(miss**n0 - a)
    ok = derivative.is_negative is True and at_n0 == 0
    return bool(ok), {"d_miss_dn": str(derivative), "d_miss_dn_is_negative": derivative.is_negative is True,
                      "miss_at_n0_minus_1_minus_alpha": str(at_n0)}


@lru_cache(maxsize=None)
def proof_smaller_candidates() -> tuple[bool, dict]:
    """Coverage 1 - (1-q)^n increases with q, and q = p^l decreases with l for p in (0, 1) (p = 1/(1+t))."""
    q, s, t, ell, n = sp.symbols("q s t ell n", positive=True)
    d_cov = sp.diff(1 - (1 - q) ** n, q).subs(q, 1 - s)  # s = 1 - q in (0, 1)
    d_row = sp.diff((1 / (1 + t)) ** ell, ell)
    ok = d_cov.is_positive is True and d_row.is_negative is True
    return bool(ok), {"d_coverage_dq": str(d_cov), "d_coverage_dq_is_positive": d_cov.is_positive is True,
                      "d_p_pow_l_dl": str(d_row), "d_p_pow_l_dl_is_negative": d_row.is_negative is True}


def proof_steps(claim: Claim, first: int, reading: str | None = None) -> tuple[StepResult, ...]:
    """The four symbolic steps of the proof as the steps ``s<first>...s<first+3>`` of ``claim`` (role "proof")."""
    row_ok, row_values = proof_row_probability()
    identity_ok, identity_values = proof_binomial_identity()
    solve_ok, solve_values = proof_solve_for_n()
    smaller_ok, smaller_values = proof_smaller_candidates()
    rows = (
        ("row-probability", row_ok, row_values,
         "One row perturbs all of a candidate c with probability p**|c|: the patterns perturbing c have total "
         "probability sum_j C(m,j) p^(|c|+j) (1-p)^(m-j) = p^|c| (m other positions; binomial theorem, proved by "
         "sympy for symbolic m on p <= 1/2 and carried to p > 1/2 by k -> m - k). At the paper's p = 1/2 this is "
         "its 1/2**|c|."),
        ("binomial-identity", identity_ok, identity_values,
         "The proof's identity sum_{k=1}^n C(n,k) q^k (1-q)^(n-k) = 1 - (1-q)^n (lines 996-997) for q in (0,1), n "
         "symbolic: the "
         "sum from k = 0 is 1 (binomial theorem, as in the row-probability step) and its k = 0 term is (1-q)^n "
         "(sympy)."),
        ("solve-for-n", solve_ok, solve_values,
         "1 - (1-q)^n >= alpha <=> n >= n0 = log(1-alpha)/log(1-q) (line 998) for q, alpha in (0,1): (1-q)^n is "
         "decreasing in "
         "n and equals 1 - alpha at n0 (sympy, with 1 - q = 1/(1+t), t > 0); so every n >= n0, in particular "
         "ceil(n0), covers a size-l_max candidate with probability >= alpha."),
        ("smaller-candidates", smaller_ok, smaller_values,
         "Smaller candidates are covered at least as well: 1 - (1-q)^n increases with q (derivative "
         "n (1-q)^(n-1) > 0) and q = p**l decreases with l for p in (0,1) (sympy)."),
    )
    return tuple(claim.checked(f"s{first + k}-{name}", "proof", "symbolic", note, holds=ok, values=values,
                               reading=reading)
                 for k, (name, ok, values, note) in enumerate(rows))


# --------------------------------------------------------------------------- the paper's n and its hypotheses


@lru_cache(maxsize=None)
def paper_n(alpha: str | Fraction, l_max: int) -> int:
    """The paper's n: sympy's ceiling of log(1 - alpha) / log(1 - 1/2**l_max), alpha read exactly.

    Evaluated from the formula (not by searching for the smallest n that covers), so the checks test the
    formula rather than restate a search.
    """
    n = sample_size_sym(sp.Rational(alpha), sp.Rational(1, 2), l_max)
    if not isinstance(n, sp.Integer):
        raise ArithmeticError(f"sympy could not evaluate the ceiling for alpha={alpha}, l_max={l_max}: {n}")
    return int(n)


def lemma2_conditions(alpha: str | Fraction, l_max: int, n: int, sizes) -> dict[str, bool]:
    """Lemma 2's hypotheses other than p, computed on a case (line 366 of the paper): alpha in (0, 1),
    l_max >= 1, every candidate considered of size 1..l_max, and n >= log(1 - alpha) / log(1 - 1/2**l_max),
    decided exactly as (1 - 1/2**l_max)**n <= 1 - alpha (log(1 - 1/2**l_max) < 0 flips the inequality)."""
    a = Fraction(alpha)
    sizes = list(sizes)
    return {"alpha_in_open_unit_interval": 0 < a < 1,
            "l_max_at_least_1": l_max >= 1,
            "candidates_of_size_1_to_l_max": bool(sizes) and all(1 <= s <= l_max for s in sizes),
            "n_at_least_the_papers_quantity": 0 < a < 1 and l_max >= 1 and (1 - P_EXACT**l_max) ** n <= 1 - a}


def per_candidate_coverage(hypotheses_of: Callable[..., dict], alphas=GRID_ALPHAS,
                           l_maxes=GRID_L_MAX) -> tuple[bool, dict]:
    """At p = 1/2, the paper's n covers one candidate of every size l <= l_max with probability >= alpha, on every
    (alpha, l_max) of the grid, in Fractions; each case is checked against the claim's hypotheses
    (``hypotheses_of(alpha=, p=, l_max=, n=, sizes=)``, a :func:`proofs_checks.verdicts.results.hypotheses` record)."""
    ns, violations, outside, cases = {}, [], [], 0
    for a in alphas:
        for l_max in l_maxes:
            n = paper_n(a, l_max)
            ns[f"alpha={a}, l_max={l_max}"] = n
            for size in range(1, l_max + 1):
                cases += 1
                if not hypotheses_of(alpha=a, p=P_EXACT, l_max=l_max, n=n, sizes=(size,))["satisfies_hypotheses"]:
                    outside.append({"alpha": a, "l_max": l_max, "size": size, "n": n})
                if not coverage_sym(n, P_EXACT, size) >= Fraction(a):
                    violations.append({"alpha": a, "l_max": l_max, "size": size, "n": n})
    return not violations and not outside, {
        "family": "every (alpha, l_max, l) with alpha in the list, l_max in the list, candidate size l = 1..l_max, "
                  "p = 1/2, n = the paper's n; only this finite family",
        "alphas": list(alphas), "l_max": list(l_maxes), "p": "1/2", "cases": cases,
        "cases_outside_hypotheses": outside, "n_paper": ns, "violations": violations}
