"""Lemma 1: the empirical drop of Eq. (3) converges to E[f] - E[f 1{c perturbed}] / p^|c|, at rate 1/sqrt(n p^|c|).

The black box is a fitted model of :mod:`proofs_checks.models.family` (``logistic-raw``,
``predict_proba`` of the explained class), tabulated on all 2^b mask patterns so
that it can be queried by pattern code. For each p, each candidate c (the exact
best candidate of size 1, 2, 3), each n and each repetition, FRED's mask
sampler draws the n rows and FRED's :func:`fred.drops.extension_drops` returns
the empirical drop; the error is compared with the exact limit
:func:`analytic.lemma1_limit`. The delta method gives
sqrt(n) (hat Delta - Delta) -> N(0, sigma_c^2) with sigma_c^2 =
:func:`analytic.drop_asymptotic_variance` ~ 1/p^|c|, so the median absolute error
is about Phi^{-1}(3/4) sigma_c / sqrt(n) = 0.674 sigma_c / sqrt(n): a line of slope -1/2 on log-log axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from scipy.stats import norm

from analytic import best_drop_of_size, drop_asymptotic_variance, empirical_drop, lemma1_limit, table_from_classifier
from fred import MaskSampler
from fred.progress import progress

from ..models.family import Case, cases
from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "lemma1_convergence"
#: The claims this figure draws (the claim map and their pages show it).
CLAIM_IDS: frozenset[str] = frozenset({"lemma1"})
#: The perturbation probabilities drawn.
PS = (0.1, 0.5)
#: The candidate sizes drawn.
SIZES = (1, 2, 3)
#: Points where more than this fraction of repetitions have n_c = 0 (drop undefined) are not drawn.
MAX_UNDEFINED = 0.05
_HALF_NORMAL_MEDIAN = float(norm.ppf(0.75))


@dataclass(frozen=True, eq=False)
class Lemma1Data:
    """Errors |hat Delta_c - Delta_c| indexed [p, size, n, repetition] (NaN where n_c = 0)."""

    case: Case
    ps: tuple[float, ...]
    sizes: tuple[int, ...]
    candidates: tuple[tuple[tuple[int, ...], ...], ...]  # [p][size]
    ns: np.ndarray
    errors: np.ndarray
    limits: np.ndarray  # [p, size] exact limit Delta_c
    sigmas: np.ndarray  # [p, size] delta-method standard deviation sigma_c
    seed: int
    repetitions: int


def black_box_case() -> Case:
    """The family case used as black box: the ``logistic-raw`` document with most distinct words (first among ties)."""
    family = cases("logistic-raw")
    return max(family, key=lambda c: (len(set(c.tokens)), len(c.tokens), -family.index(c)))


def sample_seed(seed: int, p_index: int, n: int, repetition: int) -> np.random.SeedSequence:
    """Seed of one (p, n, repetition) design; ``Fred(random_state=...)`` given it draws the same rows."""
    return np.random.SeedSequence([seed, p_index, n, repetition])


def lemma1_convergence_data(seed: int = 0, quick: bool = False) -> Lemma1Data:
    """Run the simulation: 13 values of n in [10, 1e5] and 100 repetitions (quick: 5 in [10, 1e3], 20)."""
    ns = np.unique(np.round(np.logspace(1, 3, 5) if quick else np.logspace(1, 5, 13)).astype(int))
    repetitions = 20 if quick else 100
    case = black_box_case()
    table = table_from_classifier(case.classifier_fn(), case.tokens)
    b = len(case.tokens)
    sampler = MaskSampler()
    errors = np.full((len(PS), len(SIZES), len(ns), repetitions), np.nan)
    limits = np.empty((len(PS), len(SIZES)))
    sigmas = np.empty((len(PS), len(SIZES)))
    candidates = []
    for i, p in enumerate(PS):
        chosen = tuple(best_drop_of_size(table, p, size)[1][0] for size in SIZES)
        candidates.append(chosen)
        for k, c in enumerate(chosen):
            limits[i, k] = lemma1_limit(table, c, p)
            sigmas[i, k] = np.sqrt(drop_asymptotic_variance(table, c, p))
        for j, n in enumerate(progress(ns, f"Lemma 1, p={p}")):
            for r in range(repetitions):
                rows = sampler.draw(b, p, int(n), np.random.default_rng(sample_seed(seed, i, int(n), r))).perturbed
                f = table[rows @ (1 << np.arange(b))]
                for k, c in enumerate(chosen):
                    drop, _ = empirical_drop(f, rows, c)
                    errors[i, k, j, r] = np.nan if drop is None else abs(drop - limits[i, k])
    return Lemma1Data(case, PS, SIZES, tuple(candidates), ns, errors, limits, sigmas, seed, repetitions)


def lemma1_convergence_figure(data: Lemma1Data):
    """Median and 5-95% band of the error against n, per p (panels) and |c| (colours), with 0.674 sigma_c / sqrt(n)."""
    fig = new_figure(10, 5.2)
    axes = fig.subplots(1, len(data.ps), sharey=True)
    colors = ("tab:blue", "tab:orange", "tab:green")
    ns = data.ns.astype(float)
    for i, (ax, p) in enumerate(zip(axes, data.ps)):
        for k, size in enumerate(data.sizes):
            err = data.errors[i, k]
            ok = np.isnan(err).mean(axis=1) <= MAX_UNDEFINED
            lo, med, hi = (np.nanpercentile(err[ok], q, axis=1) for q in (5, 50, 95))
            words = " ".join(data.case.tokens[t] for t in data.candidates[i][k])
            ax.fill_between(ns[ok], lo, hi, color=colors[k], alpha=0.15, linewidth=0)
            ax.plot(ns[ok], med, "o-", color=colors[k], markersize=3.5,
                    label=f"|c|={size} ({words}): $\\sigma_c$={data.sigmas[i, k]:.2g}")
            ax.plot(ns, _HALF_NORMAL_MEDIAN * data.sigmas[i, k] / np.sqrt(ns), "--", color=colors[k], linewidth=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("number of samples n (rows)")
        ax.set_title(f"p = {p}")
        ax.legend(loc="lower left", title="candidate c (exact best of its size)", title_fontsize=7.5, fontsize=7.5)
    axes[0].set_ylabel("|empirical drop - exact limit| (probability units)")
    style = [Line2D([], [], color="0.3", marker="o", markersize=3.5, label="median over repetitions"),
             Patch(color="0.3", alpha=0.15, label="5-95% band"),
             Line2D([], [], color="0.3", linestyle="--",
                    label=r"delta method: $0.674\,\sigma_c/\sqrt{n}$ (slope $-1/2$)")]
    fig.legend(handles=style, loc="outside lower center", ncols=3)
    doc = " ".join(data.case.tokens)
    fig.suptitle("Lemma 1: FRED's empirical drop (Eq. 3) converges to the exact limit at rate "
                 "$1/\\sqrt{n\\,p^{|c|}}$\n"
                 f"black box: {data.case.kind} model (corpus seed {data.case.seed}) on \"{doc}\" "
                 f"(b={len(data.case.tokens)})\n"
                 f"p in {{{', '.join(map(str, data.ps))}}}; eps not used; n = {int(ns[0])}..{int(ns[-1])}; "
                 f"{data.repetitions} repetitions; seed={data.seed}\n"
                 f"points where n_c = 0 in more than {MAX_UNDEFINED:.0%} of the repetitions are omitted")
    return fig
