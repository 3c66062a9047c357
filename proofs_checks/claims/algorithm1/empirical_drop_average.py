"""The empirical drop "is computed by averaging the drops over the samples that do not contain c" (lines 335, 391,
412, 434): is that average Eq. (3)?

The paper defines d twice: line 246's drop in prediction d(x) = E[f] - f(x), and Algorithm 1's d(x) = fhat - f(x)
(line 408, fhat the average prediction of the sample, line 407). Line 335 sits next to line 334's d(x_j), which is line
246's d: reading line 335 with line 246's drops is a real notational clash in the paper, not a straw man. Averaged
over the n_c samples where c is perturbed, the second gives Eq. (3) exactly, on any sample; the first gives Eq. (3) +
(E[f] - fhat), which differs at finite n and agrees only in the limit (Lemma 1). Checked as identities in the field of
rational functions of the sample's values (every non-empty set of rows, n <= 6), for any n by linearity of a finite
sum (sympy, a symbolic sample size), in Fractions on random sample tables of random black boxes, and on the reference
explainer's own samples (its importances and selected drop against Eq. (3) recomputed from them).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import sympy as sp
from sympy import QQ, field

from analytic import table_classifier
from fred_constants import P_EXACT

from ...subject.explainer import explainer
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses

CLAIM = Claim("empirical-drop-average", new=True)
ALGORITHM_DROP = Quote(408, r"\State $\drop(x) = \widehat{\model(x)} - \model(x)$  \Comment{difference between "
                            r"average and each sample prediction}")
COMPUTE_DROP = Quote(412, r"\State $\Empdrop_\candidate$ = \texttt{compute\_drop}($\model$, $\candidate$, $x$, "
                          r"$\drop(x)$) \Comment{average $\drop(x)$ where $c\notin x$}")
EQ3 = Quote(271, r"\Empdrop_\candidate \defeq \frac{1}{n} \sum_{i=1}^n \model(x_i) - \frac{1}{n_\candidate} "
                 r"\sum_{\candidate \notin x_i} \model(x_i) = \widehat{\model(x)}- \frac{1}{n_\candidate} "
                 r"\sum_{\candidate \notin x_i} \model(x_i)")
SECTION2_DROP = Quote(246, r"For any sample $x$, we define this quantity as $\drop(x) \defeq \expec{\model(x)} - "
                           r"\model(x)$")
SOURCE = (
    Quote(391, r"Once the sample $x$ is created, the empirical drop associated to a candidate $\Empdrop_{\candidate}$ "
               r"is computed by averaging the drops over the samples that do not contain $\candidate$."),
    Quote(335, r"Finally, the empirical drop $\Empdrop_{\candidate}$ of a candidate is computed by averaging the "
               r"drops over the samples that do not contain $\candidate$."),
    COMPUTE_DROP,
    Quote(434, r"In practice, the importance score $s_i$ is the average drop of samples where the $i$-th token is "
               r"perturbed."),
    EQ3, ALGORITHM_DROP,
    Quote(407, r"\State $\widehat{\model(x)} = \texttt{average}(\model(x))$"),
    SECTION2_DROP,
    Quote(334, r"Each sample is associated with the model's drop in prediction $\drop(x_j)$."),
    Quote(358, r"\item each sample $x_j$ is associated with its drop in prediction $\drop(x_j)$."),
)
READINGS = (
    Reading("algorithm-drops", "headline",
            "the drops averaged are Algorithm 1's d(x) = fhat - f(x) (line 408), the d(x) that line 412 hands to "
            "compute_drop and whose average it takes; Eq. (3) itself is written with fhat (line 271).",
            why=(ALGORITHM_DROP, COMPUTE_DROP, EQ3)),
    Reading("section2-drops", "alternative",
            "the drops averaged are line 246's drop in prediction d(x) = E[f] - f(x), the quantity Figure 1 and the "
            "sampling scheme associate with each sample (lines 334, 358). The paper defines d twice, line 246 (with "
            "E[f]) and line 408 (with fhat), and line 335 sits next to line 334's d(x_j), line 246's d: this reading "
            "is the paper's own notational clash, not a straw man.",
            why=(SECTION2_DROP, SOURCE[8], SOURCE[9])),
)
STATEMENT = (
    "Lines 335, 391, 412 and 434: the empirical drop of a candidate c, Eq. (3) (line 271: fhat - (1/n_c) sum_{c not "
    "in x_i} f(x_i)), 'is computed by averaging the drops over the samples that do not contain c', i.e. it equals "
    "(1/n_c) sum_{c not in x_i} d(x_i); the importance score s_i is that average for c = {i}."
)
CONDITIONS = (
    "Any sample x_1..x_n of any black box f, any candidate c with n_c >= 1 (Eq. 3 is undefined otherwise). 'c not in "
    "x_i' means every token of c is perturbed in x_i (line 337). With line 408's drops the identity is exact on every "
    "sample; with line 246's drops the average exceeds Eq. (3) by E[f] - fhat, which tends to 0 in probability as "
    "n grows (Lemma 1's law of large numbers) but is not 0 at finite n. The paper defines d twice (line 246 with "
    "E[f], line 408 with fhat) and line 335 follows line 334's d(x_j), line 246's d: both readings are the paper's. "
    "The identity is checked symbolically for n <= 6 (s1) and for any n (s5, a symbolic sample size). The reference "
    "explainer is run with mask-sampling on a table black box (analytic.table_classifier)."
)
#: The symbolic check: every non-empty set of rows of a sample of n = 1..SYMBOLIC_N rows.
SYMBOLIC_N = 6
#: Random sample tables: how many, the largest b and n, the denominator of the values of f, and the seed.
TABLES, TABLE_B, TABLE_N, DENOMINATOR, SEED = 60, 5, 30, 100, 20261202
#: The reference explainer's run: a b-token document, its sample size.
EXPLAINER_B, EXPLAINER_N = 4, 40


def check() -> ClaimResult:
    """The identity in a field, on random sample tables, and on the reference explainer's samples."""
    tables = sample_tables(np.random.default_rng(SEED))
    steps = (average_identity(), algorithm_drops_on_tables(tables), section2_drops(tables), reference_explainer(),
             average_identity_any_n())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def _exact_mean(table: list, b: int) -> Fraction:
    """E[f] at p = 1/2 over the 2^b patterns (each of probability 1/2^b)."""
    return sum(table, Fraction(0)) * P_EXACT**b


def average_identity() -> StepResult:
    """s1: for every sample of n <= 6 rows and every non-empty set R of rows (the samples perturbing c), mean_R
    (fhat - f_i) = fhat - mean_R f_i, and mean_R (mu - f_i) = fhat - mean_R f_i + (mu - fhat), in QQ(mu, f_1..f_n)."""
    cases, failed = 0, []
    for n in range(1, SYMBOLIC_N + 1):
        _, mu, *f = field(["mu"] + [f"f{i}" for i in range(1, n + 1)], QQ)
        fhat = sum(f) / n
        for size in range(1, n + 1):
            for rows in itertools.combinations(range(n), size):
                eq3 = fhat - sum(f[i] for i in rows) / size
                line408 = sum(fhat - f[i] for i in rows) / size
                line246 = sum(mu - f[i] for i in rows) / size
                cases += 1
                if line408 != eq3 or line246 - eq3 != mu - fhat:
                    failed.append({"n": n, "rows": list(rows)})
    return CLAIM.checked(
        "s1-average-identity", "proof", "symbolic",
        f"In the field QQ(mu, f_1, ..., f_n), n = 1..{SYMBOLIC_N}, every non-empty set R of rows ({cases} cases): the "
        "average over R of line 408's drops fhat - f_i is Eq. (3)'s fhat - (1/|R|) sum_R f_i, and the average of "
        "line 246's drops mu - f_i (mu = E[f]) is Eq. (3) + (mu - fhat). The first is linearity of the mean; the "
        f"second differs from Eq. (3) unless fhat = E[f]. Cases where one fails: {len(failed)}.",
        holds=not failed, values={"n_max": SYMBOLIC_N, "cases": cases, "failed": failed})


def average_identity_any_n() -> StepResult:
    """s5: for any n (a symbolic sample size N, I_i = 1 on the rows perturbing c, n_c = sum_i I_i >= 1): sum_i I_i
    (fhat - f_i) = fhat n_c - sum_i I_i f_i, so the average of line 408's drops over those rows is Eq. (3); with line
    246's drops the average is Eq. (3) + (mu - fhat)."""
    i, n = sp.symbols("i N", integer=True, positive=True)
    mu, fhat, big_s = sp.symbols("mu fhat S", real=True)
    n_c = sp.Symbol("n_c", positive=True)
    f, ind = sp.Function("f"), sp.Function("I")

    def linear(centre) -> sp.Expr:
        """sum_i I_i (centre - f_i) - (centre sum_i I_i - sum_i I_i f_i), simplified."""
        return sp.simplify(sp.Sum(ind(i) * (centre - f(i)), (i, 1, n)) - (
            centre * sp.Sum(ind(i), (i, 1, n)) - sp.Sum(ind(i) * f(i), (i, 1, n))))

    eq3 = fhat - big_s / n_c  # S = sum_i I_i f_i, n_c = sum_i I_i
    line408 = sp.simplify((fhat * n_c - big_s) / n_c - eq3)
    line246 = sp.simplify((mu * n_c - big_s) / n_c - eq3 - (mu - fhat))
    residuals = {"linearity_fhat": str(linear(fhat)), "linearity_mu": str(linear(mu)),
                 "line408_minus_eq3": str(line408), "line246_minus_eq3_minus_offset": str(line246)}
    return CLAIM.checked(
        "s5-average-identity-any-n", "proof", "symbolic",
        "For any sample size (sympy, symbolic N, I_i the indicator of 'c perturbed in x_i', n_c = sum I_i > 0, S = "
        "sum I_i f_i): sum_i I_i (fhat - f_i) - (fhat n_c - S) simplifies to "
        f"{residuals['linearity_fhat']} (and with mu in place of fhat to {residuals['linearity_mu']}); then (fhat n_c "
        f"- S) / n_c - Eq. (3) = {residuals['line408_minus_eq3']} and (mu n_c - S) / n_c - Eq. (3) - (mu - fhat) = "
        f"{residuals['line246_minus_eq3_minus_offset']}. So for every n, every sample and every candidate with n_c "
        ">= 1, line 408's drops average to Eq. (3) and line 246's to Eq. (3) + (E[f] - fhat).",
        holds=all(v == "0" for v in residuals.values()), values=residuals)


def sample_tables(rng: np.random.Generator) -> list[dict]:
    """Random black boxes (a table of values k/100 over the 2^b patterns) and a sample of n rows each, p = 1/2."""
    out = []
    for _ in range(TABLES):
        b, n = int(rng.integers(1, TABLE_B + 1)), int(rng.integers(1, TABLE_N + 1))
        table = [Fraction(int(v), DENOMINATOR) for v in rng.integers(0, DENOMINATOR + 1, size=2**b)]
        codes = [int(c) for c in rng.integers(0, 2**b, size=n)]
        out.append({"b": b, "table": table, "codes": codes})
    return out


def _averages(case: dict) -> list[dict]:
    """Per candidate with n_c >= 1: Eq. (3) written out, and the averages of both drops over the rows perturbing it."""
    b, table, codes = case["b"], case["table"], case["codes"]
    f = [table[z] for z in codes]
    fhat, mean = sum(f, Fraction(0)) / len(f), _exact_mean(table, b)
    out = []
    for c in range(1, 2**b):
        rows = [i for i, z in enumerate(codes) if z & c == c]
        if rows:
            eq3 = sum(f, Fraction(0)) / len(f) - sum((f[i] for i in rows), Fraction(0)) / len(rows)
            out.append({"eq3": eq3, "line408": sum((fhat - f[i] for i in rows), Fraction(0)) / len(rows),
                        "line246": sum((mean - f[i] for i in rows), Fraction(0)) / len(rows), "offset": mean - fhat})
    return out


def algorithm_drops_on_tables(tables: list[dict]) -> StepResult:
    """s2 (algorithm-drops): on every random sample table, the average of line 408's drops over the rows perturbing
    c is Eq. (3), exactly, for every candidate with n_c >= 1."""
    rows = [r for case in tables for r in _averages(case)]
    unequal = sum(r["line408"] != r["eq3"] for r in rows)
    return CLAIM.checked(
        "s2-algorithm-drops", "statement", "exhaustive",
        f"{len(tables)} random black boxes (b = 1..{TABLE_B} tokens, values k/{DENOMINATOR}) with a random sample of "
        f"1..{TABLE_N} patterns each (seed {SEED}), in Fractions: for each of the {len(rows)} (sample, candidate) "
        f"pairs with n_c >= 1, the average of line 408's drops fhat - f(x_i) over the samples where c is perturbed "
        f"equals Eq. (3) computed as written. Unequal: {unequal}.",
        holds=unequal == 0, values={"tables": len(tables), "pairs": len(rows), "unequal": unequal, "seed": SEED},
        reading="algorithm-drops")


def _smallest_section2_case() -> dict:
    """The first case (b = 1, one sample perturbing the token, 0/1 tables in code order, p = 1/2) on which the
    average of line 246's drops is not Eq. (3)."""
    for values in itertools.product((0, 1), repeat=2):
        case = {"b": 1, "table": [Fraction(v) for v in values], "codes": [1]}
        (row,) = _averages(case)
        if row["line246"] != row["eq3"]:
            return {"b": 1, "n": 1, "p": str(P_EXACT), "table_by_code": list(values), "sample_codes": [1],
                    "candidate": [0], "eq3": str(row["eq3"]), "average_of_line246_drops": str(row["line246"]),
                    "E_f": str(_exact_mean(case["table"], 1)), "fhat": str(case["table"][1]),
                    **hypotheses(n_c_at_least_one=any(z & 1 == 1 for z in case["codes"]),
                                 confidence_score=all(0 <= v <= 1 for v in values), p_in_open_unit=0 < P_EXACT < 1)}
    raise AssertionError("no 0/1 table of one token separates the two averages")


def section2_drops(tables: list[dict]) -> StepResult:
    """s3 (section2-drops): with line 246's drops the average is Eq. (3) + (E[f] - fhat); the smallest case where
    it is not Eq. (3), and how often it is not on the random tables."""
    rows = [r for case in tables for r in _averages(case)]
    offset_ok = all(r["line246"] - r["eq3"] == r["offset"] for r in rows)
    differ = sum(r["line246"] != r["eq3"] for r in rows)
    case = {**_smallest_section2_case(), "pairs": len(rows), "pairs_where_it_differs": differ,
            "offset_is_E_f_minus_fhat_on_every_pair": offset_ok,
            "largest_offset": float(max(abs(r["offset"]) for r in rows))}
    return CLAIM.checked(
        "s3-section2-drops", "statement", "counterexample",
        f"Read with line 246's drops d(x) = E[f] - f(x), the average over the samples perturbing c is Eq. (3) + "
        f"(E[f] - fhat) (on every one of the {len(rows)} pairs of s2: {offset_ok}); it differs from Eq. (3) on "
        f"{differ} of them (largest |E[f] - fhat| {case['largest_offset']:.3f}). Smallest case (b = 1, n = 1, 0/1 "
        f"tables in code order, p = 1/2): f = {case['table_by_code']}, one sample with the token perturbed: Eq. (3) = "
        f"{case['eq3']} (fhat = {case['fhat']}), the average of line 246's drops = {case['average_of_line246_drops']} "
        f"(E[f] = {case['E_f']}). Inside the hypotheses (n_c >= 1, f in [0, 1], p in (0, 1); computed). Not a straw "
        "man: the paper defines d twice, line 246 (with E[f]) and line 408 (with fhat), and line 335's 'averaging "
        "the drops' follows line 334's d(x_j), which is line 246's d; the two readings are a notational clash in "
        "the paper.",
        holds=case["eq3"] == case["average_of_line246_drops"], values=case, reading="section2-drops")


def _explainer_run() -> tuple[object, list]:
    """The reference explainer on a table black box of EXPLAINER_B tokens, EXPLAINER_N samples, mask-sampling."""
    rng = np.random.default_rng(SEED + 1)
    table = [Fraction(int(v), DENOMINATOR) for v in rng.integers(0, DENOMINATOR + 1, size=2**EXPLAINER_B)]
    tokens = [f"w{i}" for i in range(EXPLAINER_B)]
    clf = table_classifier(tokens, np.array([float(v) for v in table]), n_classes=2)
    explanation = explainer(clf, random_state=SEED).explain(" ".join(tokens), label=1, n_samples=EXPLAINER_N)
    return explanation, table


def _eq3_from_sample(f: list, perturbed: np.ndarray, positions) -> Fraction | None:
    """Eq. (3) on the explainer's own sample, in Fractions of its float scores (None when n_c = 0)."""
    rows = [i for i in range(len(f)) if all(perturbed[i, j] for j in positions)]
    if not rows:
        return None
    return sum(f, Fraction(0)) / len(f) - sum((f[i] for i in rows), Fraction(0)) / len(rows)


def reference_explainer() -> StepResult:
    """s4 (algorithm-drops): the reference explainer's importances s_i and selected drop against Eq. (3) recomputed
    from its own sample, and against the average of line 246's drops."""
    explanation, table = _explainer_run()
    perturbed = np.asarray(explanation.sample_perturbed, dtype=bool)
    f = [Fraction(float(v)) for v in np.asarray(explanation.sample_scores)[:, 1]]
    fhat, mean = sum(f, Fraction(0)) / len(f), _exact_mean(table, EXPLAINER_B)
    eq3 = [_eq3_from_sample(f, perturbed, [i]) for i in range(EXPLAINER_B)]
    got = [float(v) for v in explanation.importances]
    gaps = [abs(g - float(e)) for g, e in zip(got, eq3) if e is not None]
    best = _eq3_from_sample(f, perturbed, explanation.best_ids)
    drop_gap = abs(float(explanation.drop) - float(best))
    tol = 1e-12
    values = {"b": EXPLAINER_B, "n": len(f), "seed": SEED, "importances": got, "eq3_singletons": [float(e) for e in eq3
              if e is not None], "largest_gap": max(gaps), "best_ids": list(explanation.best_ids),
              "drop_reported": float(explanation.drop), "eq3_of_best": float(best), "drop_gap": drop_gap,
              "fhat": float(fhat), "E_f": float(mean), "line246_offset": float(mean - fhat), "tolerance": tol}
    return CLAIM.checked(
        "s4-reference-explainer", "statement", "exhaustive",
        f"The reference explainer (mask-sampling, a {EXPLAINER_B}-token table black box, n = {len(f)} samples, seed "
        f"{SEED}): its importances s_i and the drop of its selection {list(explanation.best_ids)} against Eq. (3) "
        f"recomputed in Fractions from its own sample: largest gap {max(gaps):.1e} and {drop_gap:.1e} (tolerance "
        f"{tol:g}, float rounding). The average of line 246's drops would differ from them by E[f] - fhat = "
        f"{float(mean - fhat):+.4f}: the explainer averages line 408's drops, as Algorithm 1 writes.",
        holds=max(gaps) <= tol and drop_gap <= tol and len(gaps) == EXPLAINER_B, values=values,
        reading="algorithm-drops")
