"""Section 4's tables: an underlined cell is the best of its column.

The paper never says what its underlines mean (:func:`definition_searched` searches the source for the word outside
the table cells); the reading is the convention of such tables: an underline marks the best printed mean of its
column, by the column's arrow (line 589), every tied one. Only section 4's six tables underline anything. This is an
exact check on the printed means (exact decimals), not a statistical one.

Sufficiency and comprehensiveness are not checked here: claim metric-sufficiency's step c2-tables checks those two
columns of the six tables (the underlined Sufficiency the lowest signed mean, the underlined Comprehensiveness the
highest: all six hold) and that the appendix tables underline nothing. This claim checks the other four columns:
robustness, AUC-MoRF, time and proportion (:data:`COLUMNS`), 24 columns in all.

Readings:

* ``no-false-underline`` (headline): every underlined cell has the best printed mean of its column: what an underline
  asserts ("this is the best"). The paper never states its convention, so the headline reads it in the sense every
  underline printed commits the paper to, not in its strictest sense (issue 40): the absence of an underline asserts
  nothing the paper wrote. The claim is not labelled ours: the underlines are the paper's own marks.
* ``best-marked`` (stronger): in each of the 24 columns the underlined cells are exactly those with the best printed
  mean (every best value underlined); a column where all five explainers tie has no best to single out and may
  underline nothing.
* ``every-tie`` (stronger): the underlined cells are exactly the best ones in every column, all-tied ones too.
* ``clearly-best`` (stronger): each underlined cell is better than every cell not underlined in its column by the
  yardstick's clear gap (:func:`proofs_checks.paper.yardstick.better`), with a sensitivity table over its minimum
  effect size.
"""

from __future__ import annotations

from ...paper.tables import SECTION4, TABLES, UNDERLINED, row_line
from ...paper.yardstick import MARGINS, better, gap, sensitivity
from ...verdicts.quotes import paper_lines, paper_path
from ...verdicts.results import Claim, ClaimResult, Quote, Reading, StepResult, hypotheses
from .paper_gaps import gaps_step

CLAIM = Claim("experiment-underlines", new=True)
BEST_MARKED, NO_FALSE, EVERY_TIE, CLEARLY = "best-marked", "no-false-underline", "every-tie", "clearly-best"
#: The columns checked here; sufficiency and comprehensiveness are metric-sufficiency's step c2-tables.
COLUMNS = ("robustness", "aucmorf", "time", "proportion")
HEADER = Quote(589, r"\texttt{suffic.} $\downarrow$ & \texttt{compreh.} $\uparrow$ & \texttt{robust}. $\uparrow$ & "
                    r"\texttt{aucmorf} $\downarrow$ & \texttt{time (s)} $\downarrow$ & \texttt{proport.} $\downarrow$")
# exp-tab:restaurants_roberta_5: SHAP's robustness 1.000 and time 1.899, the best of their columns, underlined.
UNDERLINED_BEST = Quote(594, r"shap & $0.766 (0.42)$ & $0.323 (0.46)$ & \underline{$1.000 (0.00)$} & $0.306 (0.21)$ & "
                             r"\underline{$1.899 (1.74)$} & $0.127 (0.06)$")
# exp-tab:tweets_forest_5: SHAP's robustness 1.000, the best of its column, not underlined; proportion all 0.108.
NOT_UNDERLINED = Quote(674, r"shap & $0.784 (0.20)$ & $0.383 (0.15)$ & $1.000 (0.00)$ & $0.156 (0.05)$ & "
                            r"\underline{$0.155 (0.15)$} & $0.108 (0.03)$")
SOURCE = (UNDERLINED_BEST, HEADER, NOT_UNDERLINED,
          Quote(671, r"fred & \underline{$0.781 (0.21)$} & $0.295 (0.19)$ & $0.892 (0.21)$ & $0.156 (0.05)$ & "
                     r"$0.512 (0.04)$ & $0.108 (0.03)$"))
READINGS = (
    Reading(NO_FALSE, "headline",
            "Every underlined cell of the robustness, AUC-MoRF, time and proportion columns of section 4's tables has "
            "the best printed mean of its column by the column's arrow (line 589): what an underline asserts, 'this "
            "is the best'. The paper never says what an underline means (no line of its source does), so the "
            "reading is the one every printed underline commits it to (SHAP's 1.000 robustness and 1.899 s, line "
            "594); that every best value is underlined is the stronger 'best-marked', an unstated convention read "
            "in its strictest sense.",
            why=(UNDERLINED_BEST, HEADER)),
    Reading(BEST_MARKED, "stronger",
            "In each column the underlined cells are exactly those with the best printed mean by the column's arrow "
            "(every best value underlined, every tied one); a column where all five tie may underline nothing."),
    Reading(EVERY_TIE, "stronger", "The underlined cells are exactly the best ones in every column, a column where "
                                   "all five tie included."),
    Reading(CLEARLY, "stronger", "Each underlined cell is clearly better (the yardstick) than every cell of its column "
                                 "that is not underlined."),
)
STATEMENT = ("In section 4's six tables (lines 590-675), an underlined cell is the best of its column, by the "
             "column's arrow (line 589). The paper does not state this; it is the convention its underlines follow.")
CONDITIONS = ("Exact on the printed means (exact decimals), section 4's six tables, the columns robustness, AUC-MoRF, "
              "time and proportion; the sufficiency and comprehensiveness underlines and the appendix tables "
              "(which underline nothing) are checked by metric-sufficiency step c2-tables, not here. The reading "
              "'clearly-best' uses the yardstick (proofs_checks.paper.yardstick).")


def columns() -> list[dict]:
    """Every checked column of section 4: the underlined explainers, the best ones, whether all five tie."""
    out = []
    for label in SECTION4:
        for metric in COLUMNS:
            best = TABLES[label].best(metric)
            out.append({"table": label, "metric": metric, "underlined": list(UNDERLINED[label].get(metric, ())),
                        "best": list(best), "all_tie": len(best) == len(TABLES[label].rows)})
    return out


def definition_searched() -> StepResult:
    """s0: the paper's source searched for 'underline' outside the table cells (``\\underline{$``)."""
    path = paper_path()
    if path is None:
        return CLAIM.argued("s0-no-definition", "statement", "Not run here: the paper's source fred-paper.tex is "
                            "absent (set FRED_PAPER); that the paper never defines its underlines is not checked.")
    lines = paper_lines(path)
    said = [n for n, text in enumerate(lines, 1) if "underline" in text.lower().replace(r"\underline{$", "")]
    return CLAIM.checked("s0-no-definition", "statement", "exhaustive",
                         f"Lines of the source that mention an underline outside a table cell: {said or 'none'} of "
                         f"{len(lines)}; the reading is the convention.", holds=not said,
                         values={"lines_mentioning_underline": said, "lines": len(lines)})


def _mismatch_text(rows: list[dict]) -> str:
    return "; ".join(f"{r['table']} {r['metric']}: underlined {r['underlined'] or 'nothing'}, best {r['best']}"
                     for r in rows) or "none"


def best_marked(cols: list[dict]) -> StepResult:
    """st1, stronger: underlined == best in every column, an all-tied column free to underline nothing; its first
    mismatch, with the hypotheses record, is the counterexample to that reading (in the step's values)."""
    wrong = [c for c in cols if c["underlined"] != c["best"] and not (c["all_tie"] and not c["underlined"])]
    first = wrong[0] if wrong else None
    counterexample = None if first is None else {
        **hypotheses(section4_table=first["table"] in SECTION4, column_checked_here=first["metric"] in COLUMNS,
                     a_single_best=not first["all_tie"]),
        **first, "line": row_line(first["table"], first["best"][0])}
    return CLAIM.checked("st1-best-marked", "statement", "exhaustive",
                         f"Columns where the underlined cells are exactly the best printed means: "
                         f"{len(cols) - len(wrong)} of {len(cols)}; otherwise: {_mismatch_text(wrong)}.",
                         holds=not wrong, reading=BEST_MARKED,
                         values={"columns": len(cols), "mismatches": wrong, "counterexample": counterexample})


def no_false_underline(cols: list[dict]) -> StepResult:
    """st2, the headline: no underlined cell is worse than the best of its column."""
    false = [c for c in cols if not set(c["underlined"]) <= set(c["best"])]
    underlined = sum(len(c["underlined"]) for c in cols)
    best = sum(len(set(c["underlined"]) & set(c["best"])) for c in cols)
    return CLAIM.checked("st2-no-false-underline", "statement", "exhaustive",
                         f"Underlined cells with the best printed mean of their column: {best} of {underlined}; not "
                         f"the best of their column: {_mismatch_text(false)}.",
                         holds=not false, reading=NO_FALSE, values={"underlined_cells": underlined, "false": false})


def every_tie(cols: list[dict]) -> StepResult:
    """st3, stronger: underlined == best in every column, all-tied ones too."""
    wrong = [c for c in cols if c["underlined"] != c["best"]]
    return CLAIM.checked("st3-every-tie", "statement", "exhaustive",
                         f"Columns where the underlined cells are exactly the best ones, all-tied columns included: "
                         f"{len(cols) - len(wrong)} of {len(cols)}; otherwise: {_mismatch_text(wrong)}.",
                         holds=not wrong, reading=EVERY_TIE, values={"mismatches": wrong})


def _clearly_at(min_effect: float) -> dict:
    """Each underlined cell against each cell not underlined in its column: clearly better, undecided, against."""
    outcomes = [better(gap(TABLES[c["table"]], u, o, c["metric"]), min_effect)
                for c in columns() for u in c["underlined"] for o in TABLES[c["table"]].rows if o not in c["underlined"]]
    status = "fails" if -1 in outcomes else "holds" if all(o == 1 for o in outcomes) else "inconclusive"
    return {"status": status, "clearly/undecided/against": f"{outcomes.count(1)}/{outcomes.count(0)}/"
                                                           f"{outcomes.count(-1)}"}


def clearly_best() -> StepResult:
    """st4, stronger: every underline clearly better than each cell not underlined in its column (the yardstick)."""
    row = _clearly_at(0.0)
    table = sensitivity(_clearly_at, "minimum effect size of a clear gap (pooled SD)", 0.0, MARGINS)
    return gaps_step(CLAIM, "st4-clearly-best", f"Underlined cell against each cell of its column not underlined, "
                     f"clearly better / undecided / against: {row['clearly/undecided/against']}; the step "
                     f"{row['status']}.", holds=row["status"] == "holds", conclusive=row["status"] != "inconclusive",
                     reading=CLEARLY, values={**row, "sensitivity": table},
                     assumption="two explainers' values on a document correlate non-negatively")


def corrected(cols: list[dict]) -> str:
    """The precise statement: the columns where the underlines are not exactly the best."""
    wrong = [c for c in cols if c["underlined"] != c["best"]]
    return (f"In section 4's tables the underlines mark exactly the best printed mean of {len(cols) - len(wrong)} of "
            f"the {len(cols)} robustness, AUC-MoRF, time and proportion columns (and of all 12 sufficiency and "
            f"comprehensiveness columns, metric-sufficiency c2-tables); the exceptions: {_mismatch_text(wrong)}.")


def exceptions(cols: list[dict]) -> StepResult:
    """c1: the precise statement's exceptions are the columns that differ, and no underline is false."""
    wrong = [c for c in cols if c["underlined"] != c["best"]]
    return CLAIM.checked("c1-exceptions", "correction", "exhaustive",
                         f"The exceptions named: {len(wrong)}; each has nothing underlined: "
                         f"{all(not c['underlined'] for c in wrong)}.",
                         holds=all(not c["underlined"] for c in wrong), values={"exceptions": wrong})


def check() -> ClaimResult:
    """The source searched for a definition, the four readings on the 24 columns, the exceptions."""
    cols = columns()
    steps = (definition_searched(), best_marked(cols), no_false_underline(cols), every_tie(cols), clearly_best(),
             exceptions(cols))
    return CLAIM.result(kind="experiment", statement=STATEMENT, conditions=CONDITIONS,
                        counterexample=None,
                        steps=steps, corrected=corrected(cols), source=SOURCE, readings=READINGS)
