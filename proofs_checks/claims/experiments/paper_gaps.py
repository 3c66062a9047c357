"""The experiment family's use of the yardstick (:mod:`proofs_checks.paper.yardstick`, which states the rule once):
the appendix's tables, the step a table comparison gives, and why the paragraph's summary sentences are read on the
whole.

The parentheses of the paper's tables hold standard deviations, not standard errors: a standard error of a metric
with values in [-1, 1] over 100 documents is at most 0.1, and the tables print up to 0.50 for sufficiency and
comprehensiveness (:func:`largest_printed_spread`).
"""

from __future__ import annotations

from fractions import Fraction

from ...paper.tables import BETTER, FAITHFULNESS, METRICS, SECTION4, TABLES
from ...paper.yardstick import CLEAR_LEVEL, Z_CLEAR
from ...verdicts.results import Claim, StepResult

#: The appendix's tables (B.2), in the paper's order: every table that is not section 4's.
APPENDIX = tuple(label for label in TABLES if label not in SECTION4)


def largest_printed_spread(metrics=("sufficiency", "comprehensiveness")) -> float:
    """The largest number printed in parentheses for ``metrics`` over every table (module docstring)."""
    return max(t.rows[e][METRICS.index(m)][1] for t in TABLES.values() for e in t.rows for m in metrics)


def gaps_step(claim: Claim, step: str, note: str, *, holds, reading: str | None, values: dict, conclusive=True,
              assumption: str | None = None, role: str = "statement", part: str | None = None) -> StepResult:
    """``claim``'s step ``step`` (a statement step unless ``role`` says otherwise) decided on the paper's printed
    tables by the yardstick: statistical, at its level with no seed (the tables are fixed), recording its z bar and
    the ``assumption`` that makes the unpaired criterion conservative, where the verdict uses it
    (:data:`proofs_checks.paper.yardstick.RULE`); ``part`` labels the part of the sentence it checks."""
    values = {**values, "z_clear": Z_CLEAR, "false_alarm_probability": CLEAR_LEVEL, "seed": None}
    if assumption is not None:
        values["assumption"] = assumption
    return claim.checked(step, role, "statistical", note, holds=holds, conclusive=conclusive,
                         reading=reading, values=values, part=part)


def summary_register() -> dict:
    """Why the paragraph's summary sentences are read on the whole: the faithfulness cells where FRED-mask or
    FRED-pos has the best printed mean (ties included, exact decimals), and the tables where it has the best of all
    three, which lines 689 ("significantly more faithful ... than the others") and 1177 ("Again, ... more faithful
    ... than the others") summarise without qualification. Shared by the claims that read a summary sentence of
    section 4 or appendix B.2 on the whole (experiment-lime-shap-close, experiment-shap-efficiency).

    >>> r = summary_register(); (r["cells_fred_best"], r["cells"], len(r["tables_fred_best_all_three"]), r["tables"])
    (69, 102, 11, 34)
    """
    def best(table, metric) -> bool:
        score = {e: BETTER[metric] * Fraction(str(table.mean(e, metric))) for e in table.rows}
        return max(score[e] for e in ("fred", "fredpos")) >= max(score[e] for e in ("lime", "shap", "anchor"))

    everywhere = [label for label, table in TABLES.items() if all(best(table, m) for m in FAITHFULNESS)]
    return {"cells_fred_best": sum(best(t, m) for t in TABLES.values() for m in FAITHFULNESS),
            "cells": len(TABLES) * len(FAITHFULNESS), "tables_fred_best_all_three": everywhere,
            "tables": len(TABLES), "section4_fred_best_all_three": [l for l in everywhere if l in SECTION4],
            "section4_tables": len(SECTION4), "lines": [689, 1177]}


def register_text(r: dict) -> str:
    """The computed reason of :func:`summary_register`, in words."""
    return (f"FRED-mask or FRED-pos has the best printed mean in {r['cells_fred_best']} of the {r['cells']} "
            f"faithfulness cells, and in all three faithfulness cells of only {len(r['tables_fred_best_all_three'])} "
            f"of the {r['tables']} tables ({len(r['section4_fred_best_all_three'])} of the {r['section4_tables']} "
            "in section 4), yet lines 689 and 1177 say without qualification that FRED is more faithful than the "
            "others: the authors' summary sentences are meant on the whole")
