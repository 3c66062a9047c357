"""Section 4 and appendix B.2: "LIME and SHAP have a close behavior, as somehow expected".

"Close" is read against the paper's own scale. The same paragraphs say that FRED produces "significantly more faithful
explanations than the others" (line 689; "more faithful", line 1177) on the strength of gaps between printed means; the
largest such gap, over every faithfulness cell where FRED-mask or FRED-pos has the best printed mean, is the
:func:`yardstick` (0.228: FRED-mask's comprehensiveness on RoBERTa for Restaurants at p = 0.1). A gap between LIME and
SHAP larger than every gap the paper itself reads as one explainer being more faithful than another is not "close" by
the paper's usage; this is the most lenient yardstick the tables give (the median LIME-SHAP gap is 0.010). A cell is
**not close** when the LIME-SHAP gap exceeds the yardstick beyond the printing (each printed gap may be off by 0.001)
and is clear by :func:`proofs_checks.claims.experiments.paper_gaps.gap`: at least
:data:`proofs_checks.claims.experiments.paper_gaps.Z_CLEAR` = 2.394 = Phi^-1(1 - 0.05/6) unpaired standard errors at the
worst rounding, a two-sided 0.05 test with a Bonferroni correction over a table's three faithfulness metrics. The cells
it flags are also checked against :data:`Z_ALL_CELLS`, the same correction over all 102 faithfulness cells.

Readings:

* ``on-the-whole`` (headline): the sentence is one of a paragraph of summaries of the tables, and the authors' summary
  sentences are meant on the whole (:func:`proofs_checks.claims.experiments.paper_gaps.summary_register`): FRED-mask or
  FRED-pos has the best printed mean in all three faithfulness cells of only 11 of the 34 tables, yet line 689 ("Both
  FRED-mask and FRED-pos produce significantly more faithful explanations than the others.") and line 1177 ("Again, both
  FRED-mask and FRED-pos produce more faithful explanations than the others.") say so without qualification; "as somehow
  expected" hedges the sentence itself, and the tables print means. The behaviour is the faithfulness of the
  explanations, the subject of the paragraph: the sentence sets it against efficiency ("but the latter is significantly
  more efficient") and the next one singles out SHAP's robustness. It holds when, over the tables each sentence
  describes, most faithfulness cells are close and at most half of the tables have a cell that is not. Its step also
  records an equivalence test (:func:`tost`) with the yardstick as margin.
* ``every-table`` (stronger): no table the sentence describes has a faithfulness cell that is not close.
* ``every-metric`` (stronger): robustness too.
* ``same-tokens`` (alternative): the explanations themselves are alike (LIME and SHAP rank the same tokens first).
  The tables print each explainer's scores, not the overlap of two explainers' explanations: no computation on them
  can check it, and it is reported as argued (unproved).
"""

from __future__ import annotations

from statistics import NormalDist, median

from ...paper.tables import BETTER, FAITHFULNESS, METRICS, SECTION4, TABLES, row_line
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .paper_gaps import (
    APPENDIX,
    CLEAR_LEVEL,
    MEAN_ROUNDING,
    SD_ROUNDING,
    Z_CLEAR,
    documents,
    gap,
    gaps_step,
    register_text,
    summary_register,
)

CLAIM = Claim("experiment-lime-shap-close")
ON_THE_WHOLE, EVERY_TABLE, EVERY_METRIC, SAME_TOKENS = "on-the-whole", "every-table", "every-metric", "same-tokens"
SECTION4_SENTENCE = Quote(693, "LIME and SHAP have a close behavior, as somehow expected, but the latter is "
                               "significantly more efficient.")
APPENDIX_SENTENCE = Quote(1179, "LIME and SHAP have a close behavior, as somehow expected, but the latter is "
                                "significantly more efficient.")
CLOSE_WORDS = Quote(693, "LIME and SHAP have a close behavior")
FAITHFUL_QUOTE = Quote(689, "Both FRED-mask and FRED-pos produce significantly more faithful explanations than the "
                            "others.")
MASK_POS_QUOTE = Quote(690, "FRED-mask is even slightly better than FRED-pos in terms of sufficiency and "
                            "comprehensiveness")
SCOPE_QUOTE = Quote(691, "In general, Anchor performs well on small documents (Restaurant dataset),")
ROBUSTNESS_QUOTE = Quote(694, "On small documents, SHAP performs an exhaustive search over all possible token "
                              "subsets, motivating its high robustness.")
PRINCIPLE_QUOTE = Quote(1166, "Remark that while LIME and SHAP share the principle of attributing an importance "
                              "score for each token")
AGAIN_QUOTE = Quote(1177, "Again, both FRED-mask and FRED-pos produce more faithful explanations than the others.")
HEDGE_QUOTE = Quote(693, "as somehow expected")
SOURCE = (
    SECTION4_SENTENCE, APPENDIX_SENTENCE, FAITHFUL_QUOTE, MASK_POS_QUOTE, SCOPE_QUOTE, ROBUSTNESS_QUOTE,
    AGAIN_QUOTE, PRINCIPLE_QUOTE,
    Quote(1168, r"We use as explanation set $\explanation$ for LIME and SHAP the first $k$ tokens ranked by "
                r"importance"),
    Quote(552, r"Faithfulness is evaluated using \textbf{Comprehensiveness} and \textbf{Sufficiency}"),
)

READINGS = (
    Reading(ON_THE_WHOLE, "headline",
            "what the tables show on the whole, each sentence on the tables it describes: LIME's and SHAP's "
            "sufficiency, comprehensiveness and AUC-MoRF are close (within the largest gap the paper reads as FRED "
            "being more faithful) in most cells, and at most half of the tables have a cell that is not close. The "
            "sentence is one of a paragraph of summaries, and the authors' summary sentences are meant on the "
            "whole: " + register_text(summary_register()) + " (689: 'Both FRED-mask and FRED-pos produce "
            "significantly more faithful explanations than the others.'; 1177: 'Again, both FRED-mask and FRED-pos "
            "produce more faithful explanations than the others.'). The sentence hedges itself ('as somehow "
            "expected'), the tables print means, and its next sentence sets robustness apart",
            why=(SECTION4_SENTENCE, FAITHFUL_QUOTE, AGAIN_QUOTE, HEDGE_QUOTE, ROBUSTNESS_QUOTE, PRINCIPLE_QUOTE)),
    Reading(EVERY_TABLE, "stronger",
            "in every table the sentence describes, every faithfulness cell is close", why=(CLOSE_WORDS,)),
    Reading(EVERY_METRIC, "stronger", "the same on robustness as well", why=(CLOSE_WORDS,)),
    Reading(SAME_TOKENS, "alternative",
            "the explanations themselves are alike: LIME and SHAP rank the same tokens first (not checkable from "
            "the tables)", why=(CLOSE_WORDS, PRINCIPLE_QUOTE)),
)
SCOPES = {"section4": (SECTION4_SENTENCE, SECTION4),
          "appendix": (APPENDIX_SENTENCE, APPENDIX)}
PRINTING = 0.001
#: The model whose tables hold every cell that is not close (the precise statement's exception), and its name.
EXCEPTION, EXCEPTION_NAME = "roberta", "RoBERTa"
#: Two-sided 0.05 with a Bonferroni correction over all the faithfulness cells of the paper's tables (3.486).
Z_ALL_CELLS = NormalDist().inv_cdf(1 - 0.05 / (2 * len(TABLES) * len(FAITHFULNESS)))


def fred_margins() -> list[dict]:
    """Every faithfulness cell where FRED-mask or FRED-pos has the best printed mean: the gap to the best of LIME,
    SHAP and Anchors, by the column's arrow."""
    out = []
    for label, table in TABLES.items():
        for metric in FAITHFULNESS:
            fred = max(BETTER[metric] * table.mean(e, metric) for e in ("fred", "fredpos"))
            other = max(BETTER[metric] * table.mean(e, metric) for e in ("lime", "shap", "anchor"))
            if fred > other:
                out.append({"table": label, "metric": metric, "margin": round(fred - other, 6)})
    return out


def yardstick() -> dict:
    """The largest gap by which the paper's tables show FRED more faithful than every other explainer.

    >>> y = yardstick(); (y["table"], y["metric"], y["margin"])
    ('exp-tab:restaurants_roberta_1', 'comprehensiveness', 0.228)
    """
    return max(fred_margins(), key=lambda m: m["margin"])


def cell(label: str, metric: str, limit: float) -> dict:
    """LIME against SHAP on one cell: the printed gap (signed: positive when LIME is better), its clarity, and
    ``not_close``: beyond ``limit`` by more than the printing of both gaps, and clear."""
    g = gap(TABLES[label], "lime", "shap", metric)
    beyond = abs(g["gap"]) - PRINTING > limit + PRINTING
    return {**g, "line_lime": row_line(label, "lime"), "line_shap": row_line(label, "shap"),
            "beyond_yardstick": beyond, "not_close": beyond and g["clear"] != 0}


#: One-sided 0.05 normal quantile: each of the two one-sided tests of :func:`tost` at 0.05.
Z_TOST = NormalDist().inv_cdf(0.95)


def tost(label: str, metric: str, margin: float) -> dict:
    """An equivalence test (two one-sided tests) of LIME against SHAP on one cell, margin ``margin``: unpaired normal
    approximation from the printed means and standard deviations over
    :func:`proofs_checks.claims.experiments.paper_gaps.documents` documents, at the worst rounding (the gap 0.001
    larger, each standard deviation 0.005 larger). ``z`` is the binding one-sided statistic (margin - |gap|) / se; the
    cell is shown close at 0.05 when z >= :data:`Z_TOST`, and with the correction when z >=
    :data:`proofs_checks.claims.experiments.paper_gaps.Z_CLEAR`.

    >>> round(tost("exp-tab:restaurants_roberta_5", "sufficiency", 0.228)["z"], 2)  # gap 0.239 > margin
    -0.18
    """
    table, index = TABLES[label], METRICS.index(metric)
    (mx, sx), (my, sy) = table.rows["lime"][index], table.rows["shap"][index]
    se = ((sx + SD_ROUNDING) ** 2 + (sy + SD_ROUNDING) ** 2) ** 0.5 / documents(table) ** 0.5
    z = (margin - (abs(mx - my) + 2 * MEAN_ROUNDING)) / se
    return {"table": label, "metric": metric, "z": z, "close_005": z >= Z_TOST, "close_corrected": z >= Z_CLEAR}


def tost_counts(labels, margin: float) -> dict:
    """:func:`tost` over the faithfulness cells of ``labels``: cells shown close, and tables with a cell that is
    not, at 0.05 and with the correction."""
    cells = [tost(label, metric, margin) for label in labels for metric in FAITHFULNESS]
    out = {"margin": margin, "cells": len(cells), "tables": len(tuple(labels)), "z_005": Z_TOST, "z_corrected": Z_CLEAR}
    for key in ("close_005", "close_corrected"):
        out[key] = {"cells_close": sum(c[key] for c in cells),
                    "tables_not_shown_close": sorted({c["table"] for c in cells if not c[key]})}
    return out


def case_hypotheses(label: str, metric: str, sentence: Quote) -> dict:
    """Whether a cell speaks to the sentence: a table the sentence describes, a metric of its reading, and LIME's and
    SHAP's explanations of the same size there (equal printed proportions, the protocol's premise, line 1168)."""
    proportion = METRICS.index("proportion")
    rows = TABLES[label].rows
    return hypotheses(table_the_sentence_describes=label in SCOPES["section4" if sentence is SECTION4_SENTENCE
                                                                   else "appendix"][1],
                      faithfulness_metric=metric in FAITHFULNESS,
                      same_explanation_size=rows["lime"][proportion] == rows["shap"][proportion])


STATEMENT = ('Section 4, "Results" (line 693), and appendix B.2 (line 1179): "LIME and SHAP have a close behavior, as '
             'somehow expected, but the latter is significantly more efficient." The first half; "behavior" is read '
             'here as the faithfulness values the tables print (this project\'s reading: the tables cannot say '
             'whether the explanations themselves are alike).')
#: What a step records of the clear-gap criterion's assumption (paper_gaps).
ASSUMPTION = "LIME's and SHAP's values on a document correlate non-negatively"


def check() -> ClaimResult:
    """The tables on the whole, each sentence's tables cell by cell, robustness, the same-tokens reading, and the
    precise statement."""
    limit = yardstick()
    steps = (on_the_whole(limit), *(every_table(scope, limit) for scope in SCOPES), robustness(limit),
             same_tokens(), paper_tables(limit))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=_conditions(limit), counterexample=None,
                        steps=steps, corrected=corrected(limit), source=SOURCE, readings=READINGS)


def _conditions(limit: dict) -> str:
    """The conditions, with the yardstick ``limit``."""
    return (f"A LIME-SHAP gap is not close when it exceeds the yardstick ({limit['margin']}: the largest gap by which "
            f"a FRED variant beats every other explainer in a faithfulness cell of the paper's tables, "
            f"{limit['table']} {limit['metric']}) by more than the printing of the two gaps (0.001 each), and is "
            f"clear: at least {Z_CLEAR:.3f} = Phi^-1(1 - 0.05/6) unpaired standard errors at the worst rounding, a "
            "two-sided 0.05 test with a Bonferroni correction over a table's three faithfulness metrics "
            "(paper_gaps; conservative when LIME's and SHAP's values on a document correlate non-negatively); the "
            f"cells it flags are checked at {Z_ALL_CELLS:.3f}, the same correction over all "
            f"{len(TABLES) * len(FAITHFULNESS)} cells. 'On the whole': in each sentence's tables most cells close "
            "and at most half of the tables with a cell that is not. Whether LIME and SHAP pick the same tokens "
            "cannot be checked from the tables (reading 'same-tokens', argued). The efficiency half of the sentence "
            "is experiment-shap-efficiency.")


def _cells(labels, metrics, limit: float) -> list[dict]:
    return [cell(label, metric, limit) for label in labels for metric in metrics]


def _cell_values(cells: list[dict], limit: dict) -> dict:
    """What a cell-by-cell step records: the yardstick, the cells not close, their number and the largest gap."""
    return {"yardstick": limit, "not_close": [c for c in cells if c["not_close"]], "cells": len(cells),
            "largest_gap": max(cells, key=lambda c: abs(c["gap"]))}


def _describe(bad: list[dict]) -> str:
    return "; ".join(f"{c['table']} {c['metric']}: LIME {c['mean_x']} ({c['sd_x']}) against SHAP {c['mean_y']} "
                     f"({c['sd_y']}), lines {c['line_lime']}-{c['line_shap']}, z = {c['z_worst']:.2f}" for c in bad)


def _scope_count(every: list[dict], sentence: Quote, labels) -> dict:
    """One sentence's cells close and tables with a cell that is not; it holds when most cells are close and at
    most half of the tables have one that is not."""
    cells = [c for c in every if c["table"] in labels]
    bad = sorted({c["table"] for c in cells if c["not_close"]})
    close = sum(not c["not_close"] for c in cells)
    return {"sentence_line": sentence.line, "cells": len(cells), "close_cells": close, "tables": len(labels),
            "tables_not_close": bad, "holds": 2 * close > len(cells) and 2 * len(bad) <= len(labels)}


def _equivalence_text(equivalence: dict, margin: float) -> str:
    """The equivalence tests (:func:`tost_counts`) of each scope, in words."""
    return f"Equivalence (TOST, margin {margin}, worst rounding): " + "; ".join(
        f"{'all tables' if scope == 'all' else 'line ' + str(SCOPES[scope][0].line) + ' (' + scope + ')'} "
        f"{e['close_005']['cells_close']} of {e['cells']} cells shown close at 0.05 "
        f"({len(e['close_005']['tables_not_shown_close'])} of {e['tables']} tables with a cell not), "
        f"{e['close_corrected']['cells_close']} with the correction (z >= {Z_CLEAR:.3f}; "
        f"{len(e['close_corrected']['tables_not_shown_close'])} tables)" for scope, e in equivalence.items())


def on_the_whole(limit: dict) -> StepResult:
    """st1, the headline: per sentence, most faithfulness cells close and at most half of the tables with one that
    is not; the note adds the counts over all tables and the largest gap outside the exception."""
    every = _cells(TABLES, FAITHFULNESS, limit["margin"])
    counts = {scope: _scope_count(every, sentence, labels) for scope, (sentence, labels) in SCOPES.items()}
    outside = [c for c in every if f"_{EXCEPTION}_" not in c["table"]]
    widest = max(outside, key=lambda c: abs(c["gap"]))
    gaps = [abs(c["gap"]) for c in every]
    equivalence = {scope: tost_counts(labels, limit["margin"]) for scope, (_, labels) in SCOPES.items()}
    equivalence["all"] = tost_counts(tuple(TABLES), limit["margin"])
    noise_only = [c for c in every if not c["not_close"] and c["beyond_yardstick"]]
    register = summary_register()
    note = ("Faithfulness cells close, and tables with a cell that is not: " + "; ".join(
        f"line {c['sentence_line']} ({scope}) {c['close_cells']} of {c['cells']} cells close, "
        f"{len(c['tables_not_close'])} of {c['tables']} tables not" for scope, c in counts.items())
            + f". All tables: {sum(not c['not_close'] for c in every)} of {len(every)} cells close, median gap "
              f"{median(gaps):.3f}; outside {EXCEPTION_NAME} ({len(outside)} cells) the largest gap is "
              f"{abs(widest['gap']):.3f} ({widest['table']} {widest['metric']}, z = {widest['z_worst']:.2f}); "
              f"cells close only because their gap is not clear: {len(noise_only)}. "
            + _equivalence_text(equivalence, limit["margin"])
            + ". The reading is on the whole because " + register_text(register) + ".")
    return gaps_step(CLAIM, "st1-on-the-whole", note, holds=all(c["holds"] for c in counts.values()),
                     reading=ON_THE_WHOLE,
                     values={"counts": counts, "yardstick": limit, "median_gap": median(gaps),
                             "equivalence_tost": equivalence, "close_by_noise_only": len(noise_only),
                             "summary_register": register,
                             "largest_gap_outside_exception": {k: widest[k] for k in ("table", "metric", "gap",
                                                                                     "z_worst")}})


def every_table(scope: str, limit: dict) -> StepResult:
    """st2: the stronger reading on one sentence's tables; its worst not-close cell, with the hypotheses record, is
    the counterexample to that reading (in the step's values: the headline holds)."""
    sentence, labels = SCOPES[scope]
    cells = _cells(labels, FAITHFULNESS, limit["margin"])
    bad = [c for c in cells if c["not_close"]]
    worst = max(bad, key=lambda c: abs(c["gap"]), default=None)
    note = (f"Line {sentence.line}, {len(labels)} tables, {len(cells)} faithfulness cells: LIME and SHAP not close "
            f"(gap above the yardstick {limit['margin']}, clearly) in {len(bad)}"
            + (f" ({_describe(bad)})" if bad else "") + ".")
    counterexample = None if worst is None else {**case_hypotheses(worst["table"], worst["metric"], sentence),
                                                 "sentence_line": sentence.line, **worst}
    return gaps_step(CLAIM, f"st2-every-table-{scope}", note, holds=not bad, reading=EVERY_TABLE,
                     assumption=ASSUMPTION, values={**_cell_values(cells, limit), "sentence_line": sentence.line,
                                                    "counterexample": counterexample})


def robustness(limit: dict) -> StepResult:
    """st3: LIME against SHAP on robustness, every table."""
    cells = _cells(TABLES, ("robustness",), limit["margin"])
    bad = [c for c in cells if c["not_close"]]
    note = (f"Robustness, all {len(cells)} tables: LIME and SHAP not close in {len(bad)}"
            + (f" ({_describe(bad)})" if bad else "") + f", SHAP more robust in {sum(c['gap'] < 0 for c in bad)} "
            "of them.")
    return gaps_step(CLAIM, "st3-robustness", note, holds=not bad, reading=EVERY_METRIC, assumption=ASSUMPTION,
                     values=_cell_values(cells, limit))


def same_tokens() -> StepResult:
    """st4: whether LIME and SHAP pick the same tokens, which the tables cannot say."""
    return CLAIM.argued("st4-same-tokens", "statement",
                        "Whether LIME and SHAP pick the same tokens: every table prints, per explainer, the mean and "
                        "standard deviation of six metrics (columns " + ", ".join(METRICS) + "); none measures the "
                        "agreement of two explainers' explanations, so the tables cannot check this reading.",
                        reading=SAME_TOKENS)


def _exception(limit: dict) -> dict:
    """The faithfulness cells of every table, those not close, and those in and outside :data:`EXCEPTION`'s tables."""
    cells = _cells(TABLES, FAITHFULNESS, limit["margin"])
    exception = [c for c in cells if f"_{EXCEPTION}_" in c["table"]]
    outside = [c for c in cells if f"_{EXCEPTION}_" not in c["table"]]
    return {"cells": cells, "bad": [c for c in cells if c["not_close"]], "exception": exception,
            "tables": sorted({c["table"] for c in exception}), "widest": max(abs(c["gap"]) for c in outside),
            "outside": len(outside)}


def corrected(limit: dict) -> str:
    """The precise statement (the headline holds): the cells close but in :data:`EXCEPTION`'s tables."""
    e = _exception(limit)
    cells, bad, exception = e["cells"], e["bad"], e["exception"]
    equivalence = tost_counts(tuple(TABLES), limit["margin"])
    return (
        f"On the whole, LIME's and SHAP's sufficiency, comprehensiveness and AUC-MoRF are close: "
        f"{len(cells) - len(bad)} of the {len(cells)} faithfulness cells of the paper's {len(TABLES)} tables differ by "
        f"no more than the largest gap by which the tables show FRED more faithful ({limit['margin']}; "
        f"{equivalence['close_005']['cells_close']} are shown within it by an equivalence test at 0.05, "
        f"{equivalence['close_corrected']['cells_close']} with the correction), and the {e['outside']} cells "
        f"outside {EXCEPTION_NAME} by at most {e['widest']:.3f}. The exception is "
        f"{EXCEPTION_NAME}: in all {len(e['tables'])} of its tables SHAP is less faithful than LIME on all three "
        f"metrics ({len(exception)} of {len(exception)} cells, gaps {min(c['gap'] for c in exception):.3f} to "
        f"{max(c['gap'] for c in exception):.3f}, clearly in {sum(c['clear'] != 0 for c in exception)}), beyond "
        "that yardstick and clearly in "
        + ", ".join(f"{c['table']} ({c['metric']}, z = {c['z_worst']:.2f})" for c in bad)
        + f"; these {len(bad)} survive a correction over all {len(cells)} cells (z >= {Z_ALL_CELLS:.3f}).")


def paper_tables(limit: dict) -> StepResult:
    """c1: every not-close cell in a RoBERTa table, clear beyond :data:`Z_ALL_CELLS` too, and SHAP less faithful
    than LIME in every RoBERTa faithfulness cell."""
    e = _exception(limit)
    bad, exception = e["bad"], e["exception"]
    shap_worse = all(c["gap"] > 0 for c in exception)
    in_exception = all(f"_{EXCEPTION}_" in c["table"] for c in bad)
    survives = all(abs(c["z_worst"]) >= Z_ALL_CELLS for c in bad)
    return CLAIM.checked(
        "c1-tables", "correction", "statistical",
        f"Cells not close: {len(bad)}, all in {EXCEPTION_NAME} tables: {in_exception}, clear at z >= "
        f"{Z_ALL_CELLS:.3f} too: {survives}; SHAP less faithful than LIME in all {len(exception)} {EXCEPTION_NAME} "
        f"faithfulness cells: {shap_worse}; clearly (z >= {Z_CLEAR:.3f}) in {sum(c['clear'] != 0 for c in exception)}.",
        holds=bool(bad) and in_exception and survives and shap_worse,
        values={"not_close": [{k: c[k] for k in ("table", "metric", "gap", "z_worst")} for c in bad],
                "roberta_cells": [{k: c[k] for k in ("table", "metric", "gap", "z_worst", "clear")}
                                  for c in exception],
                "roberta_tables": e["tables"], "largest_gap_outside": e["widest"], "yardstick": limit,
                "z_clear": Z_CLEAR, "z_all_cells": Z_ALL_CELLS, "false_alarm_probability": CLEAR_LEVEL,
                "seed": None})
