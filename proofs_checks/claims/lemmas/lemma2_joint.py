"""Section 2.3's sentence on the sample size: "for each c in C, n_c >= 1 with probability higher than alpha (see
Lemma 2)", in its readings.

Per candidate (the headline: the sentence's own "i.e." clause and the lemma it cites): each candidate of size
<= l_max is covered with probability >= alpha; this is Lemma 2, checked again here. C as every candidate of the
document, whatever its size (line 241, a stronger reading the sentence's own context rules out): fails, a candidate
longer than l_max being covered less often than alpha. All candidates at once is what section 2.2's note says
(line 274, "with high probability, for each candidate"): claim sampling-absence
(:mod:`proofs_checks.claims.lemmas.sampling_absence`), with its own verdict.
"""

from __future__ import annotations

from fractions import Fraction

from analytic import coverage_sym
from analytic.exact_cache import exact_cache
from fred_constants import ALPHA_EXACT, MAX_LEN, P_EXACT

from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .lemma2_proof import GRID_ALPHAS as S1_ALPHAS
from .lemma2_proof import GRID_L_MAX as S1_L_MAX
from .lemma2_proof import lemma2_conditions, paper_n, per_candidate_coverage, proof_steps

CLAIM = Claim("lemma2-joint")
SENTENCE = Quote(362, r"The sample size $n$ is chosen such that, for each candidate, there exists with high "
                      r"probability at least one sample not containing it, \emph{i.e.}, such that for each "
                      r"$\candidate \in \candidates$, $n_\candidate \geq 1$ with probability higher than $\alpha$ "
                      r"(see Lemma~\ref{lemma:n-sample}).")
LEMMA = Quote(366, r"If the sample size $n$ is higher or equal than the quantity $\frac{\logs{1 - \alpha}}{\logs{1 "
                   r"- 1/2^{\ell_{max}}}}$, then, for any candidate $\candidate$ with size smaller or equal than "
                   r"$\length_{max}$, there exists at least one sample not containing it, with probability higher or "
                   r"equal than $\alpha$")
SIZE_BOUND = Quote(1001, r"Since a candidate has maximal length $\length_{max}$, we can choose the sample size by "
                         r"setting $n = \ceil{\frac{\logs{1 - \alpha}}{\logs{1 - 1/2^{\length_{max}}}}}$.")
ALL_CANDIDATES = Quote(241, r"We call $\candidates$ the set of all candidates for $\xi$.")
SOURCE = (
    SENTENCE,
    LEMMA,
    Quote(368, r"n = \ceil{\frac{\logs{1 - \alpha}}{\logs{1 - 1/2^{\ell_{max}}}}} \Longrightarrow "
               r"\proba{\exists i \in [n] : \candidate \notin x_i} \geq \alpha"),
    ALL_CANDIDATES,
    Quote(409, r"\For{\texttt{size} = 1: $\ell_{max}$}:"),
    SIZE_BOUND,
    Quote(372, r"As \say{high probability,} we set by default $\alpha = 0.95$ and the token perturbation "
               r"probability $p=0.5$."),
)
READINGS = (
    Reading("per-candidate", "headline",
            "for each candidate c with |c| <= l_max, P(n_c >= 1) >= alpha: one fixed candidate at a time, as Lemma 2 "
            "states it. The sentence's 'i.e.' clause puts 'for each c' before 'with probability higher than alpha' "
            "and cites Lemma 2, whose 'for any candidate c ... with probability higher or equal than alpha' is per "
            "candidate, of size <= l_max, as its proof's last line chooses n for (line 1001). The sentence's "
            "'higher than' is strict and Lemma 2's '>=' is not: they differ only where the coverage equals alpha "
            "exactly, which at p = 1/2 needs a dyadic alpha and cannot happen at the default alpha = 0.95 (s1).",
            why=(Quote(362, r"\emph{i.e.}, such that for each $\candidate \in \candidates$, $n_\candidate \geq 1$ "
                            r"with probability higher than $\alpha$ (see Lemma~\ref{lemma:n-sample})"), LEMMA,
                 SIZE_BOUND)),
    Reading("all-sizes", "stronger",
            "C literally as 'the set of all candidates for xi' (line 241), every size up to b: each candidate c of "
            "the document has P(n_c >= 1) >= alpha at the paper's n. Not the headline: the sentence cites Lemma 2, "
            "which is about candidates of size <= l_max (line 366), its proof chooses n for the maximal length "
            "l_max (line 1001), and Algorithm 1 forms no larger candidate (line 409).",
            why=(ALL_CANDIDATES,)),
)
STATEMENT = (
    "Section 2.3 (line 362): 'The sample size n is chosen such that, for each candidate, there exists with high "
    "probability at least one sample not containing it, i.e., such that for each c in C, n_c >= 1 with probability "
    "higher than alpha (see Lemma 2)', with Lemma 2's n = ceil(log(1 - alpha) / log(1 - 1/2**l_max)) at p = 1/2. "
    "C is the candidates of size <= l_max: the lemma cited covers those ('with size smaller or equal than l_max', "
    "line 366) and Algorithm 1 only forms those ('size = 1: l_max', line 409)."
)

#: The all-sizes search: documents of b = 1..5 tokens, l_max = 1..4, every candidate size, at the paper's alpha, p.
SEARCH_B = tuple(range(1, 6))
SEARCH_L_MAX = tuple(range(1, 5))


def statement_hypotheses(*, alpha, p, l_max: int, n: int, sizes) -> dict:
    """The sentence's hypotheses computed on a case (they are Lemma 2's, which it cites): p = 1/2 (the default of
    line 372, and the lemma's 1/2**l_max), alpha in (0, 1), l_max >= 1, every candidate considered of size
    1..l_max, n >= log(1 - alpha) / log(1 - 1/2**l_max); a :func:`hypotheses` record."""
    return hypotheses(p_is_one_half=Fraction(p) == P_EXACT, **lemma2_conditions(alpha, l_max, n, sizes))


@exact_cache(copy=True)  # a closed form: the same for every subject
def _strictly_higher() -> dict:
    """The sentence's strict 'higher than alpha' on s1's family (p = 1/2, the paper's n, every size l <= l_max): the
    cases where the coverage equals alpha exactly, and why none can occur at alpha = 0.95: the coverage
    1 - (1 - 2^-l)^n is a dyadic rational (its denominator a power of 2, checked on every case), 19/20 is not."""
    equal, dyadic = [], True
    for a in S1_ALPHAS:
        for l_max in S1_L_MAX:
            n = paper_n(a, l_max)
            for size in range(1, l_max + 1):
                cover = coverage_sym(n, P_EXACT, size)
                dyadic &= cover.denominator & (cover.denominator - 1) == 0
                if cover == Fraction(a):
                    equal.append({"alpha": a, "l_max": l_max, "size": size, "n": n, "coverage": str(cover)})
    denominator = ALPHA_EXACT.denominator
    return {"cases_with_coverage_equal_to_alpha": equal, "every_coverage_dyadic": dyadic,
            "alpha_0_95_dyadic": denominator & (denominator - 1) == 0}


def all_sizes_hypotheses(*, alpha, p, l_max: int, n: int, size: int, b: int) -> dict:
    """Reading 'all-sizes' (C = every candidate of xi, line 241): the sentence's hypotheses with the size bound
    dropped, computed on a case: p = 1/2, alpha in (0, 1), l_max >= 1, n = the paper's n for l_max, and a candidate
    of the document (1 <= |c| <= b); a :func:`hypotheses` record."""
    a = Fraction(alpha)
    return hypotheses(p_is_one_half=Fraction(p) == P_EXACT, alpha_in_open_unit_interval=0 < a < 1,
                      l_max_at_least_1=l_max >= 1, n_is_the_papers=0 < a < 1 and l_max >= 1 and n == paper_n(a, l_max),
                      candidate_of_the_document=1 <= size <= b)


@exact_cache(copy=True)  # a closed form: the same for every subject
def _all_sizes() -> tuple[bool, dict]:
    """Reading 'all-sizes': the first (b, l_max, |c|) of s6's family, in that order, inside the reading's
    hypotheses, whose candidate is covered with probability < alpha (Fractions), the number of failing cases, and
    a candidate of size l_max + 1 at the paper's defaults (l_max = 10, n = 3067)."""
    cases = [(b, l_max, size) for b in SEARCH_B for l_max in SEARCH_L_MAX for size in range(1, b + 1)]
    failing = [c for c in cases if all_sizes_hypotheses(alpha=ALPHA_EXACT, p=P_EXACT, l_max=c[1],
                                                        n=paper_n(ALPHA_EXACT, c[1]), size=c[2],
                                                        b=c[0])["satisfies_hypotheses"]
               and coverage_sym(paper_n(ALPHA_EXACT, c[1]), P_EXACT, c[2]) < ALPHA_EXACT]
    found = failing[0] if failing else cases[0]
    b, l_max, size = found
    n = paper_n(ALPHA_EXACT, l_max)
    record = all_sizes_hypotheses(alpha=ALPHA_EXACT, p=P_EXACT, l_max=l_max, n=n, size=size, b=b)
    n_default = paper_n(ALPHA_EXACT, MAX_LEN)
    default = coverage_sym(n_default, P_EXACT, MAX_LEN + 1)
    return not failing, {
        **record, "alpha": str(ALPHA_EXACT), "p": "1/2", "cases": len(cases), "failing_cases": len(failing),
        "failing_exactly_when_size_above_l_max": failing == [c for c in cases if c[2] > c[1]],
        "found": None if not failing else {**record, "b": b, "l_max": l_max, "size": size, "n": n,
                                           "coverage": str(coverage_sym(n, P_EXACT, size)),
                                           "coverage_float": float(coverage_sym(n, P_EXACT, size))},
        "smaller": "a shorter document b first, then a smaller l_max, then a smaller candidate",
        "paper_defaults": {"l_max": MAX_LEN, "n": n_default, "size": MAX_LEN + 1,
                           "coverage_float": float(default), "below_alpha": default < ALPHA_EXACT}}


def check() -> ClaimResult:
    """The per-candidate reading (Lemma 2, at p = 1/2), and the all-sizes reading: a candidate longer than l_max
    covered less often than alpha."""
    sizes = _all_sizes()
    steps = (per_candidate(), *proof_steps(CLAIM, 2, reading="per-candidate"), all_sizes_counterexample(sizes))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=_conditions(sizes), counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def per_candidate() -> StepResult:
    """s1: Lemma 2 at p = 1/2 on a finite grid, in Fractions, and where the sentence's strict 'higher than' differs."""
    holds, seen = per_candidate_coverage(statement_hypotheses)
    strict = seen["strictly_higher"] = _strictly_higher()
    equal = "; ".join(f"alpha = {c['alpha']}, l_max = {c['l_max']}, l = {c['size']}, n = {c['n']}"
                      for c in strict["cases_with_coverage_equal_to_alpha"]) or "no case"
    return CLAIM.checked(
        "s1-per-candidate-coverage", "statement", "exhaustive",
        f"Per candidate, at p = 1/2 and the paper's n: one candidate of each size l <= l_max is covered with "
        f"probability >= alpha, in Fractions, on this finite family only: alpha in {{{', '.join(seen['alphas'])}}}, "
        f"l_max in 1..{seen['l_max'][-1]}, every l in 1..l_max ({seen['cases']} cases, each inside the hypotheses: "
        f"outside {len(seen['cases_outside_hypotheses'])}); violations: {len(seen['violations'])}. Every other alpha "
        "and l_max: the symbolic steps s2-s5. This is Lemma 2's '>=' (line 366); the sentence's 'higher than' (line "
        f"362) is strict, and the coverage equals alpha exactly in {equal} of the family; every coverage is dyadic "
        f"({strict['every_coverage_dyadic']}: 1 - (1 - 2^-l)^n), 19/20 is not ({not strict['alpha_0_95_dyadic']}), "
        "so at the default alpha = 0.95 the two agree.", holds=holds, values=seen, reading="per-candidate")


def all_sizes_counterexample(sizes: tuple[bool, dict]) -> StepResult:
    """s10: reading 'all-sizes', a candidate longer than l_max covered with probability < alpha."""
    holds, seen = sizes
    return CLAIM.checked("s10-all-sizes-counterexample", "statement", "counterexample", _all_sizes_note(seen),
                         holds=holds, values=seen, reading="all-sizes")


def _all_sizes_note(values: dict) -> str:
    found, default = values["found"], values["paper_defaults"]
    if found is None:
        return f"No candidate of the searched family is covered with probability < alpha ({values['cases']} cases)."
    return (f"C as every candidate of the document (line 241): searched b in {SEARCH_B[0]}..{SEARCH_B[-1]}, l_max in "
            f"{SEARCH_L_MAX[0]}..{SEARCH_L_MAX[-1]}, every size 1..b, alpha = 0.95, p = 1/2, the paper's n "
            f"({values['cases']} cases). First: b = {found['b']} tokens, l_max = {found['l_max']}, n = {found['n']}, "
            f"the candidate of size {found['size']} is covered with probability {found['coverage']} = "
            f"{found['coverage_float']:.6f} < 0.95 (Fractions; inside this reading's hypotheses, computed: "
            f"{found['satisfies_hypotheses']}); minimal in the order (b, l_max, size). The cases below alpha are "
            f"exactly those with |c| > l_max ({values['failing_exactly_when_size_above_l_max']}: "
            f"{values['failing_cases']} of {values['cases']}). At the defaults (l_max = {default['l_max']}, n = "
            f"{default['n']}) a candidate of size {default['size']} is covered with probability "
            f"{default['coverage_float']:.4f}.")




def _conditions(sizes: tuple[bool, dict]) -> str:
    """The conditions, with the coverage of a candidate of size l_max + 1 at the defaults (step s10)."""
    return (
        "Read per candidate, as the sentence's 'i.e.' clause and the Lemma 2 it cites state it, the sentence is Lemma "
        "2 (claim lemma2) and holds (steps s1-s5). Section 2.2's note (line 274) has its own claim, sampling-absence "
        "(per candidate, and all candidates of size <= l_max at once as a stronger reading). The literal reading "
        "of C as all candidates of the document (line 241) fails too (s10): with Lemma 2's n a candidate of size "
        f"{MAX_LEN + 1} at the defaults is covered with probability only "
        f"{sizes[1]['paper_defaults']['coverage_float']:.4f} < 0.95, and no n independent of the document's length "
        "meets it (the whole document of b tokens is covered with probability 1 - (1 - 2**-b)**n, which tends to 0 as "
        "b grows); it is not the headline because the sentence cites Lemma 2, about sizes <= l_max (line 366), whose "
        "proof chooses n for the maximal length (line 1001), and Algorithm 1 forms no larger candidate (line 409)."
    )
