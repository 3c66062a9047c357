"""Lemma 2: a candidate of size l is covered (perturbed in some row) with probability 1 - (1 - p^l)^n.

Left: for each l, FRED's mask sampler draws rows of an l-token document until
one perturbs every position; the fraction of simulated designs covered by n
rows is drawn over :func:`analytic.coverage`, with the paper's
n = :func:`fred.sample_size` (alpha = 0.95, l_max = 10, p = 1/2) marked.
Right: the probability that *every* candidate of size <= l_max of a b-token
document is covered at once, exact by inclusion-exclusion
(:func:`analytic.joint_coverage`) and simulated
(:func:`analytic.joint_coverage_monte_carlo`), against the per-candidate curve;
at FRED's n = sample_size(alpha, p, l_max) it is below alpha.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D

from analytic import coverage, joint_coverage, joint_coverage_monte_carlo
from fred import MaskSampler, sample_size
from fred.progress import progress
from fred_constants import ALPHA, MAX_LEN, P

from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "lemma2_coverage"
#: The claims this figure draws (the claim map and their pages show it).
CLAIM_IDS: frozenset[str] = frozenset({"lemma2", "lemma2-joint", "lemma2-any-p"})
#: The candidate sizes of the per-candidate coverage curves.
SIZES = (1, 2, 3, 5, 10)
#: The document length b of the joint coverage panel ...
JOINT_TOKENS = 5
#: ... and its l_max values.
JOINT_MAX_LENS = (1, 2, 3)


@dataclass(frozen=True, eq=False)
class Lemma2Data:
    """First covering row of each simulated design, and the joint-coverage curves."""

    p: float
    sizes: tuple[int, ...]
    first_cover: tuple[np.ndarray, ...]  # per size: 1-based index of the first covering row (inf if none)
    horizon: tuple[int, ...]  # per size: rows drawn per design
    paper_n: int
    joint_b: int
    joint_max_lens: tuple[int, ...]
    joint_ns: np.ndarray
    joint_exact: np.ndarray  # [max_len, n]
    mc_ns: np.ndarray
    joint_mc: np.ndarray  # [max_len, n]
    n_sims: int
    seed: int

    def simulated_coverage(self, k: int, ns: np.ndarray) -> np.ndarray:
        """Fraction of designs of size index k covered within n rows, for each n <= horizon."""
        return (self.first_cover[k][None, :] <= np.asarray(ns)[:, None]).mean(axis=1)


def first_cover_rows(size: int, p: float, horizon: int, n_sims: int, rng: np.random.Generator) -> np.ndarray:
    """For each of ``n_sims`` designs of ``horizon`` rows on ``size`` tokens, the 1-based first fully perturbed row."""
    sampler = MaskSampler()
    out = np.full(n_sims, np.inf)
    for s in range(n_sims):
        full = sampler.draw(size, p, horizon, rng).perturbed.all(axis=1)
        if full.any():
            out[s] = int(np.argmax(full)) + 1
    return out


def lemma2_coverage_data(seed: int = 0, quick: bool = False, p: float = P) -> Lemma2Data:
    """Simulate 2000 designs per size (quick: 200) and the joint coverage for b = 5, l_max in {1, 2, 3}."""
    n_sims = 200 if quick else 2000
    rng = np.random.default_rng(seed)
    horizons = tuple(sample_size(0.999, p, size) for size in SIZES)
    first = tuple(first_cover_rows(size, p, h, n_sims, rng)
                  for size, h in progress(list(zip(SIZES, horizons)), "Lemma 2, one candidate"))
    joint_ns = np.unique(np.round(np.logspace(0, 2.5, 60)).astype(int))
    joint_exact = np.array([[joint_coverage(JOINT_TOKENS, int(n), p, l) for n in joint_ns]
                            for l in JOINT_MAX_LENS])
    mc_ns = np.unique(np.round(np.logspace(0.3, 2.3, 6 if quick else 9)).astype(int))
    joint_mc = np.array([[joint_coverage_monte_carlo(JOINT_TOKENS, int(n), p, l, n_sims=n_sims, rng=rng) for n in mc_ns]
                         for l in progress(JOINT_MAX_LENS, "Lemma 2, all candidates")])
    return Lemma2Data(p, SIZES, first, horizons, sample_size(ALPHA, p, MAX_LEN), JOINT_TOKENS, JOINT_MAX_LENS,
                      joint_ns, joint_exact, mc_ns, joint_mc, n_sims, seed)


def lemma2_coverage_figure(data: Lemma2Data):
    """Left: per-candidate coverage vs n (simulated points, closed-form curves); right: joint coverage."""
    fig = new_figure(11, 4.8)
    left, right = fig.subplots(1, 2)
    colors = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple")
    for k, (size, color) in enumerate(zip(data.sizes, colors)):
        ns = np.unique(np.round(np.logspace(0, np.log10(data.horizon[k]), 200)).astype(int))
        left.plot(ns, coverage(ns, data.p, size), color=color, linewidth=1.2)
        grid = np.unique(np.round(np.logspace(0, np.log10(data.horizon[k]), 12)).astype(int))
        left.plot(grid, data.simulated_coverage(k, grid), "o", color=color, markersize=4,
                  label=f"l = {size} (simulated)")
    left.axvline(data.paper_n, color="k", linestyle=":", linewidth=1)
    left.axhline(ALPHA, color="0.4", linestyle="--", linewidth=0.8)
    left.annotate(f"paper's n = {data.paper_n}\n(alpha={ALPHA}, l_max={MAX_LEN})", (data.paper_n, 0.5),
                  xytext=(-8, 0), textcoords="offset points", ha="right", fontsize=8)
    left.set_xscale("log")
    left.set_xlabel("number of samples n (rows)")
    left.set_ylabel("P(candidate perturbed in at least one row)")
    left.set_title(f"one candidate of size l ({data.n_sims} simulated designs per l)")
    handles, _ = left.get_legend_handles_labels()
    left.legend(handles=handles + [Line2D([], [], color="0.3", label="$1-(1-p^l)^n$ (Lemma 2)"),
                                   Line2D([], [], color="0.4", linestyle="--", label=f"alpha = {ALPHA}")],
                loc="lower right", fontsize=7.5)

    for k, (max_len, color) in enumerate(zip(data.joint_max_lens, colors)):
        right.plot(data.joint_ns, data.joint_exact[k], color=color, linewidth=1.3,
                   label=f"l_max = {max_len}: all C({data.joint_b},{max_len}) candidates, exact")
        right.plot(data.joint_ns, coverage(data.joint_ns, data.p, max_len), color=color, linestyle="--", linewidth=1)
        right.plot(data.mc_ns, data.joint_mc[k], "s", color=color, markersize=4, fillstyle="none")
        n_fred = sample_size(ALPHA, data.p, max_len)
        joint_at = joint_coverage(data.joint_b, n_fred, data.p, max_len)
        right.plot([n_fred], [joint_at], "*", color=color, markersize=11, markeredgecolor="k")
        right.annotate(f"n={n_fred}: {joint_at:.3f}", (n_fred, joint_at), xytext=(-8, 6), textcoords="offset points",
                       fontsize=7.5, color=color, ha="right", zorder=10,
                       bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
    right.axhline(ALPHA, color="0.4", linestyle="--", linewidth=0.8)
    right.set_xscale("log")
    right.set_xlabel("number of samples n (rows)")
    right.set_ylabel("P(every candidate of size <= l_max covered)")
    right.set_title(f"all candidates at once, b = {data.joint_b} tokens")
    handles, _ = right.get_legend_handles_labels()
    right.legend(handles=handles + [
        Line2D([], [], color="0.3", linestyle="--", label="one candidate of size l_max (Lemma 2)"),
        Line2D([], [], color="0.3", marker="s", fillstyle="none", linestyle="none",
               label=f"Monte Carlo ({data.n_sims} designs)"),
        Line2D([], [], color="0.3", marker="*", markersize=10, linestyle="none",
               label=f"FRED's n = sample_size({ALPHA}, p, l_max)")], loc="lower right", fontsize=7.5)
    fig.suptitle(f"Lemma 2: coverage of candidates by n mask samples; p = {data.p}, alpha = {ALPHA}, eps not used, "
                 f"n = 1..{max(data.horizon)}, seed = {data.seed}\n"
                 "per candidate the lemma holds; all candidates at once are covered with probability below alpha at "
                 "FRED's n")
    return fig
