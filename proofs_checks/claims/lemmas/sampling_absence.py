"""Section 2.2's note (line 274): "the sampling scheme ensures that, with high probability, for each candidate, there
is at least one sample in which the candidate is not present".

Section 2.3 restates the note per candidate (line 362: "for each c in C, n_c >= 1 with probability higher than
alpha (see Lemma 2)"), line 372's alpha is that lemma's level, and the note's "ensures" is what n is chosen for.
The probabilities under FRED's scheme (i.i.d. Bernoulli(p) rows, n from Lemma 2 with l = min(l_max, b)) are computed
in :mod:`proofs_checks.claims.lemmas.absence`. Readings, each with its steps:

* ``per-candidate`` (headline): each candidate of size <= l_max (those Algorithm 1 forms) on its own is absent from
  some sample with probability >= alpha: Lemma 2, checked on the experiments' documents at FRED's n (s8) and
  proved by claim lemma2. Holds (argued).
* ``per-candidate-all-sizes`` (stronger): "each c in C" taken literally, every size up to b: a candidate longer
  than l_max is absent somewhere with probability < alpha (b = 11: 0.776). Fails.
* ``joint`` (stronger): every candidate of size <= l_max absent from some sample at once, with probability >= alpha:
  line 274's literal scope (its word order puts the probability over the whole clause); the headline follows the
  paper's own "i.e." gloss at line 362 (per candidate, Lemma 2).
  Fails: the minimal counterexample (b = 2, l_max = 1), the paper's defaults (b = 11: 0.790, exact), the released
  code's n_sample = 5000 (b = 11: 0.9450), most of the experiments' documents; FRED's own sampler rejects it at b =
  11. It holds for b <= l_max. It matters because Eq. 3 is undefined for a candidate with n_c = 0.
* ``above-0.99`` (stronger), ``one-minus-one-over-b`` (alternative): the joint event at 0.99, at 1 - 1/b: fail.
* ``grows-with-n`` (weaker, the next sentence's "for a large amount of samples", line 276): the joint probability
  tends to 1 as n grows; the union bound gives the n that reaches alpha. Holds (argued).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from analytic import coverage_sym, covers, joint_coverage, joint_coverage_all_sizes, joint_coverage_upper_bound
from analytic.exact_cache import exact_cache
from analytic.lemma2 import joint_candidate_sizes, joint_coverage_one_out
from fred_constants import ALPHA_EXACT, DELTA, MAX_LEN, P_EXACT, RELEASED_N_SAMPLES, P

from ...statistics.seeds import statistical_seed
from ...verdicts.counterexamples import minimal_counterexample
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .absence import documents_table, fred_sampler_runs, one_out_at_defaults, scheme_n, union_bound_reaches
from .lemma2_proof import lemma2_conditions, paper_n

CLAIM = Claim("sampling-absence", new=True)
JOINT, STRICT, BY_LENGTH, GROWS = "joint", "above-0.99", "one-minus-one-over-b", "grows-with-n"
EACH, ALL_SIZES = "per-candidate", "per-candidate-all-sizes"
NOTE = Quote(274, r"Note that the sampling scheme ensures that, \emph{with high probability}, for each candidate, "
                  r"there is at least one sample in which the candidate is not present.")
HIGH = Quote(372, r"As \say{high probability,} we set by default $\alpha = 0.95$ and the token perturbation "
                  r"probability $p=0.5$.")
RESTATED = Quote(362, r"The sample size $n$ is chosen such that, for each candidate, there exists with high "
                      r"probability at least one sample not containing it, \emph{i.e.}, such that for each "
                      r"$\candidate \in \candidates$, $n_\candidate \geq 1$ with probability higher than $\alpha$ "
                      r"(see Lemma~\ref{lemma:n-sample}).")
LEMMA_SIZES = Quote(366, r"for any candidate $\candidate$ with size smaller or equal than $\length_{max}$")
SOURCE = (
    NOTE,
    Quote(276, r"This definition guarantees that, for a large amount of samples, the empirical drop is a good "
               r"estimate"),
    Quote(355, r"for each sample, each token is independently selected with probability $p$;"),
    RESTATED,
    LEMMA_SIZES,
    HIGH,
    Quote(373, r"As a maximum number of words to be used as an explanation, we set $\ell_{max} = 10$"),
    Quote(374, r"these choices imply a sample size of $n \approx 3000$."),
    Quote(409, r"\For{\texttt{size} = 1: $\ell_{max}$}:"),
)
READINGS = (
    Reading(EACH, "headline",
            "each candidate of size <= l_max (those Algorithm 1 forms) on its own is absent from some of the n "
            "samples FRED draws with probability >= alpha = 0.95: section 2.3 restates the note per candidate "
            "(line 362, 'for each c in C, n_c >= 1 with probability higher than alpha (see Lemma 2)'), line 372's "
            "alpha is that lemma's level, and the note's 'ensures' is what n is chosen for; this is Lemma 2 "
            "(candidates of size <= l_max, line 366)",
            why=(RESTATED, HIGH, LEMMA_SIZES)),
    Reading(ALL_SIZES, "stronger",
            "the same per candidate, for every candidate of the document, of every size up to b (line 362's 'each "
            "c in C' taken literally, C holding every subset)",
            why=(Quote(362, r"for each $\candidate \in \candidates$, $n_\candidate \geq 1$ with probability "
                            r"higher than $\alpha$"),)),
    Reading(JOINT, "stronger",
            "with probability at least alpha = 0.95, every candidate of size <= l_max is absent from at least one of "
            "the n samples at once: line 274's literal scope, its word order putting 'with high probability' over the "
            "whole 'for each candidate' clause (the headline follows line 362's 'i.e.' gloss instead); what "
            "Algorithm 1 needs, since Eq. 3 divides by n_c and is undefined for a candidate with n_c = 0",
            why=(NOTE, HIGH)),
    Reading(STRICT, "stronger", "the joint event with probability at least 0.99",
            why=(Quote(274, r"Note that the sampling scheme ensures that, \emph{with high probability}"),)),
    Reading(BY_LENGTH, "alternative",
            "the joint event with probability at least 1 - 1/b on a b-token document ('with high probability' in "
            "the sense of a probability tending to 1 with the size of the input)",
            why=(Quote(274, r"Note that the sampling scheme ensures that, \emph{with high probability}"),)),
    Reading(GROWS, "weaker",
            "for each document the probability of the joint event tends to 1 as the number of samples n grows",
            why=(Quote(276, r"This definition guarantees that, for a large amount of samples"),)),
)
STATEMENT = (
    "Section 2.2 (line 274): 'Note that the sampling scheme ensures that, with high probability, for each candidate, "
    "there is at least one sample in which the candidate is not present'; section 2.3 (line 362) restates it per "
    "candidate: n is chosen so that 'for each c in C, n_c >= 1 with probability higher than alpha (see Lemma 2)', "
    "Lemma 2 covering the candidates of size <= l_max (line 366). Checked on FRED's scheme (each row perturbs each "
    "token independently with probability p, line 355; n from Lemma 2 with l = min(l_max, b), the paper's n = 3067 "
    "for b >= l_max at the defaults p = 1/2, alpha = 0.95, l_max = 10) at every document length of the committed "
    "experiments. The joint reading (every candidate at once, which Eq. 3 needs) is line 274's literal scope: its "
    "word order puts 'with high probability' over the whole 'for each candidate' clause; the headline follows the "
    "paper's own 'i.e.' gloss of line 362 (per candidate, Lemma 2). Beside them the released code's n_sample = 5000."
)
CORRECTED = (
    "Each candidate of size <= l_max is absent from some sample with probability >= alpha (Lemma 2); a longer one "
    "is not (b = 11: 0.776). Every candidate of size <= l_max at once is absent from some sample with probability "
    ">= alpha at the scheme's n if and only if the document has b <= l_max tokens (then the whole document is a "
    "candidate and Lemma 2 covers it). At the paper's defaults a document of l_max + 1 = 11 tokens gets 0.790 "
    "(exact; 0.9450 at the released n_sample = 5000), every longer one at most that; with n >= log((1 - alpha) / "
    "C(b, l)) / log(1 - p^l), l = min(l_max, b), rows (the union bound) it is >= alpha for every b, and it tends to "
    "1 as n grows."
)

#: The minimal-counterexample search: documents of b = 1..5 tokens, l_max = 1..4, at the paper's alpha and p.
SEARCH_B = tuple(range(1, 6))
SEARCH_L_MAX = tuple(range(1, 5))
#: The documents of the second-moment bound at the paper's defaults.
DEFAULT_BS = (15, 20, 150)
#: The grid of the b <= l_max check: b = 1..4 tokens, l_max = b..6, these alphas, p = 1/2.
GRID_B = tuple(range(1, 5))
GRID_L_MAX = 6
GRID_ALPHAS = ("0.5", "0.8", "0.9", "0.95", "0.99")
#: Designs of FRED's own sampler at b = l_max + 1 (step s3), and their default seed.
SIMS, SEED = 400, 274
#: The n and b of the exhaustive monotonicity check (step p3): p = 1/2, every l_max <= b.
MONOTONE_B, MONOTONE_N = tuple(range(1, 5)), tuple(range(1, 5))


def scheme_hypotheses(*, alpha, p, l_max: int, n: int, sizes) -> dict:
    """The note's hypotheses computed on a case: the scheme's p = 1/2 (line 372) and Lemma 2's n, alpha and
    candidate sizes (the scheme chooses n by Lemma 2, line 362); a :func:`hypotheses` record."""
    return hypotheses(p_is_one_half=Fraction(p) == P_EXACT, **lemma2_conditions(alpha, l_max, n, sizes))


def _document_hypotheses(b: int, l_max: int) -> dict:
    """The record of a b-token document at the paper's alpha and n: its candidates are those of size <= l_max."""
    return scheme_hypotheses(alpha=ALPHA_EXACT, p=P_EXACT, l_max=l_max, n=paper_n(ALPHA_EXACT, l_max),
                             sizes=joint_candidate_sizes(b, l_max))


def _joint(b: int, l_max: int) -> Fraction:
    """Inclusion-exclusion over the candidates of the largest size min(l_max, b), at the paper's n and p = 1/2."""
    return joint_coverage(b, paper_n(ALPHA_EXACT, l_max), P_EXACT, min(l_max, b))


def _breaks(case) -> bool:
    """A counterexample to reading alpha: inside the hypotheses, and all candidates absent somewhere w.p. < alpha."""
    return _document_hypotheses(*case)["satisfies_hypotheses"] and _joint(*case) < ALPHA_EXACT


@exact_cache(copy=True)  # a closed form: the same for every subject
def _counterexample() -> tuple[bool, dict]:
    """Search, confirm by two exact methods, and check minimality over every smaller case of the grid."""
    found = minimal_counterexample(st.tuples(st.sampled_from(SEARCH_B), st.sampled_from(SEARCH_L_MAX)), _breaks)
    sweep = {(b, l): _breaks((b, l)) for b in SEARCH_B for l in SEARCH_L_MAX}
    grid = {"alpha": str(ALPHA_EXACT), "p": "1/2", "b": list(SEARCH_B), "l_max": list(SEARCH_L_MAX),
            "smaller": "a shorter document b first, then a smaller l_max (hence fewer rows n)",
            "cases": len(sweep), "failing_cases": sum(sweep.values()),
            "fails_exactly_when_l_max_below_b": all(sweep[(b, l)] == (l < b) for b, l in sweep)}
    if found is None:
        inside = all(_document_hypotheses(*case)["satisfies_hypotheses"] for case in sweep)
        return True, dict(grid, found=None, **hypotheses(every_searched_case_inside_hypotheses=inside))
    b, l_max = found
    n = paper_n(ALPHA_EXACT, l_max)
    by_inclusion_exclusion = joint_coverage(b, n, P_EXACT, min(l_max, b))
    row_by_row = joint_coverage_all_sizes(b, n, P_EXACT, l_max)
    confirmed = by_inclusion_exclusion == row_by_row < ALPHA_EXACT
    smaller = [c for c in sweep if c < (b, l_max)]
    record = _document_hypotheses(b, l_max)
    example = {**record, "b": b, "l_max": l_max, "p": P, "alpha": float(ALPHA_EXACT), "n": n,
               "joint_coverage": str(row_by_row), "joint_coverage_float": float(row_by_row),
               "per_candidate_coverage": str(coverage_sym(n, P_EXACT, l_max))}
    values = dict(grid, **record, found=example, confirmed=confirmed, minimal=not any(sweep[c] for c in smaller),
                  smaller_cases_checked=len(smaller),
                  confirmed_by="inclusion-exclusion (analytic.lemma2.joint_coverage) and the row-by-row "
                               "distribution of the covered candidates (joint_coverage_all_sizes), in Fractions")
    return not confirmed, values


@exact_cache(copy=True)  # a closed form: the same for every subject
def _paper_defaults() -> tuple[bool, dict]:
    """At alpha = 0.95, l_max = 10, the scheme's n, p = 1/2: b = 11 exactly (closed form), and Chebyshev upper bounds
    on longer documents."""
    n = paper_n(ALPHA_EXACT, MAX_LEN)
    exact = one_out_at_defaults()
    bounds = {b: joint_coverage_upper_bound(b, n, P, MAX_LEN) for b in DEFAULT_BS}
    return exact >= ALPHA_EXACT and all(u >= float(ALPHA_EXACT) for u in bounds.values()), {
        "alpha": str(ALPHA_EXACT), "l_max": MAX_LEN, "n": n, "scheme_n_at_b_11": scheme_n(MAX_LEN + 1), "p": "1/2",
        "b_11_exact_float": float(exact), "b_11_below_alpha": exact < ALPHA_EXACT,
        "upper_bound": {str(b): u for b, u in bounds.items()},
        "arithmetic": "b = 11: analytic.lemma2.joint_coverage_one_out in Fractions; longer: Chebyshev, P(X = 0) <= "
                      "Var X / (E X)^2, X the number of size-l_max candidates present in every row, 80 digits"}


@exact_cache(copy=True)  # a closed form: the same for every subject
def _whole_document() -> tuple[bool, dict]:
    """b <= l_max: the joint probability (row by row, all candidates) equals 1 - (1 - 1/2**b)**n and reaches alpha."""
    wrong, cases = [], 0
    for b in GRID_B:
        for l_max in range(b, GRID_L_MAX + 1):
            for a in GRID_ALPHAS:
                n = paper_n(a, l_max)
                joint = joint_coverage_all_sizes(b, n, P_EXACT, l_max)
                single = coverage_sym(n, P_EXACT, b)
                cases += 1
                if not (joint == single >= Fraction(a)):
                    wrong.append({"b": b, "l_max": l_max, "alpha": a, "n": n, "joint": str(joint),
                                  "whole_document": str(single)})
    return not wrong, {"b": list(GRID_B), "l_max": f"b..{GRID_L_MAX}", "alphas": list(GRID_ALPHAS), "p": "1/2",
                       "cases": cases, "violations": wrong}


@exact_cache(copy=True)  # a closed form: the same for every subject
def _monotone() -> tuple[bool, dict]:
    """The joint probability never grows with b (fixed l_max, n), row by row in Fractions on small cases, and the
    b = l_max + 1 closed form equals it there."""
    wrong, cases = [], 0
    for l_max in MONOTONE_B:
        for n in MONOTONE_N:
            values = [joint_coverage_all_sizes(b, n, P_EXACT, l_max) for b in range(l_max, 5)]
            cases += len(values)
            if any(later > earlier for earlier, later in zip(values, values[1:])):
                wrong.append({"l_max": l_max, "n": n, "values": [str(v) for v in values]})
            if l_max + 1 <= 4 and joint_coverage_one_out(l_max + 1, n, P_EXACT) != values[1]:
                wrong.append({"l_max": l_max, "n": n, "closed_form": "differs"})
    return not wrong, {"l_max": list(MONOTONE_B), "n": list(MONOTONE_N), "b": "l_max..4", "p": "1/2",
                       "cases": cases, "violations": wrong}


def check() -> ClaimResult:
    """The headline per-candidate (Lemma 2 on the experiments' documents), its all-sizes strengthening, the joint
    reading (the minimal counterexample, the paper's defaults, the released n, FRED's own sampler, the experiments'
    documents), the stronger and alternative thresholds, the limit in n, and the correction."""
    table = documents_table()
    cx = _counterexample()
    steps = (per_candidate(table), lemma_2_proof(), all_sizes(table), minimal_counterexample_step(cx),
             paper_defaults(), released_n(), fred_sampler(), experiment_documents(table),
             threshold_step("s5-above-0-99", STRICT, "0.99", table), threshold_step("s6-one-minus-one-over-b",
                                                                                   BY_LENGTH, "1-1/b", table),
             grows_with_n(table), union_bound_proof(), longer_is_harder(), monotone_small_cases(),
             whole_document_is_enough(), whole_document_exact(), union_bound_n_reaches(table))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=_conditions(table),
                        counterexample=None, steps=steps, corrected=CORRECTED, source=SOURCE,
                        readings=READINGS)


def minimal_counterexample_step(cx: tuple[bool, dict]) -> StepResult:
    """s1: the minimal counterexample to reading alpha, confirmed by two exact methods."""
    holds, seen = cx
    example = seen["found"]
    found = ("no counterexample found" if example is None else
             f"b = {example['b']} tokens, l_max = {example['l_max']}, p = 1/2, alpha = 0.95, the scheme's n = "
             f"{example['n']}: every candidate absent from some sample with probability {example['joint_coverage']} "
             f"= {example['joint_coverage_float']:.6f} < 0.95 (each one alone: {example['per_candidate_coverage']}); "
             f"inside the hypotheses (computed: {example['satisfies_hypotheses']}); confirmed in Fractions by "
             f"inclusion-exclusion and by the row-by-row distribution; minimal: {seen['minimal']} (smaller: a "
             "shorter document, then a smaller l_max)")
    return CLAIM.checked(
        "s1-minimal-counterexample", "statement", "counterexample",
        f"Hypothesis search over b in 1..5, l_max in 1..4, inside the hypotheses: {found}. Over the whole family the "
        f"probability is below alpha exactly when l_max < b ({seen['fails_exactly_when_l_max_below_b']}).",
        holds=holds, values=seen, reading=JOINT)


def paper_defaults() -> StepResult:
    """s2: at the paper's defaults, b = 11 exactly and Chebyshev upper bounds on longer documents."""
    holds, seen = _paper_defaults()
    return CLAIM.checked(
        "s2-paper-defaults", "statement", "exhaustive",
        f"At the paper's defaults (alpha = 0.95, l_max = 10, n = {seen['n']}, p = 1/2): a document of 11 tokens has "
        f"every candidate of size <= 10 absent from some sample with probability {seen['b_11_exact_float']:.4f} "
        "(exact: the closed form of analytic.lemma2.joint_coverage_one_out, Fractions); longer documents at most "
        + ", ".join(f"{u:.3g} (b = {b})" for b, u in seen["upper_bound"].items())
        + " (Chebyshev bound, 80 digits), against 0.95.", holds=holds, values=seen, reading=JOINT)


def fred_sampler() -> StepResult:
    """s3: FRED's own sampler at b = 11 and the scheme's n: a Clopper-Pearson test of 'probability >= alpha'."""
    seen = fred_sampler_runs(MAX_LEN + 1, SIMS, statistical_seed(SEED), DELTA)
    low, high = seen["interval"]
    exact = float(one_out_at_defaults())
    seen.update(rejects=high < float(ALPHA_EXACT), confirms=low >= float(ALPHA_EXACT), exact_float=exact,
                interval_contains_exact=low <= exact <= high)
    return CLAIM.checked(
        "s3-fred-sampler", "statement", "statistical",
        f"FRED's own sampler (fred.sampling.MaskSampler.draw) on {SIMS} designs of n = {seen['n']} rows of b = "
        f"{seen['b']} positions: every size-10 candidate absent from some row in {seen['all_absent_somewhere']} of "
        f"them, Clopper-Pearson interval [{low:.3f}, {high:.3f}] at false-alarm probability {DELTA} (seed "
        f"{seen['seed']}): 'probability >= 0.95' is rejected: {seen['rejects']} (confirmed: {seen['confirms']}; "
        "inconclusive if neither). The interval contains the exact value "
        f"{exact:.4f} of step s2: {seen['interval_contains_exact']}.",
        holds=seen["confirms"], conclusive=seen["rejects"] or seen["confirms"], values=seen, reading=JOINT)


def _count(table: list[dict], name: str, outcome: str) -> int:
    return sum(r["documents"] for r in table if r["thresholds"][name] == outcome)


def experiment_documents(table: list[dict]) -> StepResult:
    """s4: every document of the committed experiments, at the scheme's n: exact for b <= 11, an exact upper bound
    beyond; the longest document's second-moment upper bound (an upper bound, never a value)."""
    total, missed = sum(r["documents"] for r in table), _count(table, "alpha", "missed")
    short, longest = [r for r in table if r["b"] <= MAX_LEN], table[-1]
    second_moment = joint_coverage_upper_bound(longest["b"], longest["n"], P, MAX_LEN)
    return CLAIM.checked(
        "s4-experiment-documents", "statement", "exhaustive",
        f"The {total} documents of the committed experiments (b = {table[0]['b']} to {table[-1]['b']} tokens, "
        f"results/*_p0.5_eps0.15*.csv) at FRED's n: the {sum(r['documents'] for r in short)} with b <= {MAX_LEN} "
        f"reach alpha exactly (lowest {min(r['value_float'] for r in short):.4f}); the {missed} with b > {MAX_LEN} "
        f"miss it: at most {max(r['value_float'] for r in table if r['b'] > MAX_LEN):.4f} (b = 11 exact, longer "
        f"at most that, proof p2); the longest, b = {longest['b']}, at most {second_moment:.4f} (the second-moment "
        f"bound, as in s2; the disjoint-block bound gives only at most {longest['value_float']:.4f}); undecided: "
        f"{_count(table, 'alpha', 'undecided')}.",
        holds=missed == 0 and _count(table, "alpha", "undecided") == 0, reading=JOINT,
        values={"documents": total, "reached": _count(table, "alpha", "reached"), "missed": missed,
                "undecided": _count(table, "alpha", "undecided"), "by_length": table,
                "longest_b": longest["b"], "longest_second_moment_upper_bound": second_moment,
                "longest_block_upper_bound": longest["value_float"]})


def threshold_step(step: str, reading: str, name: str, table: list[dict]) -> StepResult:
    """s5, s6: the same documents against another threshold ("0.99", or "1-1/b")."""
    reached, missed = _count(table, name, "reached"), _count(table, name, "missed")
    first = next((r["b"] for r in table if r["thresholds"][name] == "missed"), None)
    return CLAIM.checked(
        step, "statement", "exhaustive",
        f"Threshold {name} on the same {reached + missed + _count(table, name, 'undecided')} documents at FRED's n: "
        f"reached by {reached}, missed by {missed} (the shortest missing it has b = {first} tokens), undecided "
        f"{_count(table, name, 'undecided')} (exact comparisons of the values of step s4).",
        holds=missed == 0 and _count(table, name, "undecided") == 0, reading=reading,
        values={"threshold": name, "reached": reached, "missed": missed, "shortest_missing_b": first,
                "undecided": _count(table, name, "undecided")})


def grows_with_n(table: list[dict]) -> StepResult:
    """s7: reading grows-with-n: for every experiment length the union bound reaches alpha at a finite n."""
    reaching = {r["b"]: union_bound_reaches(r["b"], r["n_union_bound"]) for r in table}
    longest = table[-1]
    return CLAIM.checked(
        "s7-grows-with-n", "statement", "exhaustive",
        f"For every experiment length b, n_b = the smallest n with C(b, l) (1 - 2^-l)^n <= 0.05 (l = min(10, b); "
        f"decided exactly) gives probability >= 1 - C(b, l)(1 - 2^-l)^n_b >= alpha: {all(reaching.values())}; "
        f"n_b = {next(r['n_union_bound'] for r in table if r['b'] == MAX_LEN + 1)} at b = 11 and "
        f"{longest['n_union_bound']} at b = {longest['b']}, against the scheme's {longest['n']}; beyond n_b the "
        "bound keeps growing to 1 (proof p1).",
        holds=all(reaching.values()), reading=GROWS,
        values={"n_union_bound": {str(b): r["n_union_bound"] for b, r in zip(reaching, table)},
                "reaches_alpha": {str(b): v for b, v in reaching.items()}})


def per_candidate(table: list[dict]) -> StepResult:
    """s8: reading per-candidate: on every experiment length, each candidate size l <= min(l_max, b) is absent from
    some of the scheme's n rows with probability 1 - (1 - 2^-l)^n >= alpha, decided exactly."""
    short = [(r["b"], l) for r in table for l in range(1, min(MAX_LEN, r["b"]) + 1)
             if not covers(ALPHA_EXACT, r["n"], P_EXACT, l)]
    return CLAIM.checked(
        "s8-per-candidate", "statement", "exhaustive",
        f"Each candidate on its own, on every experiment length b at FRED's n: a candidate of size l <= min(10, b) "
        "is absent from some row with probability 1 - (1 - 2^-l)^n >= 0.95, decided exactly (analytic.covers) on "
        f"{sum(min(MAX_LEN, r['b']) for r in table)} (b, l) pairs; below alpha: {short or 'none'}.",
        holds=not short, reading=EACH,
        values={"pairs": sum(min(MAX_LEN, r["b"]) for r in table), "below_alpha": short,
                "n_by_b": {str(r["b"]): r["n"] for r in table}})


def all_sizes(table: list[dict]) -> StepResult:
    """s9: reading per-candidate-all-sizes: the whole document of b > l_max tokens, a candidate of size b, is absent
    from some of the scheme's n rows with probability 1 - (1 - 2^-b)^n < alpha, decided exactly."""
    n = scheme_n(MAX_LEN + 1)
    at_11 = coverage_sym(n, P_EXACT, MAX_LEN + 1)
    long = [r for r in table if r["b"] > MAX_LEN]
    below = [r["b"] for r in long if not covers(ALPHA_EXACT, r["n"], P_EXACT, r["b"])]
    documents = sum(r["documents"] for r in long if r["b"] in below)
    return CLAIM.checked(
        "s9-all-sizes", "statement", "exhaustive",
        f"Every size up to b: at the paper's defaults (n = {n}, p = 1/2) a document of 11 tokens is itself a "
        f"candidate of size 11, absent from some row with probability 1 - (1 - 2^-11)^{n} = {float(at_11):.4f} < "
        f"0.95 ({at_11 < ALPHA_EXACT}, Fractions); on the experiments, the whole document misses alpha (decided "
        f"exactly, analytic.covers) on {len(below)} of the {len(long)} lengths b > 10 ({documents} documents). "
        "Lemma 2 (line 366) covers only sizes <= l_max.",
        holds=not below and at_11 >= ALPHA_EXACT, reading=ALL_SIZES,
        values={"n": n, "b_11_whole_document_float": float(at_11),
                "lengths_above_l_max": len(long), "lengths_below_alpha": below, "documents_below_alpha": documents})


def released_n() -> StepResult:
    """s10: the released code's n_sample = 5000 (fred/explainer.py, explain_instance's default): the joint
    probability at b = l_max + 1, exact."""
    value = joint_coverage_one_out(MAX_LEN + 1, RELEASED_N_SAMPLES, P_EXACT)
    return CLAIM.checked(
        "s10-released-n", "statement", "exhaustive",
        f"The released code draws n_sample = {RELEASED_N_SAMPLES} rows (the default of explain_instance in the "
        "authors' fred/explainer.py, line 201 at the released commit), more than the paper's 3067: at b = 11, p = "
        f"1/2 every candidate of size <= 10 is absent from some row with probability {float(value):.4f} < 0.95 "
        f"({value < ALPHA_EXACT}; the closed form analytic.lemma2.joint_coverage_one_out, Fractions): the joint "
        "failure persists at the released n.",
        holds=value >= ALPHA_EXACT, reading=JOINT,
        values={"b": MAX_LEN + 1, "n": RELEASED_N_SAMPLES, "joint_coverage_float": float(value),
                "source": "authors' fred/explainer.py, explain_instance(..., n_sample=5000, ...)"})


def lemma_2_proof() -> StepResult:
    """p5: reading per-candidate is Lemma 2 (argued here; proved in claim lemma2)."""
    return CLAIM.argued(
        "p5-lemma-2", "proof",
        "A candidate of size l is absent from one row with probability p^l, independently across the n rows, so "
        "from some row with probability 1 - (1 - p^l)^n, which is >= alpha for n >= log(1 - alpha) / log(1 - p^l) "
        "and grows as l falls: Lemma 2, whose steps claim lemma2 checks symbolically; FRED's n is chosen by it for "
        "l = min(l_max, b).", reading=EACH)


def union_bound_proof() -> StepResult:
    """p1: the probability tends to 1 as n grows (argued)."""
    return CLAIM.argued(
        "p1-union-bound", "proof",
        "Each of the C(b, l) candidates of size l = min(l_max, b) is present in all n i.i.d. rows with probability "
        "(1 - p^l)^n; by the union bound the probability that some is present in every row is at most "
        "C(b, l)(1 - p^l)^n, which tends to 0 as n grows (p > 0); a row that perturbs a candidate perturbs its "
        "subsets, so covering the size-l ones covers every smaller one.", reading=GROWS)


def longer_is_harder() -> StepResult:
    """p2: the probability never grows with b, and the disjoint-block bound (argued)."""
    return CLAIM.argued(
        "p2-longer-is-harder", "proof",
        "The candidates of size <= l_max of the first b positions are candidates of a longer document, and the "
        "rows restricted to those positions are distributed as the rows of the shorter one (independent "
        "coordinates): the event for b + 1 tokens implies the event for b, so the probability never grows with b "
        "(at the same n, which is the scheme's 3067 for every b >= l_max). Likewise covering every candidate "
        "covers the floor(b / l_max) disjoint blocks of l_max positions, each covered independently with "
        "probability 1 - (1 - p^l_max)^n, whence the block bound.", reading=JOINT)


def monotone_small_cases() -> StepResult:
    """p3: p2's monotonicity and the b = l_max + 1 closed form, row by row on small cases."""
    holds, seen = _monotone()
    return CLAIM.checked(
        "p3-monotone-small-cases", "proof", "exhaustive",
        f"Row by row in Fractions (all candidates, no inclusion-exclusion), p = 1/2, l_max in 1..{MONOTONE_B[-1]}, n "
        f"in 1..{MONOTONE_N[-1]}, b = l_max..4 ({seen['cases']} values): the probability never grows with b, and "
        f"the b = l_max + 1 closed form equals it; violations: {len(seen['violations'])}.",
        holds=holds, values=seen, reading=JOINT)


def whole_document_is_enough() -> StepResult:
    """p4: for b <= l_max covering the whole document covers every candidate (argued)."""
    return CLAIM.argued(
        "p4-whole-document-is-enough", "proof",
        "For b <= l_max only: the whole document D is itself a candidate (|D| = b <= l_max) and every candidate is a "
        "subset of D, so a row that perturbs all of D perturbs every candidate: 'every candidate absent from some "
        "sample' and 'D absent from some sample' are the same event, of probability 1 - (1 - 1/2**b)**n >= alpha "
        "by Lemma 2 with the fixed candidate D.", reading=JOINT)


def whole_document_exact() -> StepResult:
    """c1: for b <= l_max the joint probability, row by row, equals the whole document's and reaches alpha."""
    holds, seen = _whole_document()
    return CLAIM.checked(
        "c1-whole-document-exact", "correction", "exhaustive",
        "For b <= l_max the event has probability >= alpha: p = 1/2, the paper's n, the probability that every "
        "candidate of size <= l_max is absent from some sample, computed row by row over all candidates (no "
        f"inclusion-exclusion, no use of p4), equals 1 - (1 - 1/2**b)**n and is >= alpha on all {seen['cases']} "
        f"cases of b in 1..{GRID_B[-1]}, l_max in b..{GRID_L_MAX}, alpha in {{{', '.join(GRID_ALPHAS)}}}, in "
        f"Fractions; violations: {len(seen['violations'])}.", holds=holds, values=seen)


def union_bound_n_reaches(table: list[dict]) -> StepResult:
    """c2: at b = 11, the union-bound n gives an exact probability >= alpha, and the scheme's n one below."""
    b = MAX_LEN + 1
    n_b = next(r["n_union_bound"] for r in table if r["b"] == b)
    at_n_b = joint_coverage_one_out(b, n_b, P_EXACT)
    return CLAIM.checked(
        "c2-union-bound-n", "correction", "exhaustive",
        f"b = {b}, p = 1/2: with the union-bound n = {n_b} rows the exact probability (closed form, Fractions) is "
        f"{float(at_n_b):.5f} >= alpha: {at_n_b >= ALPHA_EXACT}; with the scheme's n = {scheme_n(b)} it is "
        f"{float(one_out_at_defaults()):.4f} < alpha: {one_out_at_defaults() < ALPHA_EXACT}.",
        holds=at_n_b >= ALPHA_EXACT and one_out_at_defaults() < ALPHA_EXACT,
        values={"b": b, "n_union_bound": n_b, "at_n_union_bound_float": float(at_n_b), "scheme_n": scheme_n(b),
                "at_scheme_n_float": float(one_out_at_defaults())})


def _conditions(table: list[dict]) -> str:
    """The conditions, with the counts of step s4."""
    return (
        "The headline reads the note as section 2.3 restates it (line 362: 'for each c in C, n_c >= 1 with "
        "probability higher than alpha (see Lemma 2)'; line 372's alpha = 0.95 is that lemma's level, and the note's "
        "'ensures' is what n is chosen for): each candidate of size <= l_max (those Algorithm 1 forms, line 409; the "
        "sizes Lemma 2 covers, line 366) on its own is absent from some sample with probability >= alpha. It is "
        "Lemma 2 and holds on every document of the experiments (s8, p5; claim lemma2). 'Each c in C' taken "
        "literally, every size up to b, fails: a candidate longer than l_max is missed (b = 11: 0.776, s9). Read "
        "jointly (every candidate of size <= l_max absent from some sample at once: line 274's literal scope, its word "
        "order putting 'with high probability' over the whole 'for each candidate' clause, and what Eq. 3 needs, "
        "since it divides by n_c and is undefined for a candidate with n_c = 0) it fails: minimal "
        "counterexample b = 2, l_max = 1 (s1), 0.790 at the paper's defaults on 11 tokens (s2, FRED's sampler "
        "agrees, s3), 0.9450 at the released code's n_sample = 5000 (s10), and "
        f"{_count(table, 'alpha', 'missed')} of the {sum(r['documents'] for r in table)} documents of the "
        "experiments (every one longer than l_max, s4); it holds for b <= l_max (c1). The joint limit in n (line "
        "276's 'for a large amount of samples') holds (s7, p1)."
    )
