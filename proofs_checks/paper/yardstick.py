"""One yardstick for every claim about the paper's tables: "better", "faster", "more faithful", "close" and
"slightly better", declared here once (:data:`RULE`, printed at the top of the report's experiment claims) and
applied alike by every experiment claim that compares two printed cells.

The paper runs no statistical test: its tables print, per explainer, the mean and, in parentheses, the standard
deviation of each metric over the documents (the first 100 positively classified test documents by length, appendix
B.2; 70 where a caption says ``$n=70$``), the means to 0.001 and the standard deviations to 0.01. A **cell** is one
(table, metric) and a comparison of two explainers ``x`` and ``y`` in it (:func:`gap`). Everything is evaluated at
the **worst rounding** of the printed numbers, the one least favourable to what is being shown.

With s_x, s_y the printed standard deviations, the pooled standard deviation is P = sqrt((s_x^2 + s_y^2) / 2) and
the unpaired standard error of the gap is SE = P sqrt(2 / n), so a gap's z-score is sqrt(n / 2) times its effect
size (gap / P). Relations of a cell:

* ``x`` **better by at least m** (:func:`beyond_z`): z = (gap - 0.001 - m P) / SE >= :data:`Z_CLEAR`, the gap taken
  in the direction of the metric's arrow and shrunk by the printing (0.001), P and SE taken with each standard
  deviation 0.005 larger. m = 0 is the clear-gap test (:func:`better`).
* **close at margin m** (:func:`equivalence_z`): two one-sided tests, z = (m P - |gap| - 0.001) / SE >=
  :data:`Z_EQUIVALENCE`, P and SE with each standard deviation 0.005 smaller (a TOST at level alpha runs each side
  at alpha, not alpha / 2: both must reject, so its false-alarm probability is at most the larger side's). **Not
  close**: the gap beyond m, either way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from itertools import pairwise
from statistics import NormalDist

from fred_constants import SMALL_EFFECT

from .tables import BETTER, METRICS, TABLES, PaperTable

#: Documents per table when the caption does not say otherwise (appendix B.2: "the first $100$ instances").
N_DOCUMENTS = 100
#: Two-sided 0.05 / 3 normal quantile, 2.394: the bar every one-sided test of the yardstick must clear.
Z_CLEAR = NormalDist().inv_cdf(1 - 0.05 / 6)
#: The false-alarm probability of a step the yardstick decides: two-sided 0.05 over the three faithfulness metrics.
CLEAR_LEVEL = 0.05 / 3
#: One-sided 0.05 / 3 normal quantile, 2.128: the bar of each one-sided test of an equivalence (TOST). A TOST at level
#: alpha runs each side at alpha (both must reject), so with the Bonferroni over three metrics each side is at
#: :data:`CLEAR_LEVEL`, not at the two-sided test's CLEAR_LEVEL / 2 (:data:`Z_CLEAR`), which would be twice as strict.
Z_EQUIVALENCE = NormalDist().inv_cdf(1 - CLEAR_LEVEL)
#: The resolution, in pooled standard deviations, of the exact turning margin of a sensitivity table (bisection).
TURN_RESOLUTION = 0.01
#: The tables' printing resolution: means to 0.001, standard deviations to 0.01.
MEAN_UNIT, SD_UNIT = 0.001, 0.01
#: Half a unit of the printed precision, the most a printed number can be off by rounding.
MEAN_ROUNDING, SD_ROUNDING = MEAN_UNIT / 2, SD_UNIT / 2
#: The margins (pooled standard deviations) of every sensitivity table: Cohen's "small" 0.2 is the declared one.
MARGINS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8)

#: The yardstick in words, printed once above the experiment claims of the report.
RULE = (
    "The yardstick of the table claims (proofs_checks.paper.yardstick), declared before it is applied. A cell is "
    "one metric of one table, comparing two explainers' printed means (to 0.001) and standard deviations (to 0.01) "
    "over the table's n documents (100, or the caption's n); every test is taken at the worst rounding of the "
    "printed numbers. P = sqrt((s_x^2 + s_y^2) / 2) is the pooled standard deviation, SE = P sqrt(2/n) the unpaired "
    "standard error, and every one-sided test of 'better' clears z >= 2.394 = Phi^-1(1 - 0.05/6) (two-sided 0.05, "
    "Bonferroni "
    "over the three faithfulness metrics; unpaired, so conservative when the two explainers' values on a document "
    "correlate non-negatively, which the tables cannot show). 'Better' (also 'faster', 'more faithful'): x is "
    "better in a cell when its gap over y in the direction of the metric's arrow, shrunk by 0.001, exceeds m P by "
    "2.394 SE (each SD taken 0.005 larger); m = 0 for the clear gap; a cell goes against the sentence when the "
    "printed means favour y; else it is undecided. 'Close': an equivalence test (two one-sided tests) with margin "
    f"delta P, delta = {SMALL_EFFECT} (Cohen's 'small' effect, 1988; named once, "
    "fred_constants.SMALL_EFFECT, never chosen from the tables): close when delta P - |gap| - 0.001 >= 2.128 SE "
    "(each SD taken 0.005 smaller); not close when the gap exceeds delta P, either way, by the 'better' test; else "
    "undecided. "
    "Each one-sided test of that equivalence clears z >= 2.128 = Phi^-1(1 - 0.05/3), not 2.394: a TOST at level "
    "alpha runs each side at alpha (both must reject), so with the Bonferroni over three metrics each side is at "
    "0.05/3; 2.394 there would make 'close' twice as strict as 'better'. With n = 100 no margin below 2.128 "
    "sqrt(2/n) = 0.301 SD can be shown close, so 'close' at the declared 0.2 SD is untestable from the tables: such "
    "a closeness step is inconclusive (its test cannot reach its level), evidence neither way. 'Slightly better': "
    "x's printed mean better and the cell "
    "close; against when the printed means favour y. On the whole (the paper's summary sentences, each over the "
    "tables it describes): a directional sentence holds when the printed means favour x in more cells than y and "
    "the cells where x is better are at least as many as those where y is; it fails when the printed means favour "
    "y in more cells; otherwise it is inconclusive. 'Close' holds when most cells are shown close and at most half "
    "of the tables have a cell not close; it fails when most cells are not close or more than half of the tables "
    "have one; otherwise it is inconclusive. 'Slightly better' holds when both halves hold and fails when either "
    "fails. Each such claim records a sensitivity table: its verdict against the margin (0 to 0.8 SD) and the "
    "exact margin where it turns (bisection on the margin to 0.01 SD), so a reader sees where it turns. The paired "
    "tests on the committed per-document results (Wilcoxon signed-rank, Holm, "
    "level 0.05; 'not worse' by a one-sided paired t-test with margin 0.001, the printing unit) are a second "
    "reading beside the tables, never their headline. 'Close' on those results is the same margin, delta times "
    "the pooled standard deviation of the two explainers' values over the run's documents, tested by a paired "
    "TOST (two one-sided paired t-tests, each at 0.05/3, as above) and read on the whole over the runs as over the "
    "tables "
    "(proofs_checks.claims.experiments.paired_tests.paired_equivalence).")


def documents(table: PaperTable) -> int:
    """The number of documents behind ``table``: its caption's ``$n=...$``, else :data:`N_DOCUMENTS`.

    >>> documents(TABLES["exp-tab:yelp_distilbert_5"]), documents(TABLES["exp-tab:yelp_forest_5"])
    (70, 100)
    """
    found = re.search(r"\$n=(\d+)\$", table.caption)
    return int(found.group(1)) if found else N_DOCUMENTS


def _pooled(sx: float, sy: float, widen: float) -> float:
    """The pooled standard deviation of two printed ones, each moved by ``widen`` (never below 0)."""
    return math.sqrt((max(0.0, sx + widen) ** 2 + max(0.0, sy + widen) ** 2) / 2)


def gap(table: PaperTable, x: str, y: str, metric: str, better: int | None = None) -> dict:
    """``x`` against ``y`` on ``metric`` in ``table``: the printed means and standard deviations, the gap (positive:
    ``x`` better, by the metric's arrow, or by ``better``: +1 higher is better, -1 lower), the pooled standard
    deviation at its largest and smallest rounding, the effect size and z-score at the worst rounding (signed like
    the gap, 0 when the rounding can erase the gap) and ``clear``: +1 when ``x`` is clearly better, -1 when ``y``
    is, else 0.

    >>> g = gap(TABLES["exp-tab:yelp_forest_5"], "shap", "lime", "time")  # 0.638 (0.23) s against 0.332 (0.10) s
    >>> g["clear"], round(g["z_worst"], 2), round(g["effect_worst"], 2)
    (-1, -11.85, -1.68)
    """
    index = METRICS.index(metric)
    (mx, sx), (my, sy) = table.rows[x][index], table.rows[y][index]
    signed = (BETTER[metric] if better is None else better) * (mx - my)
    n, pooled = documents(table), _pooled(sx, sy, SD_ROUNDING)
    shrunk = math.copysign(max(0.0, abs(signed) - 2 * MEAN_ROUNDING), signed)
    z = shrunk / math.sqrt(((sx + SD_ROUNDING) ** 2 + (sy + SD_ROUNDING) ** 2) / n)  # = effect sqrt(n / 2)
    return {"table": table.label, "metric": metric, "x": x, "y": y, "mean_x": mx, "sd_x": sx, "mean_y": my,
            "sd_y": sy, "n": n, "gap": round(signed, 6), "pooled_sd_worst": pooled,
            "pooled_sd_best": _pooled(sx, sy, -SD_ROUNDING), "effect_worst": shrunk / pooled, "z_worst": z,
            "clear": (z >= Z_CLEAR) - (z <= -Z_CLEAR)}


def beyond_z(g: dict, margin: float, side: int = 1) -> float:
    """The z-score, at the worst rounding, of "``x`` better than ``y`` by more than ``margin`` pooled standard
    deviations" in the cell ``g`` of :func:`gap` (``side`` -1: ``y`` better than ``x``): sqrt(n/2) (effect -
    margin)."""
    return math.sqrt(g["n"] / 2) * (side * g["effect_worst"] - margin)


def better(g: dict, min_effect: float = 0.0) -> int:
    """+1 when ``x`` is better than ``y`` in the cell ``g`` by more than ``min_effect`` pooled standard deviations
    (:func:`beyond_z` >= :data:`Z_CLEAR`), -1 when the printed means favour ``y`` (the cell goes against a sentence
    that ``x`` is better), 0 otherwise (undecided)."""
    return 1 if beyond_z(g, min_effect) >= Z_CLEAR else -1 if g["gap"] < 0 else 0


def equivalence_z(g: dict, margin: float) -> float:
    """The binding statistic of the two one-sided tests that the cell ``g``'s gap is within ``margin`` pooled
    standard deviations, at the worst rounding (the gap 0.001 larger, each standard deviation 0.005 smaller; minus
    infinity when both may be 0): (margin P - |gap| - 0.001) / SE."""
    pooled = g["pooled_sd_best"]
    if pooled == 0:
        return -math.inf
    return (margin * pooled - abs(g["gap"]) - 2 * MEAN_ROUNDING) / (pooled * math.sqrt(2 / g["n"]))


def close(g: dict, margin: float = SMALL_EFFECT) -> int:
    """+1 when the cell ``g`` is shown close at ``margin`` (:func:`equivalence_z` >= :data:`Z_EQUIVALENCE`), -1 when
    it is shown not close (the gap beyond ``margin``, either way, by :func:`beyond_z`), 0 otherwise (undecided)."""
    if equivalence_z(g, margin) >= Z_EQUIVALENCE:
        return 1
    return -1 if max(beyond_z(g, margin, 1), beyond_z(g, margin, -1)) >= Z_CLEAR else 0


def slightly_better(g: dict, margin: float = SMALL_EFFECT) -> int:
    """+1 when ``x``'s printed mean is better and the cell ``g`` is shown close at ``margin``, -1 when the printed
    means favour ``y``, 0 otherwise."""
    return -1 if g["gap"] < 0 else 1 if g["gap"] > 0 and close(g, margin) > 0 else 0


def smallest_showable_margin(n: int) -> float:
    """The margin below which no cell over ``n`` documents can be shown close: :data:`Z_EQUIVALENCE` sqrt(2 / n) (a
    gap of 0 and exact printing; the printing only raises it).

    >>> round(smallest_showable_margin(100), 3)
    0.301
    """
    return Z_EQUIVALENCE * math.sqrt(2 / n)


def tally(labels: Iterable[str], x: str, y: str, metrics: Iterable[str], better_as: dict | None = None,
          min_effect: float = 0.0) -> dict:
    """``x`` against ``y`` over the tables ``labels`` and ``metrics``, on the whole (:data:`RULE`): comparisons won,
    lost and tied by the printed means, cells where either is better by more than ``min_effect`` (the clear gaps
    themselves in ``clear_gaps``), and ``favours``: ``x`` when the sentence that it is better holds on the whole,
    ``y`` when the printed means go against it, None when it is undecided. ``better_as`` maps a metric to the
    direction that replaces its arrow."""
    metrics, better_as = tuple(metrics), better_as or {}
    gaps = [gap(TABLES[label], x, y, m, better_as.get(m)) for label in labels for m in metrics]
    won, lost = sum(g["gap"] > 0 for g in gaps), sum(g["gap"] < 0 for g in gaps)
    ahead = [g for g in gaps if beyond_z(g, min_effect) >= Z_CLEAR]
    behind = [g for g in gaps if beyond_z(g, min_effect, -1) >= Z_CLEAR]
    favours = {"holds": x, "fails": y, "inconclusive": None}[directional(won, lost, len(ahead), len(behind))]
    return {"x": x, "y": y, "metrics": list(metrics), "comparisons": len(gaps), "won": won, "lost": lost,
            "tied": len(gaps) - won - lost, "clear_won": len(ahead), "clear_lost": len(behind), "favours": favours,
            "min_effect": min_effect, "clear_gaps": [g for g in gaps if g in ahead or g in behind]}


def close_tally(labels: Iterable[str], x: str, y: str, metrics: Iterable[str], margin: float = SMALL_EFFECT) -> dict:
    """The cells of ``labels`` and ``metrics`` shown close at ``margin``, shown not close and undecided, the tables
    with a cell not close, whether the test can reach its level in every cell, and ``status`` on the whole
    (:data:`RULE`): holds, fails or inconclusive."""
    labels, metrics = tuple(labels), tuple(metrics)
    cells = [gap(TABLES[label], x, y, m) for label in labels for m in metrics]
    outcome = [close(g, margin) for g in cells]
    shown, not_close = outcome.count(1), outcome.count(-1)
    tables_not = sorted({g["table"] for g, o in zip(cells, outcome) if o < 0})
    status = close_on_the_whole({label: [o for g, o in zip(cells, outcome) if g["table"] == label]
                                 for label in labels})
    return {"margin": margin, "cells": len(cells), "close": shown, "not_close": not_close,
            "undecided": len(cells) - shown - not_close, "tables": len(labels), "tables_not_close": tables_not,
            "reachable": all(margin > smallest_showable_margin(g["n"]) for g in cells), "status": status,
            "not_close_cells": [g for g, o in zip(cells, outcome) if o < 0]}


def close_on_the_whole(outcomes: dict[str, list[int]]) -> str:
    """'Close' on the whole (:data:`RULE`) from the cells' outcomes grouped by table (or by committed run): +1 shown
    close, -1 shown not close, 0 undecided. Holds when most cells are shown close and at most half of the groups have
    a cell not close; fails when most cells are not close or more than half of the groups have one; else
    inconclusive.

    >>> close_on_the_whole({"a": [1, 1, 0], "b": [1, -1, 1]}), close_on_the_whole({"a": [-1], "b": [-1], "c": [1]})
    ('holds', 'fails')
    """
    cells = [o for group in outcomes.values() for o in group]
    shown, not_close = cells.count(1), cells.count(-1)
    groups_not = sum(-1 in group for group in outcomes.values())
    if 2 * shown > len(cells) and 2 * groups_not <= len(outcomes):
        return "holds"
    return "fails" if 2 * not_close > len(cells) or 2 * groups_not > len(outcomes) else "inconclusive"


def directional(won: float, lost: float, clear_won: float, clear_lost: float) -> str:
    """The directional rule on the whole (:data:`RULE`): holds when more comparisons are won than lost by the printed
    means and the clear wins are at least the clear losses, fails when more are lost, else inconclusive.

    >>> directional(6, 6, 2, 4), directional(5, 1, 1, 1), directional(7, 10, 1, 0)
    ('inconclusive', 'holds', 'fails')
    """
    return "holds" if won > lost and clear_won >= clear_lost else "fails" if lost > won else "inconclusive"


def status_of(favours: str | None, x: str) -> str:
    """A directional :func:`tally`'s status for the sentence that ``x`` is better: holds, fails or inconclusive."""
    return "holds" if favours == x else "inconclusive" if favours is None else "fails"


def sensitivity(outcome_at: Callable[[float], dict], parameter: str, declared: float,
                margins: Iterable[float] = MARGINS) -> dict:
    """A claim's sensitivity table: ``outcome_at(margin)`` (a dict with ``status`` and the counts it rests on) at
    each of ``margins``, the ``declared`` margin marked, the grid margins where the status turns (``turns_between``:
    the pair of grid margins around each turn) and ``turns_at``: for each turn, the smallest margin to
    :data:`TURN_RESOLUTION` with the new status, found by bisection between the two grid margins (the status taken
    monotone between them).

    >>> t = sensitivity(lambda m: {"status": "holds" if m < 0.3 else "fails"}, "margin", 0.2, (0.1, 0.2, 0.3))
    >>> [r["status"] for r in t["rows"]], t["turns_at"], t["turns_between"]
    (['holds', 'holds', 'fails'], [0.3], [[0.2, 0.3]])
    >>> sensitivity(lambda m: {"status": "holds" if m >= 0.62 else "fails"}, "margin", 0.2)["turns_at"]
    [0.62]
    """
    rows = [{"margin": m, **outcome_at(m), "declared": m == declared} for m in margins]
    pairs = [(a, b) for a, b in pairwise(rows) if a["status"] != b["status"]]
    return {"parameter": parameter, "declared": declared, "rows": rows,
            "turns_at": [_turn(outcome_at, a["margin"], a["status"], b["margin"]) for a, b in pairs],
            "turns_between": [[a["margin"], b["margin"]] for a, b in pairs], "resolution": TURN_RESOLUTION}


def _turn(outcome_at: Callable[[float], dict], low: float, status: str, high: float) -> float:
    """The smallest margin in (``low``, ``high``], on the grid of :data:`TURN_RESOLUTION`, whose status is no longer
    ``status`` (the status at ``low``), by bisection."""
    lo, hi = round(low / TURN_RESOLUTION), round(high / TURN_RESOLUTION)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if outcome_at(round(mid * TURN_RESOLUTION, 10))["status"] == status:
            lo = mid
        else:
            hi = mid
    return round(hi * TURN_RESOLUTION, 10)
