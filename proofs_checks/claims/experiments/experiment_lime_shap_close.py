"""Section 4 and appendix B.2: "LIME and SHAP have a close behavior, as somehow expected".

"Close" is the yardstick's (:mod:`proofs_checks.paper.yardstick`, the rule stated once for every table claim): in a
cell (a table's metric), LIME and SHAP are **close** when an equivalence test (two one-sided tests, z >=
:data:`proofs_checks.paper.yardstick.Z_EQUIVALENCE` = 2.128 at the worst rounding of the printed numbers) shows their
gap
within :data:`fred_constants.SMALL_EFFECT` = 0.2 pooled standard deviations, Cohen's conventional "small" effect,
declared before the tables were compared and never chosen from them; **not close** when the gap is shown beyond
that margin (a one-sided test at the clear-gap level z >= :data:`proofs_checks.paper.yardstick.Z_CLEAR` = 2.394, the
yardstick's bar for every 'better'); undecided otherwise. Over 100 documents no cell can be shown within less than 0.301 pooled standard
deviations, so at the declared margin 'close' is untestable from the tables (evidence neither way): the headline is
inconclusive, and the sensitivity table recorded with it shows the exact margin where it turns.

Readings:

* ``on-the-whole`` (headline): the sentence is one of a paragraph of summaries of the tables, and the authors' summary
  sentences are meant on the whole (:func:`proofs_checks.claims.experiments.paper_gaps.summary_register`): FRED-mask or
  FRED-pos has the best printed mean in all three faithfulness cells of only 11 of the 34 tables, yet line 689 ("Both
  FRED-mask and FRED-pos produce significantly more faithful explanations than the others.") and line 1177 ("Again, both
  FRED-mask and FRED-pos produce more faithful explanations than the others.") say so without qualification; "as somehow
  expected" hedges the sentence itself, and the tables print means. The behaviour is the faithfulness of the
  explanations, the subject of the paragraph: the sentence sets it against efficiency ("but the latter is significantly
  more efficient") and the next one singles out SHAP's robustness. The yardstick's "close on the whole" decides it, on
  the tables each sentence describes.
* ``every-table`` (stronger): every faithfulness cell of the tables the sentence describes is close.
* ``every-metric`` (stronger): robustness too.
* ``same-tokens`` (alternative): the explanations themselves are alike (LIME and SHAP rank the same tokens first).
  The tables print each explainer's scores, not the overlap of two explainers' explanations: no computation on them
  can check it, and it is reported as argued (unproved).
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import NormalDist, median

from fred_constants import SMALL_EFFECT

from ...paper.tables import FAITHFULNESS, METRICS, SECTION4, TABLES, row_line
from ...paper.yardstick import (
    CLEAR_LEVEL,
    Z_CLEAR,
    Z_EQUIVALENCE,
    beyond_z,
    close,
    close_on_the_whole,
    close_tally,
    gap,
    sensitivity,
    smallest_showable_margin,
)
from ...verdicts.results import (
    Claim,
    ClaimResult,
    Quote,
    Reading,
    StepResult,
    hypotheses,
)
from .paired_tests import FIVE_EXPLAINER_RUNS, load_run, paired_equivalence
from .paper_gaps import APPENDIX, gaps_step, register_text, summary_register

CLAIM = Claim("experiment-lime-shap-close")
ON_THE_WHOLE, EVERY_TABLE, EVERY_METRIC, SAME_TOKENS = "on-the-whole", "every-table", "every-metric", "same-tokens"
PAIRED_RUNS = "paired-runs"
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
            "sufficiency, comprehensiveness and AUC-MoRF are close by the yardstick (an equivalence test at "
            f"{SMALL_EFFECT} pooled standard deviations, Cohen's 'small' effect) in most cells, and at most half of "
            "the tables have a cell shown not close. The "
            "sentence is one of a paragraph of summaries, and the authors' summary sentences are meant on the "
            "whole: " + register_text(summary_register()) + " (689: 'Both FRED-mask and FRED-pos produce "
            "significantly more faithful explanations than the others.'; 1177: 'Again, both FRED-mask and FRED-pos "
            "produce more faithful explanations than the others.'). The sentence hedges itself ('as somehow "
            "expected'), the tables print means, and its next sentence sets robustness apart",
            why=(SECTION4_SENTENCE, FAITHFUL_QUOTE, AGAIN_QUOTE, HEDGE_QUOTE, ROBUSTNESS_QUOTE, PRINCIPLE_QUOTE)),
    Reading(EVERY_TABLE, "stronger",
            "in every table the sentence describes, every faithfulness cell is close by the yardstick",
            why=(CLOSE_WORDS,)),
    Reading(EVERY_METRIC, "stronger", "the same on robustness as well", why=(CLOSE_WORDS,)),
    Reading(PAIRED_RUNS, "alternative",
            "ours, an extension: in this project's committed five-explainer runs, LIME's and SHAP's faithfulness "
            "values are close by the yardstick's margin (0.2 pooled SD of the values) tested with a paired TOST, on "
            "the whole over the runs (the paper's per-document results are not published)", why=(CLOSE_WORDS,)),
    Reading(SAME_TOKENS, "alternative",
            "the explanations themselves are alike: LIME and SHAP rank the same tokens first (not checkable from "
            "the tables)", why=(CLOSE_WORDS, PRINCIPLE_QUOTE)),
)
SCOPES = {"section4": (SECTION4_SENTENCE, SECTION4),
          "appendix": (APPENDIX_SENTENCE, APPENDIX)}
#: Two-sided 0.05 with a Bonferroni correction over all the faithfulness cells of the paper's tables (3.486).
Z_ALL_CELLS = NormalDist().inv_cdf(1 - 0.05 / (2 * len(TABLES) * len(FAITHFULNESS)))


def cell(label: str, metric: str, margin: float = SMALL_EFFECT) -> dict:
    """LIME against SHAP on one cell (:func:`proofs_checks.paper.yardstick.gap`, positive: LIME better), its source
    lines and ``close``: +1 shown close at ``margin``, -1 shown not close, 0 undecided (the yardstick)."""
    g = gap(TABLES[label], "lime", "shap", metric)
    return {**g, "line_lime": row_line(label, "lime"), "line_shap": row_line(label, "shap"), "close": close(g, margin)}


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
    steps = (on_the_whole(), *(every_table(scope) for scope in SCOPES), robustness(), same_tokens(), paired_runs(),
             paper_tables())
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, corrected=corrected(), source=SOURCE, readings=READINGS)


CONDITIONS = (f"'Close' is the yardstick's (proofs_checks.paper.yardstick, printed above the experiment claims): an "
              f"equivalence test with margin {SMALL_EFFECT} pooled standard deviations (Cohen's 'small' effect, "
              f"declared before the tables were compared), two one-sided tests at z >= {Z_EQUIVALENCE:.3f} (each at "
              "0.05/3) at the worst "
              "rounding of the printed numbers; 'not close' when the gap is shown beyond that margin, a one-sided "
              f"test at the clear-gap level z >= {Z_CLEAR:.3f} (two-sided 0.05/3, the yardstick's bar for every "
              "'better'; the not-close cells are counted at it); undecided otherwise. Unpaired, so conservative when LIME's and SHAP's values on a document correlate "
              "non-negatively. 'On the whole': per sentence, most cells shown close and at most half of the tables "
              "with a cell shown not close; it fails when most cells, or more than half of the tables, are not "
              "close. The sensitivity table gives the verdict at other margins. Whether LIME and SHAP pick the same "
              "tokens cannot be checked from the tables (reading 'same-tokens', argued). The efficiency half of the "
              "sentence is experiment-shap-efficiency.")


def _combined(statuses) -> str:
    """The status of the two sentences together: fails when one fails, holds when both hold."""
    statuses = list(statuses)
    return "fails" if "fails" in statuses else "holds" if all(s == "holds" for s in statuses) else "inconclusive"


def _at(margin: float, metrics=FAITHFULNESS) -> dict:
    """The headline at ``margin``: each sentence's :func:`proofs_checks.paper.yardstick.close_tally` and the status
    of the two together (a sensitivity row: counts as 'close / not close / undecided')."""
    tallies = {scope: close_tally(labels, "lime", "shap", metrics, margin) for scope, (_, labels) in SCOPES.items()}
    return {"status": _combined(t["status"] for t in tallies.values()),
            **{f"line {SCOPES[scope][0].line} close / not / undecided": f"{t['close']} / {t['not_close']} / "
               f"{t['undecided']}" for scope, t in tallies.items()},
            "tables with a cell not close": sum(len(t["tables_not_close"]) for t in tallies.values()),
            "reachable": all(t["reachable"] for t in tallies.values())}


def _describe(bad: list[dict]) -> str:
    return "; ".join(f"{c['table']} {c['metric']}: LIME {c['mean_x']} ({c['sd_x']}) against SHAP {c['mean_y']} "
                     f"({c['sd_y']}), lines {c['line_lime']}-{c['line_shap']}, effect {c['effect_worst']:+.2f} SD, "
                     f"z = {c['z_worst']:.2f}" for c in bad)


def on_the_whole() -> StepResult:
    """st1, the headline: per sentence, the yardstick's 'close on the whole' at the declared margin, with the
    sensitivity table over :data:`proofs_checks.paper.yardstick.MARGINS`."""
    tallies = {scope: close_tally(labels, "lime", "shap", FAITHFULNESS) for scope, (_, labels) in SCOPES.items()}
    status = _combined(t["status"] for t in tallies.values())
    every = [cell(label, metric) for label in TABLES for metric in FAITHFULNESS]
    table = sensitivity(_at, "margin (pooled SD)", SMALL_EFFECT)
    register, printed = summary_register(), [printed_effect(c) for c in every]
    beyond = sum(t["not_close"] for t in tallies.values())
    note = (f"In words: {status}; 'close' is untestable from the tables at {SMALL_EFFECT} SD; {beyond} of "
            f"{len(every)} cells are shown beyond it; the paired re-runs (st5) {paired_words()} closeness. "
            f"At the declared margin {SMALL_EFFECT} pooled SD: " + "; ".join(
        f"line {SCOPES[scope][0].line} ({scope}) {t['close']} of {t['cells']} cells shown close, {t['not_close']} "
        f"shown not close, {t['undecided']} undecided; {len(t['tables_not_close'])} of {t['tables']} tables with a "
        f"cell not close ({t['status']})" for scope, t in tallies.items())
            + f". Over {min(c['n'] for c in every)} to {max(c['n'] for c in every)} documents no cell can be shown "
              f"closer than {smallest_showable_margin(100):.3f} SD (n = 100), so the equivalence test cannot reach "
              f"its level at {SMALL_EFFECT}: the step is inconclusive unless the cells shown not close decide it. "
              f"Median |gap| {median(abs(c['gap']) for c in every):.3f}; median |effect| on the printed numbers "
              f"{median(printed):.3f} SD, {sum(e < SMALL_EFFECT for e in printed)} of {len(every)} cells under "
              f"{SMALL_EFFECT} SD (at the rounding most favourable to closeness, the gap shrunk by 0.001 and the SDs "
              f"widened: {median(abs(c['effect_worst']) for c in every):.3f} SD). Sensitivity: "
            + "; ".join(f"{r['margin']} {r['status']}" for r in table["rows"])
            + (f" (turns exactly at {', '.join(map(str, table['turns_at']))} SD)" if table["turns_at"] else "")
            + ". The reading is on the whole because " + register_text(register) + ".")
    return gaps_step(CLAIM, "st1-on-the-whole", note, holds=status == "holds", conclusive=status != "inconclusive",
                     reading=ON_THE_WHOLE, assumption=ASSUMPTION,
                     values={"margin": SMALL_EFFECT, "tallies": tallies, "sensitivity": table,
                             "smallest_showable_margin": smallest_showable_margin(100), "shown_beyond": beyond,
                             "median_effect_printed": median(printed), "median_effect_favourable":
                             median(abs(c["effect_worst"]) for c in every),
                             "cells_under_margin_printed": sum(e < SMALL_EFFECT for e in printed),
                             "summary_register": register})


def printed_effect(c: dict) -> float:
    """A cell's |effect| on its printed numbers, as a reader of the table computes it: |gap| over the pooled printed
    standard deviation (0 for a gap of 0 between two SDs of 0), no rounding taken either way."""
    pooled = ((c["sd_x"] ** 2 + c["sd_y"] ** 2) / 2) ** 0.5
    return abs(c["gap"]) / pooled if pooled else 0.0 if c["gap"] == 0 else float("inf")


def _every(cells: list[dict]) -> tuple[str, list[dict]]:
    """'Every cell close': fails on a cell shown not close, holds when all are shown close; and the not-close ones."""
    bad = [c for c in cells if c["close"] < 0]
    return ("fails" if bad else "holds" if all(c["close"] > 0 for c in cells) else "inconclusive"), bad


def every_table(scope: str) -> StepResult:
    """st2: the stronger reading on one sentence's tables; its widest not-close cell, with the hypotheses record, is
    the counterexample to that reading (in the step's values)."""
    sentence, labels = SCOPES[scope]
    cells = [cell(label, metric) for label in labels for metric in FAITHFULNESS]
    status, bad = _every(cells)
    worst = max(bad, key=lambda c: abs(c["effect_worst"]), default=None)
    note = (f"Line {sentence.line}, {len(labels)} tables, {len(cells)} faithfulness cells at margin {SMALL_EFFECT} "
            f"SD: shown close {sum(c['close'] > 0 for c in cells)}, shown not close {len(bad)}"
            + (f" ({_describe(bad)})" if bad else "") + f", undecided {sum(c['close'] == 0 for c in cells)}.")
    counterexample = None if worst is None else {**case_hypotheses(worst["table"], worst["metric"], sentence),
                                                 "sentence_line": sentence.line, **worst}
    return gaps_step(CLAIM, f"st2-every-table-{scope}", note, holds=status == "holds",
                     conclusive=status != "inconclusive", reading=EVERY_TABLE, assumption=ASSUMPTION,
                     values={"margin": SMALL_EFFECT, "not_close": bad, "cells": len(cells),
                             "sentence_line": sentence.line, "counterexample": counterexample})


def robustness() -> StepResult:
    """st3: LIME against SHAP on robustness, every table."""
    cells = [cell(label, "robustness") for label in TABLES]
    status, bad = _every(cells)
    note = (f"Robustness, all {len(cells)} tables, margin {SMALL_EFFECT} SD: shown not close in {len(bad)}"
            + (f" ({_describe(bad)})" if bad else "") + f", SHAP more robust in {sum(c['gap'] < 0 for c in bad)} "
            f"of them; shown close in {sum(c['close'] > 0 for c in cells)}.")
    return gaps_step(CLAIM, "st3-robustness", note, holds=status == "holds", conclusive=status != "inconclusive",
                     reading=EVERY_METRIC, assumption=ASSUMPTION,
                     values={"margin": SMALL_EFFECT, "not_close": bad, "cells": len(cells)})


def same_tokens() -> StepResult:
    """st4: whether LIME and SHAP pick the same tokens, which the tables cannot say."""
    return CLAIM.argued("st4-same-tokens", "statement",
                        "Whether LIME and SHAP pick the same tokens: every table prints, per explainer, the mean and "
                        "standard deviation of six metrics (columns " + ", ".join(METRICS) + "); none measures the "
                        "agreement of two explainers' explanations, so the tables cannot check this reading.",
                        reading=SAME_TOKENS)


def _precise() -> dict:
    """What the precise statement says: the faithfulness cells shown not close at the declared margin, by model,
    whether any cell can be shown close at it, and the margins of the sensitivity table where the headline holds."""
    cells = [cell(label, metric) for label in TABLES for metric in FAITHFULNESS]
    bad = [c for c in cells if c["close"] < 0]
    table = sensitivity(_at, "margin", SMALL_EFFECT)
    rows = table["rows"]
    holds_from = [r["margin"] for r in rows if r["status"] == "holds"]
    by_model: dict = {}
    for c in bad:
        model = c["table"].split("_")[1]
        by_model[model] = by_model.get(model, 0) + 1
    return {"cells": cells, "bad": bad, "by_model": by_model, "reachable": _at(SMALL_EFFECT)["reachable"],
            "holds_from": holds_from, "turns_at": table["turns_at"],
            "monotone": holds_from == [r["margin"] for r in rows
                                                                  if holds_from and r["margin"] >= holds_from[0]],
            "survive_all_cells": sum(max(beyond_z(c, SMALL_EFFECT), beyond_z(c, SMALL_EFFECT, -1)) >= Z_ALL_CELLS
                                     for c in bad)}


def corrected() -> str:
    """The precise statement: what the tables show at the declared margin, and where the headline turns."""
    e = _precise()
    return (
        f"Inconclusive: at Cohen's small effect ({SMALL_EFFECT} pooled SD, declared), 'close' is untestable from the "
        f"paper's tables: over 100 documents no equivalence below {smallest_showable_margin(100):.3f} SD can be "
        f"shown (evidence neither way); the paired re-runs (st5) {paired_words()} closeness. "
        f"{len(e['bad'])} of the {len(e['cells'])} faithfulness cells are shown not close (beyond {SMALL_EFFECT} "
        "SD; by model: " + ", ".join(f"{m} {k}" for m, k in e["by_model"].items()) + f"; {e['survive_all_cells']} "
        f"of them also at z >= {Z_ALL_CELLS:.3f}, a correction over all {len(e['cells'])} cells): "
        + ", ".join(f"{c['table']} {c['metric']} ({c['effect_worst']:+.2f} SD)" for c in e["bad"])
        + ". On the whole, LIME and SHAP are shown close at a margin of "
        + (f"{e['turns_at'][-1]} SD and above, not below (the exact turning margin, to 0.01 SD)." if e["turns_at"]
           else "no margin up to 0.8 SD."))


def paper_tables() -> StepResult:
    """c1: the precise statement: no cell can be shown close at the declared margin, the cells shown not close,
    and the headline holding from one margin of the sensitivity table on, and at every larger one."""
    e = _precise()
    return CLAIM.checked(
        "c1-tables", "correction", "statistical",
        f"Equivalence reachable at {SMALL_EFFECT} SD in some cell: {e['reachable']}; cells shown not close: "
        f"{len(e['bad'])} ({e['survive_all_cells']} at z >= {Z_ALL_CELLS:.3f}); the headline holds at margins "
        f"{e['holds_from']} of the grid, every margin from the first on: {e['monotone']}; it turns exactly at "
        f"{e['turns_at']} SD.",
        holds=not e["reachable"] and bool(e["holds_from"]) and e["monotone"],
        values={"margin": SMALL_EFFECT, "not_close": [{k: c[k] for k in ("table", "metric", "gap", "effect_worst",
                                                                          "z_worst")} for c in e["bad"]],
                "not_close_by_model": e["by_model"], "holds_from_margins": e["holds_from"],
                "turns_at": e["turns_at"], "survive_all_cells": e["survive_all_cells"],
                "z_equivalence": Z_EQUIVALENCE, "z_all_cells": Z_ALL_CELLS,
                "false_alarm_probability": CLEAR_LEVEL, "seed": None})


def _paired_at(runs) -> Callable[[float], dict]:
    """The paired reading at a margin (a sensitivity row): the runs' faithfulness cells close / not / undecided."""
    def at(margin: float) -> dict:
        outcomes = {r.tag: [paired_equivalence(r, "lime", "shap", m, margin)["close"] for m in FAITHFULNESS]
                    for r in runs}
        cells = [o for group in outcomes.values() for o in group]
        return {"status": close_on_the_whole(outcomes), "close / not / undecided": f"{cells.count(1)} / "
                f"{cells.count(-1)} / {cells.count(0)}", "runs with a cell not close": sum(-1 in g for g in
                                                                                          outcomes.values())}
    return at


def paired_words() -> str:
    """What the paired re-runs (st5) say of closeness at the declared margin, in words: 'support' when it holds on
    the whole over the committed runs, 'go against' when it fails, 'leave undecided' otherwise or without runs."""
    runs = [r for r in map(load_run, FIVE_EXPLAINER_RUNS) if r is not None]
    status = _paired_at(runs)(SMALL_EFFECT)["status"] if runs else "inconclusive"
    return {"holds": "support", "fails": "go against"}.get(status, "leave undecided")


def paired_runs() -> StepResult:
    """st5, ours: LIME against SHAP on each committed five-explainer run, the yardstick's margin by a paired TOST
    (:func:`proofs_checks.claims.experiments.paired_tests.paired_equivalence`), on the whole over the runs."""
    runs = [r for r in map(load_run, FIVE_EXPLAINER_RUNS) if r is not None]
    if not runs:
        return CLAIM.argued("st5-paired-runs", "statement", "Not run here: no committed five-explainer run "
                            "(results/README.md gives the commands).", reading=PAIRED_RUNS)
    tests = [paired_equivalence(r, "lime", "shap", m) | {"run": r.tag} for r in runs for m in FAITHFULNESS]
    row = _paired_at(runs)(SMALL_EFFECT)
    not_close = [f"{t['run']} {t['metric']} ({t['mean_difference']:+.3f}, bound {t['bound']:.3f})"
                 for t in tests if t["close"] < 0]
    note = (f"{len(runs)} committed runs, {len(tests)} faithfulness cells (LIME minus SHAP paired by document, margin "
            f"{SMALL_EFFECT} pooled SD of the values, paired TOST at 0.05/3 per side): close / not / undecided "
            f"{row['close / not / undecided']}; runs with a cell not close {row['runs with a cell not close']} of "
            f"{len(runs)} ({'; '.join(not_close) or 'none'}). On the whole {row['status']}. Paired, the margin "
            f"{SMALL_EFFECT} SD is reachable, which no unpaired table cell over 100 documents is "
            f"({smallest_showable_margin(100):.3f} SD).")
    return CLAIM.checked("st5-paired-runs", "statement", "statistical", note, holds=row["status"] == "holds",
                         conclusive=row["status"] != "inconclusive", reading=PAIRED_RUNS,
                         values={"margin": SMALL_EFFECT, "tests": tests, **row, "files": [r.path for r in runs],
                                 "false_alarm_probability": CLEAR_LEVEL, "seed": None,
                                 "sensitivity": sensitivity(_paired_at(runs), "margin (pooled SD of the values)",
                                                            SMALL_EFFECT)})
