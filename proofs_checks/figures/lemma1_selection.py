"""Selection consistency: how often Fred(mask, n) returns what Fred(exact) returns, against n, with the bound.

Left: the positive-margin documents of ``lemma1-selection`` (fitted logistic models and decision trees): the
measured agreement of ``repetitions`` runs of Fred(mask, n) with Fred(exact) (95% Clopper-Pearson bars) at
multiples of FRED's default n (Lemma 2, alpha = 0.95), and the lower bound
:func:`analytic.selection.agreement_bound` (dashed; 0 where vacuous), which tends to 1. Right: the zero-margin
cases, where the agreement does not tend to 1: the minimal tie and the minimal drop on the threshold (exact
agreement by enumerating the row counts, :func:`analytic.selection.agreement_probability`) and a fitted tree
whose best candidate ties across sizes (measured).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D

from analytic.selection import agreement_bound, agreement_probability, agreement_sample_size
from fred.progress import progress
from fred_constants import EPS, MAX_LEN, P

from ..cases.selection import (
    SelectionCase,
    clopper_pearson,
    margin_cases,
    measure,
    synthetic_case,
    tree_tie_case,
)
from ..cases.selection_counterexamples import counterexample_table
from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "lemma1_selection"
#: The claims this figure draws (the claim map and their pages show it).
CLAIM_IDS: frozenset[str] = frozenset({"lemma1-selection"})
#: Measured n, as multiples of n_paper (quick: the claim's three).
MULTIPLES = (0.25, 0.5, 1, 2, 4, 8, 16)
#: ... and with quick parameters.
QUICK_MULTIPLES = (0.25, 1, 4)
#: Confidence of the drawn Clopper-Pearson bars (a picture, not a test).
CONFIDENCE = 0.95
#: Largest n of the enumerated tie curve (b = 2: C(n + 3, 3) count vectors).
TIE_MAX_N, QUICK_TIE_MAX_N = 64, 16


@dataclass(frozen=True, eq=False)
class Curve:
    """One case: agreement at ``ns`` (measured with its interval, or enumerated exactly with ``low = high``), the
    bound at ``ns`` and on the finer ``bound_ns`` (empty for a zero margin), FRED's default n and the n the bound
    needs for 0.95 (None for a zero margin)."""

    label: str
    document: str
    ns: np.ndarray
    agreement: np.ndarray
    low: np.ndarray
    high: np.ndarray
    enumerated: bool
    n_paper: int
    bound_at_ns: np.ndarray
    bound_ns: np.ndarray
    bound: np.ndarray
    n_for_target: int | None


@dataclass(frozen=True, eq=False)
class SelectionData:
    """The positive-margin curves (left panel) and the zero-margin ones (right panel)."""

    margin: tuple[Curve, ...]
    zero: tuple[Curve, ...]
    p: float
    eps: float
    max_len: int
    seed: int
    repetitions: int


def _measured(case: SelectionCase, multiples, repetitions: int, seed: int, index: int) -> Curve:
    """Fred(mask, n) at n = multiple * n_paper, and the bound between the smallest and largest n when it exists."""
    ns = np.unique([max(1, round(m * case.n_paper)) for m in multiples])
    rates, lows, highs = [], [], []
    for n in ns:
        m = measure(case, int(n), repetitions, np.random.SeedSequence([seed, index, int(n)]))
        low, high = clopper_pearson(m.agree, m.reps, 1 - CONFIDENCE)
        rates.append(m.rate)
        lows.append(low)
        highs.append(high)
    try:
        needed = agreement_sample_size(case.table, 0.95, P, EPS, MAX_LEN)
    except ValueError:  # zero margin: no bound
        return Curve(case.name, case.text, ns, np.array(rates), np.array(lows), np.array(highs), False, case.n_paper,
                     np.array([]), np.array([], int), np.array([]), None)
    # The bound is drawn up to where it reaches 0.95, so a loose bound shows how far it lags the measurement.
    bound_ns = np.unique(np.geomspace(ns[0], max(ns[-1], 2 * needed), 60).round().astype(int))

    def bound(points) -> np.ndarray:
        return np.array([agreement_bound(case.table, int(n), P, EPS, MAX_LEN).value for n in points])

    return Curve(case.name, case.text, ns, np.array(rates), np.array(lows), np.array(highs), False, case.n_paper,
                 bound(ns), bound_ns, bound(bound_ns), needed)


def _enumerated(name: str, table, ns) -> Curve:
    """The exact agreement (float enumeration of the row counts) of a synthetic zero-margin case."""
    case = synthetic_case(name, table)
    values = np.array([agreement_probability(case.table, int(n), P, EPS, MAX_LEN) for n in ns])
    return Curve(name, case.text, np.asarray(ns), values, values, values, True, case.n_paper, np.array([]),
                 np.array([], int), np.array([]), None)


def lemma1_selection_data(seed: int = 0, quick: bool = False) -> SelectionData:
    """Measure every curve: 7 multiples of n_paper and 200 runs per point (quick: 3 and 40)."""
    multiples = QUICK_MULTIPLES if quick else MULTIPLES
    repetitions = 40 if quick else 200
    cases = margin_cases()
    margin = tuple(_measured(case, multiples, repetitions, seed, k)
                   for k, case in enumerate(progress(cases, "selection, positive margins")))
    tie_ns = np.unique(np.geomspace(1, QUICK_TIE_MAX_N if quick else TIE_MAX_N, 12).round().astype(int))
    threshold_ns = np.unique(np.geomspace(1, 2000 if not quick else 200, 25).round().astype(int))
    zero = (_enumerated("minimal tie (exact)", counterexample_table("tie"), tie_ns),
            _enumerated("minimal drop on the threshold (exact)", counterexample_table("threshold"), threshold_ns),
            _measured(tree_tie_case(), multiples, repetitions, seed, len(cases)))
    return SelectionData(margin, zero, P, EPS, MAX_LEN, seed, repetitions)


def _draw(ax, curve: Curve, color) -> None:
    if curve.enumerated:
        ax.plot(curve.ns, curve.agreement, "-", color=color, marker=".", markersize=4,
                label=f"{curve.label}: '{curve.document}'")
    else:
        errors = np.vstack([curve.agreement - curve.low, curve.high - curve.agreement])
        ax.errorbar(curve.ns, curve.agreement, yerr=errors, fmt="o-", color=color, markersize=3.5, capsize=2,
                    linewidth=1.2, label=f"{curve.label}: '{curve.document}'"
                    + (f" (bound 0.95 at n={curve.n_for_target})" if curve.n_for_target else ""))
    if curve.bound.size:
        ax.plot(curve.bound_ns, curve.bound, "--", color=color, linewidth=1)
    ax.axvline(curve.n_paper, color=color, linewidth=0.6, linestyle=":", alpha=0.7)


def lemma1_selection_figure(data: SelectionData):
    """Agreement against n (log x): positive margins with the bound (left), zero margins (right)."""
    fig = new_figure(12, 7.2)
    left, right = fig.subplots(1, 2, sharey=True)
    colors = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:olive")
    for k, curve in enumerate(data.margin):
        _draw(left, curve, colors[k % len(colors)])
    for k, curve in enumerate(data.zero):
        _draw(right, curve, colors[k % len(colors)])
    right.axhline(0.5, color="0.4", linewidth=0.8, linestyle="-.")
    for ax, title in ((left, "positive margins: agreement -> 1, above the bound"),
                      (right, "zero margins: agreement stays near 1/2")):
        ax.set_xscale("log")
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlabel("number of samples n (rows)")
        ax.set_title(title)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=7)
    left.set_ylabel("P(Fred(mask, n) returns Fred(exact)'s positions and found flag)")
    style = [Line2D([], [], color="0.3", marker="o", markersize=3.5,
                    label=f"measured ({data.repetitions} runs, {CONFIDENCE:.0%} Clopper-Pearson)"),
             Line2D([], [], color="0.3", marker=".", label="exact (enumeration of the row counts)"),
             Line2D([], [], color="0.3", linestyle="--", label="lower bound (analytic.selection.agreement_bound)"),
             Line2D([], [], color="0.3", linestyle=":", label="FRED's default n (Lemma 2, alpha = 0.95)")]
    fig.legend(handles=style, loc="outside lower center", ncols=2)
    fig.suptitle("Selection consistency: the empirical choice (Eq. 4) converges to the exact one (Eq. 2) only "
                 "with positive margins\n"
                 f"p = {data.p}, eps = {data.eps}, max_len = {data.max_len}; seed = {data.seed}")
    return fig
