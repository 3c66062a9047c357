"""Lemma 2 (choosing n), as written: at the paper's p = 1/2, n = ceil(log(1 - alpha) / log(1 - 1/2**l_max))
rows cover one fixed candidate of size <= l_max with probability >= alpha.

The paper's n used with another p is claim lemma2-any-p (this project's question); section 2.3's sentence on
"each candidate" is claim lemma2-joint. The proof, written for any p in (0, 1), and the per-candidate check are
in :mod:`proofs_checks.claims.lemmas.lemma2_proof`, shared by the three claims.
"""

from __future__ import annotations

from fractions import Fraction

from analytic import coverage_sym
from fred_constants import P_EXACT

from ...verdicts.results import Claim, ClaimResult, Quote, StepResult, hypotheses
from .lemma2_proof import (
    GRID_ALPHAS,
    GRID_L_MAX,
    lemma2_conditions,
    paper_n,
    per_candidate_coverage,
    proof_steps,
)

CLAIM = Claim("lemma2")
SOURCE = (
    Quote(366, r"If the sample size $n$ is higher or equal than the quantity $\frac{\logs{1 - \alpha}}{\logs{1 - "
               r"1/2^{\ell_{max}}}}$, then, for any candidate $\candidate$ with size smaller or equal than "
               r"$\length_{max}$, there exists at least one sample not containing it, with probability higher or "
               r"equal than $\alpha$, \emph{i.e.}, for any candidate~$\candidate$"),
    Quote(368, r"n = \ceil{\frac{\logs{1 - \alpha}}{\logs{1 - 1/2^{\ell_{max}}}}} \Longrightarrow "
               r"\proba{\exists i \in [n] : \candidate \notin x_i} \geq \alpha"),
    Quote(993, r"$\proba{\candidate \notin x_i} = \frac{1}{2^\length}$, since word removals are \emph{i.i.d.} with "
               r"probability $1/2$."),
    Quote(996, r"\proba{\exists i \in [n] : \candidate \notin x_i} & = \sum_{k=1}^n \binom{n}{k} "
               r"\left(\frac{1}{2^\length}\right)^k \left(1 - \frac{1}{2^\length}\right)^{n-k} \\"),
    Quote(997, r"& = 1 - \left(1 - 1/2^\length\right)^n \\"),
    Quote(998, r"\proba{\exists i \in [n] : \candidate \notin x_i} & \geq \alpha \iff n \geq "
               r"\frac{\logs{1 - \alpha}}{\logs{1 - 1/2^\length}}"),
    Quote(1001, r"Since a candidate has maximal length $\length_{max}$, we can choose the sample size by setting"),
    Quote(335, r"Finally, the empirical drop $\Empdrop_{\candidate}$ of a candidate is computed by averaging the "
               r"drops over the samples that do not contain $\candidate$."),
    Quote(337, "The samples where both tokens are perturbed are highlighted in gray."),
    Quote(372, r"As \say{high probability,} we set by default $\alpha = 0.95$ and the token perturbation "
               r"probability $p=0.5$."),
    Quote(374, r"these choices imply a sample size of $n \approx 3000$."),
)
STATEMENT = (
    "Lemma 2 (lines 366-368): if n >= log(1 - alpha) / log(1 - 1/2**l_max), in particular for n = "
    "ceil(log(1 - alpha) / log(1 - 1/2**l_max)), then for any fixed candidate c with |c| <= l_max, "
    "P(exists i in [n]: c not in x_i) >= alpha, with word removals i.i.d. with probability 1/2 (line 993). "
    "'c not in x_i' means that every position of c is perturbed in x_i: the samples that 'do not contain' the "
    "candidate {decent, great} of Figure 1 are those 'where both tokens are perturbed' (lines 335-337), and the "
    "proof's P(c not in x_i) = 1/2**|c| is that probability."
)


def statement_hypotheses(*, alpha, p, l_max: int, n: int, sizes) -> dict:
    """Lemma 2's hypotheses computed on a case: p = 1/2 (line 993), alpha in (0, 1), l_max >= 1, each candidate of
    size 1..l_max, n >= log(1 - alpha) / log(1 - 1/2**l_max) (line 366); a :func:`hypotheses` record."""
    return hypotheses(p_is_one_half=Fraction(p) == P_EXACT, **lemma2_conditions(alpha, l_max, n, sizes))


CONDITIONS = (
    "p = 1/2 (the proof's 'word removals are i.i.d. with probability 1/2', line 993; the default p = 0.5 of line "
    "372), alpha in (0,1), l_max >= 1, one fixed candidate of size <= l_max at a time (the lemma's 'for any "
    "candidate c', line 368). The step from size l to l_max ('Since a candidate has maximal length l_max', line "
    "1001) needs coverage to decrease with l: step s4. The paper's n used with another p is this project's question "
    "lemma2-any-p; section 2.3's sentence on 'each candidate' is claim lemma2-joint."
)


def check() -> ClaimResult:
    """This project's proof (symbolic, any p) and a rational check of the lemma at p = 1/2 on a stated family."""
    steps = (*proof_steps(CLAIM, 1), paper_n_covers(), ceiling_is_minimal())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)


def paper_n_covers() -> StepResult:
    """s5: at p = 1/2 the paper's n covers one candidate of each size l <= l_max, on a finite grid, in Fractions."""
    holds, seen = per_candidate_coverage(statement_hypotheses)
    seen["n_at_paper_defaults"] = seen["n_paper"]["alpha=0.95, l_max=10"]
    return CLAIM.checked(
        "s5-paper-n-covers", "statement", "exhaustive",
        f"At p = 1/2, n_paper = ceil(log(1-alpha)/log(1-1/2**l_max)) (sympy's ceiling of the formula) covers one "
        f"candidate of each size l <= l_max with probability >= alpha, in Fractions. Exhaustive on this finite family "
        f"only: alpha in {{{', '.join(GRID_ALPHAS)}}} (decimals read exactly), l_max in 1..{GRID_L_MAX[-1]}, every l "
        f"in 1..l_max: {seen['cases']} cases, each inside the lemma's hypotheses (computed; outside: "
        f"{len(seen['cases_outside_hypotheses'])}); violations: {len(seen['violations'])}. Every other alpha in (0,1) "
        f"and l_max is covered by the symbolic steps s1-s4, not by this step. At the paper's defaults (alpha = 0.95, "
        f"l_max = 10) n_paper = {seen['n_at_paper_defaults']} (the paper's 'n ~ 3000').",
        holds=holds, values=seen)


def ceiling_is_minimal() -> StepResult:
    """s6: n_paper - 1 rows do not reach alpha for a candidate of size l_max, in Fractions."""
    violations = [{"alpha": a, "l_max": l_max, "n_paper": paper_n(a, l_max)}
                  for a in GRID_ALPHAS for l_max in GRID_L_MAX
                  if coverage_sym(paper_n(a, l_max) - 1, P_EXACT, l_max) >= Fraction(a)]
    seen = {"alphas": list(GRID_ALPHAS), "l_max": list(GRID_L_MAX), "p": "1/2",
            "cases": len(GRID_ALPHAS) * len(GRID_L_MAX), "violations": violations}
    return CLAIM.checked(
        "s6-ceiling-is-minimal", "paper-proof", "exhaustive",
        "The paper's proof writes 'P(exists i: c not in x_i) >= alpha <=> n >= log(1-alpha)/log(1-1/2^l)', so its "
        "ceiling is the smallest n that works: n_paper - 1 rows reach alpha for a size-l_max candidate in none of the "
        f"{seen['cases']} (alpha, l_max) cases of the grid (Fractions; violations: {len(violations)}).",
        holds=not violations, values=seen)
