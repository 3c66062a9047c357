"""Section 4, paragraph "Robustness" (lines 574-581): the Robustness of an explanation e is the average, over k
additional runs of the explainer on the same document, of the Jaccard similarity J(e, e_i) = |e & e_i| / |e | e_i|.

Checked three ways:

* the authors' released ``experiments.metrics.compute_robustness``, run as an outside program
  (:func:`proofs_checks.subject.authors_probe.probe`, command ``robustness``), on planted cases against the formula
  computed here in Fractions. The paper's k (line 576) is the released metric's ``repetitions``; its ``k`` argument is
  another k, line 1168's size of FRED-pos's explanation, to which LIME's (and SHAP's) re-runs are cut, as line 1168
  says they are for robustness. Two details the paragraph leaves unstated are computed: FRED's re-runs are not cut,
  and when e and e_i are both empty the printed J is 0/0, which the released code counts as 1;
* the committed per-document values (``results/*.csv``, column ``robustness``; re-runs ``k_robust`` of each run's
  ``.run.json``) all lie in [0, 1], as a mean of Jaccard similarities must;
* the paper's 170 printed robustness means (34 tables, 5 explainers) lie in [0, 1], and each printed standard
  deviation is at most what values in [0, 1] with that mean allow (Bhatia-Davis: variance <= m (1 - m)).

Readings: ``formula`` (headline): the printed formula, with e_i each re-run's explanation as the experiments define
the explanation (line 1168: LIME's and SHAP's first k tokens); ``empty-as-one`` (alternative): where e and e_i are
both empty, where the formula is 0/0, J is read as 1 (the released code's value).
"""

from __future__ import annotations

import csv
import json
import math
from fractions import Fraction
from itertools import product

from fred.evaluation.config import results_dir

from ...paper.tables import TABLES
from ...paper.yardstick import MEAN_ROUNDING, SD_ROUNDING, documents
from ...subject.authors_probe import NOT_RUN, checkout_path, probe
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult

CLAIM = Claim("metric-robustness", new=True)
FORMULA, EMPTY = "formula", "empty-as-one"
SOURCE = (
    Quote(574, r"We compute the \textbf{Robustness} of an explanation $\explanation$ as follows."),
    Quote(575, r"First, we apply the explainer, retaining its explanation $\explanation$ as the ground truth for the "
               r"example."),
    Quote(576, r"Then, we conduct $k$ additional iterations of the explainer on the same document, yielding $k$ new "
               r"explanations, denoted as $e_1, e_2, \ldots, e_k$ for that instance."),
    Quote(577, r"We therefore compute Jaccard Similarity between the original explanation $\explanation$ and each "
               r"$e_i$, $i \in [k]$."),
    Quote(578, "Finally, we compute the Robustness as the average Jaccard Similarity scores across the $k$ new "
               "explanations and the original explanation."),
    Quote(581, r"\forall i \in [k] \,,\: \text{J}(e, e_i) = \frac{{|e \cap e_i|}}{{|e \cup e_i|}} \quad \text{and} "
               r"\quad \text{Robustness} = \frac{{\sum_{{i=1}}^{k} \text{J}(e, e_i)}}{{k}} \,."),
    Quote(1168, r"We use as explanation set $\explanation$ for LIME and SHAP the first $k$ tokens ranked by "
                r"importance, where $k$ is the size of FRED's explanation (\texttt{fredpos}) for the same example."),
    Quote(1169, "This is used for computing comprehensiveness, sufficiency, robustness, and proportion."),
    Quote(589, r"\texttt{robust}. $\uparrow$"),
)
READINGS = (
    Reading(FORMULA, "headline",
            "Robustness = (1/k) sum_i J(e, e_i), J = |e & e_i| / |e | e_i|, over k re-runs, e_i each re-run's "
            "explanation as the experiments define it (LIME and SHAP: the first k' tokens, k' = |FRED-pos|).",
            why=(SOURCE[5], SOURCE[6], SOURCE[7])),
    Reading(EMPTY, "alternative",
            "Where e and e_i are both empty (the printed J is 0/0), J = 1; the paper does not say.",
            why=(SOURCE[5],)),
)
STATEMENT = ("Section 4 (lines 574-581): the Robustness of an explanation e is the average Jaccard similarity "
             "J(e, e_i) = |e & e_i| / |e | e_i| between e and the explanations e_1..e_k of k additional runs of the "
             "explainer on the same document; the tables' column robust. (higher is better) reports its mean.")
CONDITIONS = ("The released code is run as an outside program on planted cases (its explainer classes read stand-in "
              "explanations with their own code); the formula is computed here in Fractions. The committed values "
              "are this project's runs (results/*.csv); the printed means are the paper's 34 tables.")

#: The planted cases: (name, released class, the row's explanation e, the metric's k (line 1168's cut), the re-runs
#: (LIME: as_map() pairs (position, score) in rank order; FRED: best_ids)). Documents of four tokens.
TOKENS = ("w0", "w1", "w2", "w3")
CASES = (
    ("mean-of-three", "LIME", (0, 1), 2, (((0, 0.3), (1, 0.2)), ((1, 0.3), (2, 0.2)), ((2, 0.3), (3, 0.2)))),
    ("lime-cut-to-k", "LIME", (0, 1), 2, (((0, 0.3), (2, 0.2), (1, 0.1)),)),
    ("one-empty", "LIME", (), 2, (((0, 0.1),),)),
    ("fred-not-cut", "FRED", (0, 1, 2), 1, ((0, 1, 2),)),
    ("both-empty", "FRED", (), 1, ((), ())),
    ("empty-then-not", "FRED", (), 1, ((), (0,))),
)


def rerun_explanation(explainer: str, rerun: tuple, k: int | None) -> frozenset:
    """e_i as the experiments define an explanation: LIME's first k positively scored positions in rank order (line
    1168; ``k=None``: all of them, uncut), FRED's whole explanation."""
    if explainer == "LIME":
        return frozenset([i for i, score in rerun if score >= 0][:k])
    return frozenset(rerun)


def jaccard(a: frozenset, b: frozenset) -> Fraction | None:
    """The printed J = |a & b| / |a | b|; None where it is 0/0."""
    return Fraction(len(a & b), len(a | b)) if a | b else None


def _similarities(case: tuple, cut: bool = True) -> list[Fraction | None]:
    _, explainer, e, k, reruns = case
    return [jaccard(frozenset(e), rerun_explanation(explainer, r, k if cut else None)) for r in reruns]


def formula(case: tuple, cut: bool = True) -> Fraction | None:
    """The printed Robustness of a planted case (None when a J is 0/0); ``cut=False``: LIME's re-runs uncut."""
    values = _similarities(case, cut)
    return None if None in values else sum(values, Fraction(0)) / len(values)


def with_empty_as_one(case: tuple) -> Fraction:
    """The planted case's Robustness with J(empty, empty) read as 1."""
    values = _similarities(case)
    return sum((Fraction(1) if v is None else v for v in values), Fraction(0)) / len(values)


def released_values() -> list[float] | None:
    """The released ``compute_robustness`` on every planted case (None without the checkout)."""
    cases = [{"explainer": x, "tokens": list(TOKENS), "explanation": list(e), "k": k, "repetitions": len(reruns),
              "reruns": [[list(p) for p in r] if x == "LIME" else list(r) for r in reruns]}
             for _, x, e, k, reruns in CASES]
    reply = probe("robustness", cases)
    return None if reply is None else reply["values"]


def check() -> ClaimResult:
    """The released metric on planted cases, the committed values, the printed means and standard deviations."""
    released = released_values()
    steps = (jaccard_range(), released_formula(released), released_empty(released), committed_values(),
             printed_means())
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE, readings=READINGS)


def jaccard_range() -> StepResult:
    """p1: J of two subsets of a 5-token document, not both empty, is in [0, 1] and is 1 exactly when they are
    equal; a mean of such values is then in [0, 1]."""
    subsets = [frozenset(i for i in range(5) if z >> i & 1) for z in range(32)]
    pairs = [(a, b) for a, b in product(subsets, repeat=2) if a | b]
    breaks = [(sorted(a), sorted(b)) for a, b in pairs
              if not 0 <= jaccard(a, b) <= 1 or (jaccard(a, b) == 1) != (a == b)]
    return CLAIM.checked("p1-jaccard-range", "proof", "exhaustive",
                         f"Every pair of subsets of a 5-token document, not both empty ({len(pairs)} pairs): "
                         f"0 <= J <= 1, and J = 1 exactly when the two are equal; exceptions: {len(breaks)}.",
                         holds=not breaks, values={"pairs": len(pairs), "exceptions": breaks})


def _case_rows(released: list[float]) -> list[dict]:
    rows = []
    for case, value in zip(CASES, released, strict=True):
        printed = formula(case)
        rows.append({"case": case[0], "explainer": case[1], "e": list(case[2]), "k": case[3],
                     "repetitions": len(case[4]), "released": value,
                     "formula": None if printed is None else str(printed),
                     "uncut": None if formula(case, cut=False) is None else str(formula(case, cut=False)),
                     "empty_as_one": str(with_empty_as_one(case))})
    return rows


def released_formula(released: list[float] | None) -> StepResult:
    """r1: the released compute_robustness equals the printed formula on every planted case where it is defined."""
    if released is None:
        return CLAIM.argued("r1-released-formula", "statement",
                            f"{NOT_RUN} With it, this step runs the released experiments.metrics.compute_robustness "
                            f"on {len(CASES)} planted cases against the printed formula.", reading=FORMULA)
    rows = [r for r in _case_rows(released) if r["formula"] is not None]
    agree = [math.isclose(r["released"], float(Fraction(r["formula"])), abs_tol=1e-12) for r in rows]
    cut = next(r for r in rows if r["case"] == "lime-cut-to-k")
    return CLAIM.checked(
        "r1-released-formula", "statement", "exhaustive",
        f"The released compute_robustness ({checkout_path()}, run as an outside program) against the printed formula "
        "in Fractions, on the planted cases where J is defined: "
        + "; ".join(f"{r['case']} ({r['explainer']}, e = {r['e']}, k = {r['k']}, {r['repetitions']} re-run(s)): "
                    f"released {r['released']:.6g}, formula {r['formula']}" for r in rows)
        + f". The paper's k (line 576) is the metric's 'repetitions'; its 'k' is line 1168's size: LIME's re-run is "
          f"cut to it (lime-cut-to-k: {cut['formula']}, uncut it would be {cut['uncut']}), FRED's is not. The released "
          "evaluation passes that k to every explainer but the two FRED ones, so Anchors' explanation and re-runs are "
          "cut too, which line 1168 does not say (it names LIME and SHAP): a gap between paper and code, not a "
          f"counterexample to the formula. These are {len(rows)} planted cases, not every case.",
        holds=all(agree), values={"cases": rows, "agree": agree}, reading=FORMULA)


def released_empty(released: list[float] | None) -> StepResult:
    """r2: where e and e_i are both empty the printed J is 0/0; the released metric counts it as 1."""
    if released is None:
        return CLAIM.argued("r2-empty-explanations", "statement",
                            f"{NOT_RUN} With it, this step computes what the released metric does where e and e_i "
                            "are both empty (the printed J is 0/0).", reading=EMPTY)
    rows = [r for r in _case_rows(released) if r["formula"] is None]
    agree = [math.isclose(r["released"], float(Fraction(r["empty_as_one"])), abs_tol=1e-12) for r in rows]
    empty_rows = _committed()["empty_explanations"]
    return CLAIM.checked(
        "r2-empty-explanations", "statement", "exhaustive",
        "Cases where e and a re-run's explanation are both empty, where the printed J is 0/0 (the paper does not "
        "say what it is): "
        + "; ".join(f"{r['case']} (e = {r['e']}, re-runs of {r['explainer']}): released {r['released']:.6g}, J(empty, "
                    f"empty) = 1 gives {r['empty_as_one']}" for r in rows)
        + f". The released code counts two empty explanations as identical (J = 1) and one empty as J = 0. In this "
          f"project's committed runs, {empty_rows} rows have an empty explanation e (re-runs are not stored). "
          "This is the code's choice where the printed formula is 0/0, not something the paper says; one "
          "consequence: where FRED-pos's explanation is empty, k = 0 and LIME, SHAP and Anchors get robustness 1.",
        holds=bool(rows) and all(agree), values={"cases": rows, "agree": agree,
                                                 "committed_empty_explanations": empty_rows}, reading=EMPTY)


def _committed() -> dict:
    """Every committed per-document robustness, per run and explainer: count, mean, min, max, and the run's k."""
    runs, empty, outside = {}, 0, []
    for path in sorted(results_dir().glob("*.csv")):
        config = path.with_suffix(".run.json")
        if not config.is_file():
            continue
        k_robust = json.loads(config.read_text())["config"]["k_robust"]
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                empty += int(row["k"]) == 0
                value = float(row["robustness"] or "nan")
                if math.isnan(value):
                    continue
                runs.setdefault((path.stem, k_robust), {}).setdefault(row["explainer"], []).append(value)
                if not 0 <= value <= 1:
                    outside.append({"run": path.stem, "doc": row["doc"], "explainer": row["explainer"],
                                    "robustness": value})
    summary = {f"{stem} (k_robust={k})": {x: {"n": len(v), "mean": sum(v) / len(v), "min": min(v), "max": max(v)}
                                           for x, v in by.items()} for (stem, k), by in runs.items()}
    return {"runs": summary, "values": sum(len(v) for by in runs.values() for v in by.values()),
            "outside": outside, "empty_explanations": empty}


def committed_values() -> StepResult:
    """r3: every committed per-document robustness lies in [0, 1]."""
    seen = _committed()
    return CLAIM.checked(
        "r3-committed-values", "statement", "exhaustive",
        f"This project's committed per-document robustness values (results/*.csv, {len(seen['runs'])} runs with "
        f"re-runs, {seen['values']} values over documents and explainers; runs without re-runs have none): outside "
        f"[0, 1]: {len(seen['outside'])}. Per run, the explainers' means range over "
        + "; ".join(f"{run} {min(x['mean'] for x in by.values()):.3f}-{max(x['mean'] for x in by.values()):.3f}"
                    for run, by in seen["runs"].items()) + ".",
        holds=seen["values"] > 0 and not seen["outside"], values=seen)


def bhatia_davis(mean: float, n: int) -> float:
    """The largest sample standard deviation of n values in [0, 1] whose mean is within rounding of ``mean``:
    variance <= m (1 - m) (Bhatia-Davis), times n / (n - 1)."""
    lo, hi = max(0.0, mean - MEAN_ROUNDING), min(1.0, mean + MEAN_ROUNDING)
    m = 0.5 if lo <= 0.5 <= hi else (lo if abs(lo - 0.5) < abs(hi - 0.5) else hi)
    return math.sqrt(m * (1 - m) * n / (n - 1))


def printed_means() -> StepResult:
    """r4: the 170 printed robustness means lie in [0, 1], and each printed standard deviation is possible for
    values in [0, 1] with that mean (at the worst rounding)."""
    cells = [{"table": label, "explainer": x, "mean": t.mean(x, "robustness"),
              "sd": t.rows[x][2][1], "sd_bound": bhatia_davis(t.mean(x, "robustness"), documents(t))}
             for label, t in TABLES.items() for x in t.rows]
    outside = [c for c in cells if not 0 <= c["mean"] <= 1]
    too_wide = [c for c in cells if c["sd"] - SD_ROUNDING > c["sd_bound"]]
    lowest = min(cells, key=lambda c: c["mean"])
    return CLAIM.checked(
        "r4-printed-means", "statement", "exhaustive",
        f"The paper's {len(cells)} printed robustness means ({len(TABLES)} tables): outside [0, 1]: {len(outside)} "
        f"(lowest {lowest['mean']:.3f}, {lowest['explainer']} in {lowest['table']}; highest "
        f"{max(c['mean'] for c in cells):.3f}). Standard deviations larger than values in [0, 1] with the printed mean "
        f"allow (Bhatia-Davis, sd <= sqrt(m (1 - m) n / (n - 1)), at the worst rounding): {len(too_wide)}.",
        holds=not outside and not too_wide, values={"cells": len(cells), "outside": outside, "too_wide": too_wide,
                                                     "lowest": lowest})
