"""Lines 263-264: computing Eq. (1) exactly "necessitates an exhaustive search and evaluation of 2^b candidates—an
impractical endeavor for large documents. To circumvent this computational burden, we employ an empirical approach".

Computed: the exact drop of even one candidate depends on the black box's value on every one of the 2^b
perturbation patterns (its coefficient on each is non-zero), and 2^b model calls give the exact drops of all 2^b - 1
non-empty candidates (superset sums); the empirical approach calls the model n times, n = 3067 at the paper's
defaults (Lemma 2). 2^b exceeds n from b = 12 on: at the Yelp and IMDb average lengths (line 1109: 150 and 230
tokens) by factors of 10^41 and 10^65, while at the Restaurants and Tweets average length (10) the exact computation
takes 1024 calls, fewer than n. The coefficients are non-zero for any b (sympy, symbolic b, |c| and p). Line 263's
"2^b candidates" mixes patterns (2^b model calls) and candidates (2^b - 1 non-empty ones); the headline reads it as
patterns. Sampling does not remove the search: Algorithm 1 (line 410) evaluates every candidate of size <= l_max, and
it is the cap l_max = 10 that cuts the search on large documents (1.26e15 candidates at Yelp's 150 tokens, 9.8e16 at
IMDb's 230, against 2^b - 1 = 1.43e45 and 1.73e69).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb, log10

import numpy as np
import sympy as sp
from sympy import QQ, field

from analytic import all_drops, table_classifier, table_from_classifier
from analytic.lemma2 import sample_size_rational
from fred_constants import ALPHA_EXACT, MAX_LEN, P_EXACT

from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .document_lengths import LENGTHS_LINE, PRINTED_LENGTHS

CLAIM = Claim("exact-drop-cost", new=True)
SENTENCE = Quote(263, "Calculating the prediction drop for each candidate in closed form, as formulated in "
                      r"Eq.~\eqref{eq:drop-candidate}, necessitates an exhaustive search and evaluation of $2^b$ "
                      "candidates—an impractical endeavor for large documents.")
CIRCUMVENT = Quote(264, "To circumvent this computational burden, we employ an empirical approach to estimate the "
                        "prediction drop.")
LENGTHS = Quote(LENGTHS_LINE, r"Note that the datasets have a substantial difference in document length: while the "
                              r"average length of tokens in Restaurants and Tweets is about $10$, for Yelp it is about "
                              r"$150$, in IMDb it is $230$.")
SOURCE = (
    SENTENCE, CIRCUMVENT, LENGTHS,
    Quote(240, r"Finally, we define a \emph{candidate} explanation as any non-empty ordered sublist of $[b]$"),
    Quote(266, r"For a given document $\xi$, we generate a set of $n$ samples through random perturbations of words "
               r"in $\xi$"),
    Quote(374, r"these choices imply a sample size of $n \approx 3000$."),
    Quote(410, r"\State \texttt{candidates} = \texttt{get\_candidates}($\xi$, \texttt{size}) \Comment{return subsets "
               r"with cardinality \texttt{size}}"),
    Quote(402, r"By default, we set $\epsilon=0.15$, $\ell_{max} = 10$, $p=0.5$"),
)
READINGS = (
    Reading("large-documents", "headline",
            "for large documents (the experiments' Yelp and IMDb, about 150 and 230 tokens, line 1109) the exact "
            "drops need the model on all 2^b patterns, far more calls than the empirical approach's n samples. "
            "Line 263's '2^b candidates' mixes patterns (2^b, the model calls) and candidates (2^b - 1 non-empty, line "
            "240); this reading takes it as the patterns.",
            why=(Quote(263, "an impractical endeavor for large documents"), LENGTHS)),
    Reading("always-cheaper", "stronger",
            "the empirical approach costs fewer model calls than the exact computation on every document.",
            why=(CIRCUMVENT,)),
    Reading("no-search", "alternative",
            "the empirical approach circumvents the exhaustive search itself: on large documents the candidates "
            "Algorithm 1 evaluates are fewer than the 2^b - 1 of the exact computation (it is the cap l_max, not the "
            "sampling, that cuts them).",
            why=(Quote(263, r"necessitates an exhaustive search and evaluation of $2^b$ candidates"), CIRCUMVENT,
                 SOURCE[6])),
)
STATEMENT = (
    "Lines 263-264: Eq. (1) in closed form for each candidate 'necessitates an exhaustive search and evaluation of "
    "2^b candidates', 'impractical for large documents'; the empirical approach (n samples, Eq. 3) circumvents "
    "'this computational burden'. The cost compared is the number of model calls (evaluations of the black box), "
    "the candidate count of Algorithm 1's search beside it."
)
CONDITIONS = (
    "A general black box (a table over the 2^b patterns), p in (0, 1); the paper's defaults alpha = 0.95, p = 1/2, "
    "l_max = 10, so n = 3067 (Lemma 2, analytic.lemma2.sample_size_rational; 'n ~ 3000', line 374). The document "
    "lengths are the averages printed on line 1109, parsed from the source. 'Impractical' is a judgement; what is "
    "computed is the ratio of model calls 2^b / n. Line 263's '2^b candidates' mixes patterns and candidates: the "
    "patterns are 2^b (the model calls), the non-empty candidates 2^b - 1 (line 240); the headline reads it as the "
    "patterns. The sentence is about large documents: the 'no-search' reading is taken at line 1109's Yelp and IMDb "
    "lengths, where the cap l_max = 10 (not the sampling) cuts the candidates from 2^b - 1 to sum_{k <= 10} C(b, k)."
)
#: Documents of the symbolic check (every pattern needed) and of the call count (2^b calls suffice).
SYMBOLIC_B, COUNTED_B = (1, 2, 3, 4), tuple(range(1, 9))


def paper_n() -> int:
    """n at the paper's defaults (alpha = 0.95, p = 1/2, l_max = 10), exact: 3067."""
    return sample_size_rational(ALPHA_EXACT, P_EXACT, MAX_LEN)


def algorithm1_candidates(b: int, max_len: int = MAX_LEN) -> int:
    """The candidates Algorithm 1 evaluates on a b-token document: sum_{k = 1}^{min(b, l_max)} C(b, k)."""
    return sum(comb(b, k) for k in range(1, min(b, max_len) + 1))


def check() -> ClaimResult:
    """Necessity and sufficiency of 2^b calls, then the three readings on the printed lengths."""
    lengths, n = dict(PRINTED_LENGTHS), paper_n()
    steps = (every_pattern_needed(), calls_suffice(), large_documents(lengths, n), always_cheaper(lengths, n),
             search_cut_by_l_max(lengths), every_pattern_any_b())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def _coefficients(b: int) -> list[bool]:
    """For each candidate c and pattern z: d Delta_c / d f_z = w_z (1 - [z contains c] / p^|c|), non-zero, in
    QQ(p, f_0, ..., f_{2^b - 1}) (Delta_c is linear in the table; its coefficient on f_z is read off by setting
    f_z = 1 and the others 0)."""
    _, p, *_ = field(["p"] + [f"f{z}" for z in range(2**b)], QQ)
    w = [p ** z.bit_count() * (1 - p) ** (b - z.bit_count()) for z in range(2**b)]
    out = []
    for c in range(1, 2**b):
        k = c.bit_count()
        for z in range(2**b):
            coefficient = w[z] - (w[z] / p**k if z & c == c else 0)  # E[f] minus E[f | c perturbed], on f = e_z
            out.append(coefficient == w[z] * (1 - (1 if z & c == c else 0) / p**k) and coefficient != 0)
    return out


def every_pattern_needed() -> StepResult:
    """s1: the exact drop of any one candidate has a non-zero coefficient on f at every pattern (b = 1..4, in the
    field of rational functions of p), so no pattern's model value can be skipped for a general black box."""
    checked = [ok for b in SYMBOLIC_B for ok in _coefficients(b)]
    return CLAIM.checked(
        "s1-every-pattern-needed", "proof", "symbolic",
        "Delta_c = E[f] - E[f | c not in x] is linear in the table; its coefficient on f at pattern z is w_z (1 - "
        "1{z perturbs all of c} / p^|c|), with w_z = p^k (1 - p)^(b - k) > 0 and p^|c| < 1 for p in (0, 1), so it is "
        f"non-zero: checked in QQ(p, f_0, ...) for every candidate and pattern, b = {SYMBOLIC_B[0]}..{SYMBOLIC_B[-1]} "
        f"({sum(checked)} of {len(checked)} pairs). Changing the black box at any one pattern changes every "
        "candidate's exact drop: Eq. (1) needs the model on all 2^b patterns.",
        holds=all(checked), values={"b": list(SYMBOLIC_B), "pairs": len(checked), "non_zero_as_closed_form":
                                    sum(checked)})


def _counted_drops(b: int, rng: np.random.Generator) -> dict:
    """A random table black box called through a counter: the calls table_from_classifier makes, and the largest
    gap between the superset-sum drops of that one table and Eq. (1) written out per candidate."""
    table = rng.random(2**b)
    tokens = [f"w{i}" for i in range(b)]
    inner, calls = table_classifier(tokens, table), []

    def counting(texts):
        calls.append(len(texts))
        return inner(texts)

    seen = table_from_classifier(counting, tokens)
    fast = all_drops(seen, float(P_EXACT))
    p = float(P_EXACT)
    w = np.array([p ** z.bit_count() * (1 - p) ** (b - z.bit_count()) for z in range(2**b)])
    gap = 0.0
    for c in range(1, 2**b):
        rows = [z for z in range(2**b) if z & c == c]
        direct = w @ seen - w[rows] @ seen[rows] / w[rows].sum()
        gap = max(gap, abs(fast[c] - direct))
    return {"b": b, "model_calls": sum(calls), "candidates": 2**b - 1, "largest_gap": gap}


def calls_suffice() -> StepResult:
    """s2: 2^b model calls give the exact drops of all 2^b - 1 candidates (superset sums, b = 1..8)."""
    rng = np.random.default_rng(20261202)
    rows = [_counted_drops(b, rng) for b in COUNTED_B]
    tol = 1e-12
    ok = all(r["model_calls"] == 2 ** r["b"] and r["largest_gap"] <= tol for r in rows)
    return CLAIM.checked(
        "s2-calls-suffice", "proof", "exhaustive",
        f"A random table black box called through a counter, b = {COUNTED_B[0]}..{COUNTED_B[-1]}: the referee calls "
        f"it on {', '.join(str(r['model_calls']) for r in rows)} texts (2^b), and its superset sums give the exact "
        "drop of every one of the 2^b - 1 candidates, equal to Eq. (1) written out per candidate (largest gap "
        f"{max(r['largest_gap'] for r in rows):.1e}, tolerance {tol:g}). With s1: the exact drops cost exactly 2^b "
        "model calls, whatever the number of candidates evaluated.",
        holds=ok, values={"rows": rows, "tolerance": tol})


def _calls(lengths: dict, n: int) -> dict:
    """Per dataset: the printed average length b, 2^b exact calls as a power of ten, and their ratio to n."""
    return {name: {"b": b, "log10_exact_calls": round(b * log10(2), 2), "log10_ratio_to_n": round(b * log10(2)
                   - log10(n), 2), "exact_cheaper": 2**b < n} for name, b in lengths.items()}


def large_documents(lengths: dict, n: int) -> StepResult:
    """s3 (large-documents): at the printed average lengths above the shortest (Yelp's and IMDb's, the 'substantial
    difference in document length' of line 1109) 2^b exceeds n by tens of orders of magnitude; the smallest b with
    2^b > n."""
    calls = _calls(lengths, n)
    large = {k: v for k, v in calls.items() if v["b"] > min(lengths.values())}
    threshold = next(b for b in itertools.count(1) if 2**b > n)
    return CLAIM.checked(
        "s3-large-documents", "statement", "exhaustive",
        f"n = {n} model calls for the empirical approach (Lemma 2 at alpha = 0.95, p = 1/2, l_max = 10). Exact: 2^b "
        f"calls, more than n from b = {threshold} on. At the large documents of line {LENGTHS_LINE}: "
        + ", ".join(f"{k} (b = {v['b']}): 2^b = 10^{v['log10_exact_calls']}, 10^{v['log10_ratio_to_n']} times n"
                    for k, v in large.items()) + ".",
        holds=bool(large) and not any(v["exact_cheaper"] for v in large.values()),
        values={"n": n, "smallest_b_with_2b_above_n": threshold, "by_dataset": calls}, reading="large-documents")


def always_cheaper(lengths: dict, n: int) -> StepResult:
    """s4 (always-cheaper): the smallest document on which the exact computation needs fewer calls than the
    sampler, under the paper's n and under Lemma 2's n at l = min(b, l_max); and the printed short lengths."""
    cheaper_b = [b for b in range(1, MAX_LEN + 2) if 2**b < n]
    lemma2_n = {b: sample_size_rational(ALPHA_EXACT, P_EXACT, min(b, MAX_LEN)) for b in range(1, MAX_LEN + 1)}
    short = {k: v for k, v in _calls(lengths, n).items() if v["exact_cheaper"]}
    smallest = 1
    case = {"b": smallest, "exact_calls": 2**smallest, "paper_n": n, "lemma2_n_at_b": lemma2_n[smallest],
            "exact_cheaper_for_b": cheaper_b,
            "lemma2_n_by_b": lemma2_n, "exact_cheaper_than_lemma2_n_for_every_b_up_to_l_max":
            all(2**b < m for b, m in lemma2_n.items()), "printed_lengths_where_exact_is_cheaper": sorted(short),
            **hypotheses(document_of_b_tokens=smallest >= 1, paper_defaults=(ALPHA_EXACT, P_EXACT, MAX_LEN) == (
                Fraction(19, 20), Fraction(1, 2), 10))}
    return CLAIM.checked(
        "s4-always-cheaper", "statement", "counterexample",
        f"Exact enumeration needs fewer model calls than the paper's n = {n} for b = {cheaper_b[0]}..{cheaper_b[-1]} "
        f"(smallest: b = 1, 2 calls), and fewer than Lemma 2's n at l = min(b, l_max) for every b <= {MAX_LEN} "
        f"({case['exact_cheaper_than_lemma2_n_for_every_b_up_to_l_max']}: n = 3 * 2^b roughly, e.g. "
        f"{lemma2_n[MAX_LEN]} against {2 ** MAX_LEN} at b = {MAX_LEN}). Among line {LENGTHS_LINE}'s averages, the "
        f"exact computation is the cheaper at {', '.join(sorted(short))} (about {lengths['restaurants']} tokens: "
        f"{2 ** lengths['restaurants']} calls against {n}). Inside the hypotheses (computed).",
        holds=not cheaper_b, values=case, reading="always-cheaper")


def search_cut_by_l_max(lengths: dict) -> StepResult:
    """s5 (no-search): at the large documents of line 1109 (the lengths above the shortest) Algorithm 1 evaluates
    sum_{k <= l_max} C(b, k) candidates, fewer than 2^b - 1; with no cap (l_max = b, sampling alone) it would evaluate
    all 2^b - 1. Below l_max every candidate is evaluated (enumerated), a case the sentence is not about."""
    large = {k: b for k, b in lengths.items() if b > min(lengths.values())}
    at_lengths = {k: {"b": b, "algorithm1_candidates": algorithm1_candidates(b), "all_candidates": 2**b - 1,
                      "uncapped_candidates": algorithm1_candidates(b, max_len=b), **hypotheses(
                          large_document=b > min(lengths.values()), paper_l_max=MAX_LEN == 10)}
                  for k, b in large.items()}
    enumerated = {b: sum(1 for k in range(1, MAX_LEN + 1) for _ in itertools.combinations(range(b), k))
                  for b in range(1, MAX_LEN + 1)}
    small = [b for b, count in enumerated.items() if count == 2**b - 1]
    fewer = all(v["algorithm1_candidates"] < v["all_candidates"] == v["uncapped_candidates"]
                for v in at_lengths.values())
    return CLAIM.checked(
        "s5-search-cut-by-l-max", "statement", "exhaustive",
        f"At line {LENGTHS_LINE}'s large documents Algorithm 1 (line 410, sizes 1..l_max = {MAX_LEN}) evaluates "
        + ", ".join(f"{k} (b = {v['b']}): {v['algorithm1_candidates']:.3g} candidates against 2^b - 1 = "
                    f"{v['all_candidates']:.3g}" for k, v in at_lengths.items())
        + ": fewer, so the exhaustive search is avoided there. It is the cap that cuts it, not the sampling: with "
        "l_max = b (the empirical approach alone) the count is 2^b - 1 again, and at l_max = 10 the search is still "
        f"up to {max((v['algorithm1_candidates'] for v in at_lengths.values()), default=0):.3g} "
        f"candidates. On short documents (b <= {MAX_LEN}, enumerated: {len(small)} of {MAX_LEN}) every one of the "
        "2^b - 1 candidates is evaluated, a case line 263 ('for large documents') does not speak of.",
        holds=bool(at_lengths) and fewer, values={"at_large_lengths": {k: {**v, "algorithm1_candidates":
                                                                              f"{v['algorithm1_candidates']:.4e}",
                                                                              "all_candidates":
                                                                              f"{v['all_candidates']:.4e}",
                                                                              "uncapped_candidates":
                                                                              f"{v['uncapped_candidates']:.4e}"}
                                                                   for k, v in at_lengths.items()},
                                                  "b_where_all_are_searched": small}, reading="no-search")


def every_pattern_any_b() -> StepResult:
    """s6: for any b, pattern z (j perturbed tokens) and candidate c (k = |c| >= 1 tokens), the coefficient w_z (1 -
    1{z contains c} / p^k) of f_z in Delta_c is non-zero for p in (0, 1): w_z > 0 (sympy, p = 1/(1 + t), t > 0,
    symbolic b, j), and 1 - 1/p^k = 0 has no solution in (0, 1) (k log p = 0, solveset, symbolic k)."""
    t = sp.Symbol("t", positive=True)
    b, j = sp.Symbol("b", integer=True, positive=True), sp.Symbol("j", integer=True, nonnegative=True)
    k, p = sp.Symbol("k", integer=True, positive=True), sp.Symbol("p", positive=True)
    onto_unit = 1 / (1 + t)  # t in (0, oo) covers p in (0, 1)
    weight_positive = (onto_unit**j * (1 - onto_unit) ** (b - j)).is_positive
    roots = sp.solveset(sp.Eq(k * sp.log(p), 0), p, sp.Interval.open(0, 1))  # p^k = 1 iff k log p = 0 (p > 0)
    return CLAIM.checked(
        "s6-every-pattern-any-b", "proof", "symbolic",
        "For any b (symbolic b, j perturbed tokens in z, k = |c| >= 1, sympy): the weight w_z = p^j (1 - p)^(b - j) "
        f"with p = 1/(1 + t), t > 0 (every p in (0, 1)) is positive: {weight_positive}; so the coefficient of f_z in "
        "Delta_c is w_z != 0 when z does not contain c, and w_z (1 - 1/p^k) when it does, zero only if p^k = 1, i.e. "
        f"k log p = 0, whose solutions in (0, 1) are {roots}. Every pattern's value enters every candidate's exact "
        "drop for every b, b = 150 and 230 included: Eq. (1) needs all 2^b model calls (and, a finite sum over the "
        "2^b patterns, no more).",
        holds=weight_positive is True and roots == sp.S.EmptySet,
        values={"weight_positive": bool(weight_positive), "roots_of_p_power_k_equal_1_in_unit_interval": str(roots)})
