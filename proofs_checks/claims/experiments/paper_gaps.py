"""Which differences in the paper's printed tables are clear, and what the tables show on the whole.

The paper runs no statistical test: its tables print, per explainer, the mean and, in parentheses, the standard
deviation of each metric over the documents (the first 100 positively classified test documents by length,
appendix B.2; 70 where a caption says ``$n=70$``). The parentheses hold standard deviations, not standard errors: a
standard error of a metric with values in [-1, 1] over 100 documents is at most 0.1, and the tables print up to
0.50 for sufficiency and comprehensiveness (:func:`largest_printed_spread`).

**A clear gap.** Explainer ``x`` is clearly better than ``y`` on a metric of one table when the gap of the printed
means, in the direction of the metric's arrow, is at least :data:`Z_CLEAR` standard errors of an unpaired
comparison, z = gap / sqrt((s_x^2 + s_y^2) / n), evaluated at the worst rounding of the printed numbers: each
mean is printed to 0.001 (so the gap may be 0.001 smaller) and each standard deviation to 0.01 (so it may be 0.005
larger). :data:`Z_CLEAR` is the two-sided normal quantile at 0.05 / 3 (Bonferroni over the three faithfulness
metrics). The documents are the same for every explainer of a table, so the paired standard error is
sqrt(s_x^2 + s_y^2 - 2 rho s_x s_y) / sqrt(n): the unpaired one is larger whenever the two explainers' values
correlate positively (rho >= 0), and the criterion is then conservative. The tables do not give rho; it is an
assumption, stated where a verdict uses the criterion. A gap that is not clear is no evidence either way.

**On the whole.** Over a set of tables, :func:`tally` counts the comparisons ``x`` wins and loses by the printed
means, and the clear ones. The tables favour ``x`` when it wins more comparisons than it loses and the clear gaps
do not point the other way on balance (clear wins >= clear losses; a clear gap the other way may remain, offset by
one of ``x``'s); symmetrically for ``y``. Otherwise they are mixed: the printed means tie, or they point one way and
the clear gaps, on balance, the other. A statement that the tables favour ``x`` holds when they do, is contradicted
when they favour ``y``, and is neither when they are mixed (the claims call that inconclusive). A tally whose clear
gaps are tied (``clear_won == clear_lost``) favours ``x`` on the gaps that are not clear only; the claims say so.

The direction of a metric is the arrow of the tables' headers (``BETTER``); ``better`` overrides it, for a claim
that must show how its verdict depends on a direction (Sufficiency, whose arrow line 559's words contradict).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction
from statistics import NormalDist

from ...paper.tables import BETTER, FAITHFULNESS, METRICS, SECTION4, TABLES, PaperTable
from ...verdicts.results import Claim, StepResult

#: The appendix's tables (B.2), in the paper's order: every table that is not section 4's.
APPENDIX = tuple(label for label in TABLES if label not in SECTION4)
#: Documents per table when the caption does not say otherwise (appendix B.2: "the first $100$ instances").
N_DOCUMENTS = 100
#: Two-sided 0.05 / 3 normal quantile, 2.394: the bar a gap must clear.
Z_CLEAR = NormalDist().inv_cdf(1 - 0.05 / 6)
#: The false-alarm probability of a step the clear-gap criterion decides: two-sided 0.05 over the three metrics.
CLEAR_LEVEL = 0.05 / 3
#: The tables' printing resolution: means to 0.001, standard deviations to 0.01.
MEAN_UNIT, SD_UNIT = 0.001, 0.01
#: Half a unit of the printed precision, the most a printed number can be off by rounding.
MEAN_ROUNDING, SD_ROUNDING = MEAN_UNIT / 2, SD_UNIT / 2


def documents(table: PaperTable) -> int:
    """The number of documents behind ``table``: its caption's ``$n=...$``, else :data:`N_DOCUMENTS`.

    >>> documents(TABLES["exp-tab:yelp_distilbert_5"]), documents(TABLES["exp-tab:yelp_forest_5"])
    (70, 100)
    """
    found = re.search(r"\$n=(\d+)\$", table.caption)
    return int(found.group(1)) if found else N_DOCUMENTS


def largest_printed_spread(metrics=("sufficiency", "comprehensiveness")) -> float:
    """The largest number printed in parentheses for ``metrics`` over every table (module docstring)."""
    return max(t.rows[e][METRICS.index(m)][1] for t in TABLES.values() for e in t.rows for m in metrics)


def gap(table: PaperTable, x: str, y: str, metric: str, better: int | None = None) -> dict:
    """``x`` against ``y`` on ``metric`` in ``table``: the printed means and standard deviations, the gap (positive:
    ``x`` better, by the metric's arrow, or by ``better``: +1 higher is better, -1 lower), the z-score at the worst
    rounding (signed like the gap, 0 when the rounding can erase the gap) and ``clear``: +1 when ``x`` is clearly
    better, -1 when ``y`` is, else 0.

    >>> g = gap(TABLES["exp-tab:yelp_forest_5"], "shap", "lime", "time")  # 0.638 (0.23) s against 0.332 (0.10) s
    >>> g["clear"], round(g["z_worst"], 2)
    (-1, -11.85)
    """
    index = METRICS.index(metric)
    (mx, sx), (my, sy) = table.rows[x][index], table.rows[y][index]
    signed = (BETTER[metric] if better is None else better) * (mx - my)
    se = math.sqrt(((sx + SD_ROUNDING) ** 2 + (sy + SD_ROUNDING) ** 2) / documents(table))
    z = math.copysign(max(0.0, abs(signed) - 2 * MEAN_ROUNDING) / se, signed)
    return {"table": table.label, "metric": metric, "x": x, "y": y, "mean_x": mx, "sd_x": sx, "mean_y": my,
            "sd_y": sy, "n": documents(table), "gap": round(signed, 6), "z_worst": z,
            "clear": (z >= Z_CLEAR) - (z <= -Z_CLEAR)}


def gaps_step(claim: Claim, step: str, note: str, *, holds, reading: str, values: dict, conclusive=True,
              assumption: str | None = None) -> StepResult:
    """``claim``'s statement step ``step`` decided on the paper's printed tables by the clear-gap criterion:
    statistical, at :data:`CLEAR_LEVEL` with no seed (the tables are fixed), recording :data:`Z_CLEAR` and the
    ``assumption`` that makes the unpaired criterion conservative, where the verdict uses it (module docstring)."""
    values = {**values, "z_clear": Z_CLEAR, "false_alarm_probability": CLEAR_LEVEL, "seed": None}
    if assumption is not None:
        values["assumption"] = assumption
    return claim.checked(step, "statement", "statistical", note, holds=holds, conclusive=conclusive,
                         reading=reading, values=values)


def tally(labels: Iterable[str], x: str, y: str, metrics: Iterable[str], better: dict | None = None) -> dict:
    """``x`` against ``y`` over the tables ``labels`` and ``metrics``: comparisons won, lost and tied by the printed
    means, clear wins and losses (the clear gaps themselves in ``clear_gaps``), and ``favours``: ``x`` or ``y`` when
    the tables favour it on the whole (module docstring), None when they are mixed. ``better`` maps a metric to the
    direction that replaces its arrow."""
    metrics, better = tuple(metrics), better or {}
    gaps = [gap(TABLES[label], x, y, m, better.get(m)) for label in labels for m in metrics]
    won, lost = sum(g["gap"] > 0 for g in gaps), sum(g["gap"] < 0 for g in gaps)
    clear_won, clear_lost = sum(g["clear"] > 0 for g in gaps), sum(g["clear"] < 0 for g in gaps)
    favours = (x if won > lost and clear_won >= clear_lost else
               y if lost > won and clear_lost >= clear_won else None)
    return {"x": x, "y": y, "metrics": list(metrics), "comparisons": len(gaps), "won": won, "lost": lost,
            "tied": len(gaps) - won - lost, "clear_won": clear_won, "clear_lost": clear_lost, "favours": favours,
            "clear_gaps": [g for g in gaps if g["clear"]]}


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
