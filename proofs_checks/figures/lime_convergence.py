"""LIME on a TF-IDF linear model: the package's coefficients against n, converging to the exact limit and the
closed form.

The lime package is run as the evaluation runs it (:mod:`proofs_checks.cases.lime_runs`) on the document of
:data:`proofs_checks.paper.baselines.DOCUMENT` (b = 7), at each n of a log-spaced ladder and over many seeds, on
two models fitted on the inline corpus: Definition 1's ``TfidfVectorizer(norm=None)`` + logistic regression
(additive: the closed form is exact and its limit is each position's own contribution a_i) and the evaluation's
L2-normalised ``TfidfVectorizer()`` (the closed form is Mardaoui and Garreau's approximation). Per position: the
package's mean and 5-95% band over seeds, the deterministic equivalent beta*_n (the value at n without sampling
noise: the O(1/n) ridge bias of LIME's Ridge(alpha=1) and its original row) by enumeration, and the limits: the
exact one (enumeration over LIME's sampling law) and the closed form's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..cases.lime_runs import MODELS, LimeConvergence, exact_side, lime_convergence
from ..paper.baselines import DOCUMENT, package_versions
from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "lime_convergence"
#: The claims this figure draws (the claim map and their pages show it).
CLAIM_IDS: frozenset[str] = frozenset({"baseline-lime"})
#: n of the package's runs, and of the deterministic-equivalent curve (denser: it costs no sampling).
NS = (20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
#: ... and the package's n with quick parameters.
QUICK_NS = (20, 100, 500)
#: Seeds of the package's runs at each n (the band over them is drawn) ...
REPEATS = 20
#: ... and with quick parameters.
QUICK_REPEATS = 4
#: Points of the deterministic-equivalent curve.
CURVE_POINTS = 60
#: Panel titles, by model.
TITLES = {"definition-1": "Definition 1's model: TfidfVectorizer(norm=None) + logistic\nclosed form exact (= a_i)",
          "l2": "the evaluation's model: TfidfVectorizer() (L2 norm) + logistic\nclosed form = Mardaoui-Garreau's "
                "approximation"}


@dataclass(frozen=True, eq=False)
class LimeFigureData:
    """The package's runs on each model (:class:`proofs_checks.cases.lime_runs.LimeConvergence`), and the deterministic
    equivalent ``curve_values[model][point, position]`` at ``curve_ns``."""

    runs: tuple[LimeConvergence, ...]
    curve_ns: np.ndarray
    curve_values: tuple[np.ndarray, ...]
    seed: int
    lime_version: str | None


def lime_convergence_data(seed: int = 0, quick: bool = False) -> LimeFigureData:
    """Run the package at each n of :data:`NS` (quick: :data:`QUICK_NS`) with :data:`REPEATS` seeds (quick: 4)."""
    ns, repeats = (QUICK_NS, QUICK_REPEATS) if quick else (NS, REPEATS)
    curve_ns = np.unique(np.round(np.logspace(np.log10(ns[0]), np.log10(ns[-1]), CURVE_POINTS)).astype(int))
    runs = tuple(lime_convergence(model, DOCUMENT, ns, repeats, seed=seed) for model in MODELS)
    curves = tuple(exact_side(model, DOCUMENT, curve_ns)[3] for model in MODELS)
    return LimeFigureData(runs, curve_ns, curves, seed, package_versions()["lime"])


def lime_convergence_figure(data: LimeFigureData):
    """One panel per model: per position, the package's mean (dots) and 5-95% band against n, beta*_n (dashed),
    the exact limit (solid, right) and the closed form's limit (crosses at the right edge)."""
    fig = new_figure(11, 5.6)
    axes = fig.subplots(1, len(data.runs))
    colors = [f"C{i}" for i in range(len(data.runs[0].tokens))]
    for ax, runs, curve in zip(axes, data.runs, data.curve_values):
        ns = np.asarray(runs.ns, dtype=float)
        right = data.curve_ns[-1] * 1.6
        for i, token in enumerate(runs.tokens):
            lo, hi = np.percentile(runs.coef[:, :, i], [5, 95], axis=1)
            ax.fill_between(ns, lo, hi, color=colors[i], alpha=0.15, linewidth=0)
            ax.plot(ns, runs.coef[:, :, i].mean(axis=1), "o", color=colors[i], markersize=3.5, label=token)
            ax.plot(data.curve_ns, curve[:, i], "--", color=colors[i], linewidth=1)
            ax.plot([data.curve_ns[0], right], [runs.limit[i]] * 2, "-", color=colors[i], linewidth=0.6, alpha=0.6)
            ax.plot([right], [runs.closed_limit[i]], "x", color=colors[i], markersize=6)
        ax.set_xscale("log")
        ax.set_xlabel("LIME's num_samples n")
        gap = float(np.abs(runs.limit - runs.closed_limit).max())
        ax.set_title(f"{TITLES[runs.model]}\nmax |closed form's limit - exact limit| = {gap:.1e}", fontsize=8.5)
        ax.legend(loc="best", fontsize=7, title="position (token)", title_fontsize=7, ncols=2)
    axes[0].set_ylabel("LIME coefficient of the position (class 1, decision function)")
    style = [Line2D([], [], color="0.3", marker="o", linestyle="", markersize=3.5,
                    label="lime package: mean over seeds"),
             Patch(color="0.3", alpha=0.15, label="5-95% over seeds"),
             Line2D([], [], color="0.3", linestyle="--", label="deterministic equivalent at n (enumeration)"),
             Line2D([], [], color="0.3", linestyle="-", linewidth=0.6, label="exact limit (enumeration)"),
             Line2D([], [], color="0.3", marker="x", linestyle="", label="closed form's limit")]
    fig.legend(handles=style, loc="outside lower center", ncols=3, fontsize=8)
    first = data.runs[0]
    fig.suptitle("LIME converges to its exact limit as n grows (lime "
                 f"{data.lime_version}, LimeTextExplainer(bow=False), kernel width 25, Ridge(alpha=1))\n"
                 f"document \"{first.text}\" (b={len(first.tokens)}); n = {first.ns[0]}..{first.ns[-1]}; "
                 f"{first.seeds.shape[1]} seeds per n; seed={data.seed}")
    return fig
