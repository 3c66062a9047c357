"""Lemma 2 (choosing n), as written: at the paper's p = 1/2, n = ceil(log(1 - alpha) / log(1 - 1/2**l_max))
rows cover one fixed candidate of size <= l_max with probability >= alpha.

Two readings beyond the statement are separate claims: the paper's n used with any p
(:mod:`.lemma2_any_p`) and all candidates covered at once (:mod:`.lemma2_joint`). This module also
holds this project's proof of the lemma, written for any p in (0, 1): its symbolic steps
(:func:`proof_row_probability`, :func:`proof_binomial_identity`, :func:`proof_solve_for_n`,
:func:`proof_smaller_candidates`) are reused by those two claims.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy as sp

from analytic import coverage_sym, sample_size_sym

from ..results import ClaimResult, checked

CLAIM = "lemma2"
STATEMENT = (
    "If n >= log(1 - alpha) / log(1 - 1/2**l_max), in particular for n = ceil(log(1 - alpha) / "
    "log(1 - 1/2**l_max)), then any fixed candidate c with |c| <= l_max is entirely perturbed in at least one of "
    "the n rows with probability >= alpha: P(exists i in [n]: c not in x_i) >= alpha, where 1/2**|c| is the "
    "probability that one row perturbs all of c (each token removed independently with probability 1/2)."
)

#: The stated grid of the exhaustive steps: alpha as decimals read exactly (0.95 = 19/20), l_max = 1..12, p = 1/2.
ALPHAS = ("0.5", "0.75", "0.8", "0.9", "0.95", "0.99", "0.999")
L_MAX = tuple(range(1, 13))
HALF = Fraction(1, 2)


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


# --------------------------------------------------------------------------- the statement at p = 1/2


def paper_n(alpha: str | Fraction, l_max: int) -> int:
    """The paper's n: sympy's ceiling of log(1 - alpha) / log(1 - 1/2**l_max), alpha read exactly.

    Evaluated from the formula (not by searching for the smallest n that covers), so the exhaustive steps
    below test the formula rather than restate a search.
    """
    n = sample_size_sym(sp.Rational(alpha), sp.Rational(1, 2), l_max)
    if not isinstance(n, sp.Integer):
        raise ArithmeticError(f"sympy could not evaluate the ceiling for alpha={alpha}, l_max={l_max}: {n}")
    return int(n)


def _paper_n_covers() -> tuple[bool, dict]:
    """Every (alpha, l_max) of the grid and every size l <= l_max: coverage(n_paper, 1/2, l) >= alpha, in Fractions."""
    ns, violations, cases = {}, [], 0
    for a in ALPHAS:
        for l_max in L_MAX:
            n = paper_n(a, l_max)
            ns[f"alpha={a}, l_max={l_max}"] = n
            for size in range(1, l_max + 1):
                cases += 1
                if not coverage_sym(n, HALF, size) >= Fraction(a):
                    violations.append({"alpha": a, "l_max": l_max, "size": size, "n": n})
    return not violations, {"alphas": list(ALPHAS), "l_max": list(L_MAX), "p": "1/2", "cases": cases,
                            "n_paper": ns, "n_at_paper_defaults": ns["alpha=0.95, l_max=10"],
                            "violations": violations}


def _ceiling_is_minimal() -> tuple[bool, dict]:
    """n_paper - 1 rows do not reach alpha for a candidate of size l_max, in Fractions."""
    violations, cases = [], 0
    for a in ALPHAS:
        for l_max in L_MAX:
            n = paper_n(a, l_max)
            cases += 1
            if coverage_sym(n - 1, HALF, l_max) >= Fraction(a):
                violations.append({"alpha": a, "l_max": l_max, "n_paper": n})
    return not violations, {"alphas": list(ALPHAS), "l_max": list(L_MAX), "p": "1/2", "cases": cases,
                            "violations": violations}


def check() -> ClaimResult:
    """This project's proof (symbolic, any p) and an exhaustive rational check of the lemma at p = 1/2."""
    row_ok, row_values = proof_row_probability()
    identity_ok, identity_values = proof_binomial_identity()
    solve_ok, solve_values = proof_solve_for_n()
    smaller_ok, smaller_values = proof_smaller_candidates()
    covers_ok, covers_values = _paper_n_covers()
    minimal_ok, minimal_values = _ceiling_is_minimal()
    steps = (
        checked(f"{CLAIM}.s1-row-probability", CLAIM, "proof", "symbolic",
                "One row perturbs all of a candidate c with probability p**|c|: the patterns perturbing c have total "
                "probability sum_j C(m,j) p^(|c|+j) (1-p)^(m-j) = p^|c| (m other positions; binomial theorem, "
                "proved by sympy for symbolic m on p <= 1/2 and carried to p > 1/2 by k -> m - k). At the paper's "
                "p = 1/2 this is its 1/2**|c|.", holds=row_ok, values=row_values),
        checked(f"{CLAIM}.s2-binomial-identity", CLAIM, "proof", "symbolic",
                "The proof's identity sum_{k=1}^n C(n,k) q^k (1-q)^(n-k) = 1 - (1-q)^n for q in (0,1), n symbolic: "
                "the sum from k = 0 is 1 (binomial theorem, as in s1) and its k = 0 term is (1-q)^n (sympy).",
                holds=identity_ok, values=identity_values),
        checked(f"{CLAIM}.s3-solve-for-n", CLAIM, "proof", "symbolic",
                "1 - (1-q)^n >= alpha <=> n >= n0 = log(1-alpha)/log(1-q) for q, alpha in (0,1): (1-q)^n is "
                "decreasing in n and equals 1 - alpha at n0 (sympy, with 1 - q = 1/(1+t), t > 0); so "
                "n = ceil(n0) >= n0 covers a size-l_max candidate with probability >= alpha.",
                holds=solve_ok, values=solve_values),
        checked(f"{CLAIM}.s4-smaller-candidates", CLAIM, "proof", "symbolic",
                "Smaller candidates are covered at least as well: 1 - (1-q)^n increases with q (derivative "
                "n (1-q)^(n-1) > 0) and q = p**l decreases with l for p in (0,1) (sympy).",
                holds=smaller_ok, values=smaller_values),
        checked(f"{CLAIM}.s5-paper-n-covers", CLAIM, "statement", "exhaustive",
                f"At p = 1/2, n_paper = ceil(log(1-alpha)/log(1-1/2**l_max)) (sympy's ceiling of the formula) "
                f"covers every candidate size l <= l_max with probability >= alpha, in Fractions: "
                f"{covers_values['cases']} (alpha, l_max, l) cases, alpha in {{{', '.join(ALPHAS)}}}, l_max in "
                f"1..{L_MAX[-1]}; violations: {len(covers_values['violations'])}. At the paper's defaults "
                f"(alpha = 0.95, l_max = 10) n_paper = {covers_values['n_at_paper_defaults']} (the paper's "
                "'n ~ 3000').", holds=covers_ok, values=covers_values),
        checked(f"{CLAIM}.s6-ceiling-is-minimal", CLAIM, "paper-proof", "exhaustive",
                "The paper's proof writes 'P(exists i: c not in x_i) >= alpha <=> n >= log(1-alpha)/log(1-1/2^l)', "
                "so its ceiling is the smallest n that works: n_paper - 1 rows reach alpha for a size-l_max "
                f"candidate in none of the {minimal_values['cases']} (alpha, l_max) cases of the grid "
                f"(Fractions; violations: {len(minimal_values['violations'])}).",
                holds=minimal_ok, values=minimal_values),
    )
    return ClaimResult(
        id=CLAIM,
        kind="statement",
        statement=STATEMENT,
        conditions="p = 1/2 (tokens removed independently with probability 1/2, as the lemma's proof assumes), "
                   "alpha in (0,1), l_max >= 1, one fixed candidate at a time. The paper's n used with another p is "
                   "claim lemma2-any-p; all candidates covered at once (section 2.3's sentence) is claim "
                   "lemma2-joint.",
        counterexample=None,
        steps=steps,
    )
