"""The method's name and section 4's aim: FRED is a "Faithful and Robust Explainer", assessed "against popular methods
... focusing on faithfulness ... and its robustness" (lines 98, 156, 219, 546), on the robustness column of the 34
tables.

The paper measures robustness once, by the column ``robust.`` (line 578: the mean Jaccard similarity between an
explanation and k further explanations of the same document, higher is better, line 589). Its results paragraph
(lines 689-694) claims FRED more faithful than the others and says nothing of FRED's robustness; it credits SHAP with
"high robustness" (line 694). Every comparison of two printed cells is the yardstick's
(:mod:`proofs_checks.paper.yardstick`); "FRED" is the method with either sampler, so a reading holds against a
baseline when FRED-mask or FRED-pos satisfies it (the reading most favourable to the paper).

Readings:

* ``not-below`` (headline): the name and line 219 claim the property, and line 546 assesses it "against popular
  methods": as the tables measure it, FRED's robustness is not below each baseline's on the whole, i.e. better on the
  whole (the yardstick's directional rule) or close on the whole (its equivalence rule at
  :data:`fred_constants.SMALL_EFFECT`), a disjunction: it holds when either holds, fails only when both fail (the
  printed means favour the baseline in more tables AND the cells are not close on the whole), else it is
  inconclusive. The paper makes no comparative robustness claim: this tests a claim implied by the name (lines 98,
  156) and line 219.
* ``more-robust`` (stronger): FRED more robust than the others, as line 689 says of faithfulness: better than each
  baseline on the whole (the yardstick's directional rule), with the tables where a FRED variant has the best printed
  robustness.
* ``high`` (alternative, absolute): FRED's robustness "high" in the sense line 694 gives the word, SHAP's: close to
  SHAP's on the whole (the yardstick's "close"). The tables have no other absolute scale of robustness.
"""

from __future__ import annotations

import math
from statistics import median

from fred_constants import LEVEL, SMALL_EFFECT

from ...paper.tables import BETTER, TABLES
from ...paper.yardstick import MARGINS, close_tally, sensitivity, tally
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .paper_gaps import gaps_step

CLAIM = Claim("experiment-robustness", new=True)
NOT_BELOW, MORE_ROBUST, HIGH = "not-below", "more-robust", "high"
METRIC = "robustness"
FRED, BASELINES = ("fred", "fredpos"), ("lime", "shap", "anchor")
ASSESSED = Quote(546, r"We assess FRED's explanation quality against popular methods (LIME "
                      r"\citep{ribeiro2016should}, SHAP \citep{lundberg2017unified}, Anchors "
                      r"\citep{ribeiro2018anchors}) focusing on \textbf{faithfulness}, \emph{i.e.}, the adherence of "
                      r"the explanation to the model's behavior, and its \textbf{robustness}.")
DESIGNED = Quote(219, "This section introduces FRED, our novel explainer designed to provide faithful and robust "
                      "explanations for text classification and regression tasks.")
NAMED = (Quote(75, r"\title{Faithful and Robust Local Interpretability"),
         Quote(98, "In this paper, we propose FRED (Faithful and Robust Explainer for textual Documents), a novel "
                   "method for interpreting predictions over text."),
         Quote(156, "In this paper, we introduce FRED (Faithful and Robust Explainer for text Documents): a novel "
                    "interpretability framework for text classification and regression tasks."))
SHAP_HIGH = Quote(694, "On small documents, SHAP performs an exhaustive search over all possible token subsets, "
                       "motivating its high robustness.")
FAITHFUL = Quote(689, "Both FRED-mask and FRED-pos produce significantly more faithful explanations than the others.")
SOURCE = (ASSESSED, DESIGNED, *NAMED, SHAP_HIGH, FAITHFUL,
          Quote(578, "Finally, we compute the Robustness as the average Jaccard Similarity scores across the $k$ new "
                     "explanations and the original explanation."),
          Quote(589, r"\texttt{robust}. $\uparrow$"))
READINGS = (
    Reading(NOT_BELOW, "headline",
            "As the tables measure it (the column robust.), FRED's robustness is not below each baseline's (LIME, "
            "SHAP, Anchors) on the whole: better or close by the yardstick, for FRED-mask or FRED-pos. The name and "
            "line 219 claim the property, line 546 assesses it against the baselines, and the results paragraph "
            "claims no more of FRED's robustness (it credits SHAP with 'high robustness', line 694).",
            why=(ASSESSED, DESIGNED, NAMED[1], SHAP_HIGH)),
    Reading(MORE_ROBUST, "stronger",
            "FRED more robust than the others on the whole, as line 689 says of faithfulness.", why=(FAITHFUL,)),
    Reading(HIGH, "alternative",
            "FRED's robustness 'high' as line 694 calls SHAP's: close to SHAP's on the whole by the yardstick.",
            why=(SHAP_HIGH, DESIGNED)),
)
STATEMENT = ('The method\'s name, "Faithful and Robust Explainer for textual Documents" (line 98; "Faithful and Robust '
             'Explainer for text Documents", line 156), line 219 ("designed to provide faithful and robust '
             'explanations") and line 546 ("We assess FRED\'s explanation quality against popular methods ... '
             'focusing on faithfulness ... and its robustness"): FRED\'s explanations are robust, as the paper\'s 34 '
             'tables measure robustness (column robust., higher is better). The paper makes no comparative robustness '
             'claim (its results paragraph says nothing of FRED\'s robustness): the headline tests a claim implied by '
             'the name (lines 98, 156) and line 219.')
CONDITIONS = ("Every comparison of two printed cells is the yardstick's (proofs_checks.paper.yardstick, printed above "
              "the experiment claims), on the robustness column of all 34 tables (section 4's and the appendix's: "
              "line 546 introduces the whole evaluation). A reading holds against a baseline when FRED-mask or "
              "FRED-pos satisfies it. The tables' robustness of LIME and SHAP is that of their k = |FRED-pos| "
              "top-ranked tokens (line 1169).")

#: A reading's status against one baseline, from the two FRED variants' (the best of the two: "FRED" is either).
_ORDER = ("fails", "inconclusive", "holds")


def _either(*statuses: str) -> str:
    """The status of a disjunction of statements: holds when one holds, fails when all fail, else inconclusive.

    >>> _either("fails", "inconclusive"), _either("fails", "fails"), _either("inconclusive", "holds")
    ('inconclusive', 'fails', 'holds')
    """
    return "holds" if "holds" in statuses else "fails" if all(x == "fails" for x in statuses) else "inconclusive"


def sign_test(won: int, lost: int) -> float:
    """The exact two-sided sign test of ``won`` against ``lost`` tables (ties dropped): the probability, with each
    table a fair coin, of a split at least as uneven.

    >>> round(sign_test(16, 18), 3), sign_test(0, 0)
    (0.864, 1.0)
    """
    n, k = won + lost, min(won, lost)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0


def _best(statuses) -> str:
    return max(statuses, key=_ORDER.index)


def _worst(statuses) -> str:
    return min(statuses, key=_ORDER.index)


def pair(x: str, y: str, margin: float = SMALL_EFFECT) -> dict:
    """``x`` against ``y`` on robustness over the 34 tables: the yardstick's directional tally (its status for "x
    better") and closeness at ``margin`` (its status for "close"), and the status of "x not below y", better OR close
    (:func:`_either`): holds when either holds, fails when both fail, else inconclusive."""
    t, c = tally(TABLES, x, y, [METRIC]), close_tally(TABLES, x, y, [METRIC], margin)
    better = "holds" if t["favours"] == x else "fails" if t["favours"] == y else "inconclusive"
    not_below = _either(better, c["status"])
    return {"x": x, "y": y, "won": t["won"], "lost": t["lost"], "tied": t["tied"], "clear_won": t["clear_won"],
            "clear_lost": t["clear_lost"], "better": better, "close": c["close"], "not_close": c["not_close"],
            "undecided": c["undecided"], "tables_not_close": len(c["tables_not_close"]), "close_status": c["status"],
            "reachable": c["reachable"], "not_below": not_below}


def _counts(p: dict) -> str:
    return (f"{p['won']}-{p['lost']} [{p['clear_won']}-{p['clear_lost']}], close/not/undecided "
            f"{p['close']}/{p['not_close']}/{p['undecided']}")


def _not_below_at(baseline: str):
    def at(margin: float) -> dict:
        pairs = [pair(x, baseline, margin) for x in FRED]
        return {"status": _best(p["not_below"] for p in pairs), **{p["x"]: _counts(p) for p in pairs}}
    return at


def not_below(baseline: str) -> StepResult:
    """st1, the headline against one baseline: FRED-mask or FRED-pos not below it on robustness on the whole."""
    pairs = [pair(x, baseline) for x in FRED]
    status = _best(p["not_below"] for p in pairs)
    table = sensitivity(_not_below_at(baseline), "margin of 'close' (pooled SD)", SMALL_EFFECT, MARGINS)
    note = (f"Robustness, FRED against {baseline} over the {len(TABLES)} tables, tables won-lost [clearly] and "
            f"cells close / not close / undecided at {SMALL_EFFECT} SD: " + "; ".join(f"{p['x']} {_counts(p)}"
                                                                                    for p in pairs)
            + f". 'Not below' {status} (better on the whole: "
            + ", ".join(f"{p['x']} {p['better']}" for p in pairs) + "; close on the whole: "
            + ", ".join(f"{p['x']} {p['close_status']} ({p['tables_not_close']} of {len(TABLES)} tables not close"
                        + (", at most half" if 2 * p["tables_not_close"] <= len(TABLES) else ", more than half") + ")"
                        for p in pairs) + "); 'not below' is better OR close: it fails only when both fail.")
    counterexample = None if status != "fails" else {
        **hypotheses(every_table_prints_the_baseline=all(baseline in t.rows for t in TABLES.values()),
                     column_higher_is_better=BETTER[METRIC] == 1, baseline_of_line_546=baseline in BASELINES,
                     both_variants_below_on_the_whole=all(p["better"] == "fails" for p in pairs)),
        "baseline": baseline,
        "pairs": pairs}
    return gaps_step(CLAIM, f"st1-not-below-{baseline}", note, holds=status == "holds",
                     conclusive=status != "inconclusive", reading=NOT_BELOW,
                     assumption="two explainers' robustness on a document correlate non-negatively",
                     values={"baseline": baseline, "pairs": pairs, "margin": SMALL_EFFECT, "sensitivity": table,
                             "counterexample": counterexample})


def best_in_column() -> dict:
    """Per explainer, the tables where its printed robustness is the highest of the five (ties included, exact
    decimals), the tables where FRED-mask or FRED-pos is, and per baseline the tables where both FRED variants are
    below it (FRED's best variant below the baseline)."""
    tops = {label: set(table.best(METRIC)) for label, table in TABLES.items()}
    below = {y: sum(all(t.order(x, y, METRIC) < 0 for x in FRED) for t in TABLES.values()) for y in BASELINES}
    return {**{e: sum(e in t for t in tops.values()) for e in (*FRED, *BASELINES)},
            "fred_variant": sum(bool(t & set(FRED)) for t in tops.values()), "tables": len(TABLES),
            "best_variant_below": below}


def _more_at(min_effect: float) -> dict:
    tallies = {(x, y): tally(TABLES, x, y, [METRIC], min_effect=min_effect) for x in FRED for y in BASELINES}
    per = {y: _best("holds" if tallies[x, y]["favours"] == x else "fails" if tallies[x, y]["favours"] == y
                    else "inconclusive" for x in FRED) for y in BASELINES}
    return {"status": _worst(per.values()), **{f"vs {y}": s for y, s in per.items()}}


def more_robust() -> StepResult:
    """st2, the stronger reading: FRED better than every baseline on robustness on the whole."""
    best, row = best_in_column(), _more_at(0.0)
    table = sensitivity(_more_at, "minimum effect size of a clear gap (pooled SD)", 0.0, MARGINS)
    note = (f"Tables where the printed robustness is the highest of the five: FRED-mask {best['fred']}, FRED-pos "
            f"{best['fredpos']}, LIME {best['lime']}, SHAP {best['shap']}, Anchors {best['anchor']} of "
            f"{best['tables']}; FRED's better variant below " + ", ".join(
                f"{y} in {k}" for y, k in best["best_variant_below"].items()) + ". FRED better on the whole against "
            + ", ".join(
                f"{k.removeprefix('vs ')}: {v}" for k, v in row.items() if k != "status") + f"; the step {row['status']}.")
    return gaps_step(CLAIM, "st2-more-robust", note, holds=row["status"] == "holds",
                     conclusive=row["status"] != "inconclusive", reading=MORE_ROBUST,
                     values={"best_in_column": best, "per_baseline": row, "sensitivity": table})


def _high_at(margin: float) -> dict:
    pairs = {x: close_tally(TABLES, x, "shap", [METRIC], margin) for x in FRED}
    return {"status": _best(c["status"] for c in pairs.values()),
            **{x: f"{c['close']}/{c['not_close']}/{c['undecided']}" for x, c in pairs.items()}}


def high() -> StepResult:
    """st3, the absolute reading: FRED's robustness close to SHAP's, which line 694 calls high."""
    row = _high_at(SMALL_EFFECT)
    shap_top = sum(TABLES[label].mean("shap", METRIC) == 1.0 for label in TABLES)
    levels = {e: {"median": median(t.mean(e, METRIC) for t in TABLES.values()),
                  "min": min(t.mean(e, METRIC) for t in TABLES.values())} for e in (*FRED, *BASELINES)}
    note = (f"SHAP's printed robustness is 1.000 in {shap_top} of {len(TABLES)} tables (median "
            f"{levels['shap']['median']:.3f}, min {levels['shap']['min']:.3f}); FRED-mask's median "
            f"{levels['fred']['median']:.3f} (min {levels['fred']['min']:.3f}), FRED-pos's "
            f"{levels['fredpos']['median']:.3f} (min {levels['fredpos']['min']:.3f}). Cells close to SHAP's / not "
            f"close / undecided at {SMALL_EFFECT} SD: FRED-mask {row['fred']}, FRED-pos {row['fredpos']}; the step "
            f"{row['status']}.")
    table = sensitivity(_high_at, "margin of 'close' (pooled SD)", SMALL_EFFECT, MARGINS)
    return gaps_step(CLAIM, "st3-high-as-shap", note, holds=row["status"] == "holds",
                     conclusive=row["status"] != "inconclusive", reading=HIGH,
                     values={"close_to_shap": row, "shap_at_1": shap_top, "levels": levels, "sensitivity": table})


def _facts() -> dict:
    pairs = {f"{x}-{y}": pair(x, y) for x in FRED for y in BASELINES}
    marginal = {y: max(sign_test(pairs[f"{x}-{y}"]["won"], pairs[f"{x}-{y}"]["lost"]) for x in FRED)
                for y in BASELINES}
    return {"pairs": pairs, "best_in_column": best_in_column(),
            "every_baseline_favoured": all(p["better"] == "fails" for p in pairs.values()),
            "sign_test_p": marginal, "marginal": [y for y, p in marginal.items() if p > LEVEL], "level": LEVEL}


def _against_text(y: str, f: dict) -> str:
    """FRED against baseline ``y`` in the precise statement: level with it where the split of the tables is within
    chance (a sign test at :data:`fred_constants.LEVEL`), below it in every table, or below it by the printed means
    with the OR rule's 'close' undecided (the step inconclusive, the evidence against FRED)."""
    m, q = f["pairs"][f"fred-{y}"], f["pairs"][f"fredpos-{y}"]
    name = {"lime": "LIME", "shap": "SHAP", "anchor": "Anchors"}[y]
    if y in f["marginal"]:
        return (f"level with {name} ({m['won']}-{m['lost']} / {q['won']}-{q['lost']}, sign test p = "
                f"{f['sign_test_p'][y]:.2f} for the closer variant)")
    counts = (f"printed means favour {name} {m['lost']}-{m['won']} / {q['lost']}-{q['won']}, clear "
              f"{m['clear_lost']} / {q['clear_lost']}")
    if m["won"] == q["won"] == 0 and not m["tied"] and not q["tied"]:
        return (f"below {name} in every table ({counts})" + (
            f", which the paper itself concedes, line {SHAP_HIGH.line}: SHAP's 'high robustness'" if y == "shap"
            else ""))
    undecided = " / ".join(dict.fromkeys(str(p["undecided"]) for p in (m, q)))
    return (f"below {name} ({counts}; under the yardstick's OR rule, better or close, the step stays "
            f"inconclusive because 'close' is undecided in {undecided} of {len(TABLES)} tables, yet the evidence "
            "goes against FRED)")


def corrected() -> str:
    """The precise statement: on the tables' robustness FRED is below LIME and SHAP, level with Anchors where the
    split of the tables is within chance (a sign test at :data:`fred_constants.LEVEL`)."""
    f = _facts()
    return ("As the tables measure robustness (FRED-mask / FRED-pos, tables), 'not below each baseline' is not "
            "supported: FRED is " + "; ".join(_against_text(y, f) for y in BASELINES)
            + f". Neither variant has the best robustness in any of the {f['best_in_column']['tables']} tables; SHAP "
            f"has it in {f['best_in_column']['shap']}. The paper makes no comparative robustness claim: this tests "
            "a claim implied by the name (lines 98, 156) and line 219.")


def paper_tables() -> StepResult:
    """c1: the precise statement: the printed means favour every baseline over both FRED variants on the whole, and
    no FRED variant has the best robustness of any table."""
    f = _facts()
    return gaps_step(CLAIM, "c1-tables", f"The printed means favour each baseline over each FRED variant on the "
                     f"whole: {f['every_baseline_favoured']}"
                     + "".join(f" (against {y} within chance: sign test p = {f['sign_test_p'][y]:.2f} > {f['level']}, "
                               "so level with it)" for y in f["marginal"])
                     + f"; tables with a FRED variant best: {f['best_in_column']['fred_variant']}.", role="correction", reading=None,
                     holds=f["every_baseline_favoured"] and f["best_in_column"]["fred_variant"] == 0, values=f)


def check() -> ClaimResult:
    """The headline against each baseline, the stronger and the absolute readings, and the precise statement."""
    steps = (*(not_below(y) for y in BASELINES), more_robust(), high(), paper_tables())
    # The counterexample: the baseline whose robustness is above both FRED variants' in the most tables (SHAP).
    failing = [s.values["counterexample"] for s in steps[:len(BASELINES)] if s.values["counterexample"]]
    counterexample = max(failing, key=lambda c: min(p["lost"] for p in c["pairs"]), default=None)
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS, counterexample=counterexample,
                        steps=steps, corrected=corrected(), source=SOURCE, readings=READINGS)
