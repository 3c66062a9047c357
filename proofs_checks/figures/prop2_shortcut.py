"""Proposition 2 (shortcuts): what FRED returns on f(z) = prod_{j in J} 1{w_j in z}, and where the claim fails.

Prop. 2 claims the optimal candidate removes all m_1 occurrences of the rarest
shortcut word. Removing k < m_1 of them already drops E[f] =
prod_j (1 - p^{m_j}) to (1 - p^{m_1 - k}) prod_{j >= 2} (1 - p^{m_j})
(:func:`analytic.shortcut_drop`), which can pass the threshold eps * E[f]: the
true minimal size is l* = :func:`analytic.shortcut_minimal_size` <= m_1, equal
to m_1 only for eps > 1 - (1 - p) / (1 - p^{m_1}) (:func:`analytic.shortcut_claim_eps`).
Left: the drop against the number of removed occurrences of each shortcut word
(closed form, with the exact enumeration over all 2^b patterns as markers),
the threshold at the chosen eps and what FRED returns (exact sampler and Monte
Carlo). Right: l* and FRED's size against eps, with the claimed m_1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analytic import (
    ShortcutModel,
    all_drops,
    code_of,
    shortcut_claim_eps,
    shortcut_drop,
    shortcut_expected_prediction,
    shortcut_minimal_size,
    table_from_classifier,
)
from fred import Fred
from fred_constants import EPS, MAX_LEN, P

from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "prop2_shortcut"
#: The claims this figure draws (the claim map and their pages show it).
CLAIM_IDS: frozenset[str] = frozenset({"prop2-shortcut"})
#: The shortcut words ("good" 3 times, "fresh" 4 times) and two words the model ignores.
DOCUMENT = "good food fresh good service fresh fresh good fresh"
#: The model's words J: f = 1 when all are present.
SHORTCUTS = ("good", "fresh")


@dataclass(frozen=True, eq=False)
class Prop2Data:
    """Drops per removed occurrences, minimal sizes against eps, and FRED's answers."""

    tokens: tuple[str, ...]
    words: tuple[str, ...]
    m: tuple[int, ...]
    p: float
    eps: float
    max_len: int
    closed: tuple[np.ndarray, ...]  # per word: drop after removing k = 0..m_j of its occurrences
    enumerated: tuple[np.ndarray, ...]  # the same drops by exact enumeration (first k occurrences)
    mean_prediction: float
    l_star: int
    claim_eps: float
    exact_ids: tuple[int, ...]
    mc_ids: tuple[int, ...]
    mc_drop: float
    n_samples: int
    eps_grid: np.ndarray
    fred_size_grid: np.ndarray  # |best| of Fred(sampler="exact") at each eps
    seed: int


def prop2_shortcut_data(seed: int = 0, quick: bool = False, p: float = P, eps: float = EPS,
                        max_len: int = MAX_LEN) -> Prop2Data:
    """Closed forms, enumeration and FRED on :data:`DOCUMENT` (eps grid of 40 values, quick: 12)."""
    tokens = tuple(DOCUMENT.split())
    model = ShortcutModel(SHORTCUTS)
    m = tuple(tokens.count(w) for w in SHORTCUTS)
    table = table_from_classifier(model, tokens)
    drops = all_drops(table, p)
    closed, enumerated = [], []
    for j, word in enumerate(SHORTCUTS):
        where = [i for i, t in enumerate(tokens) if t == word]
        unit = np.eye(len(m), dtype=int)[j]
        closed.append(np.array([shortcut_drop(m, k * unit, p) for k in range(m[j] + 1)]))
        enumerated.append(np.array([0.0] + [drops[code_of(where[:k])] for k in range(1, m[j] + 1)]))
    exact = Fred(model.predict_proba, sampler="exact")
    chosen = exact.explain(DOCUMENT, label=1, p=p, eps=eps, max_len=max_len)
    mc = Fred(model.predict_proba, random_state=seed).explain(DOCUMENT, label=1, p=p, eps=eps, max_len=max_len)
    eps_grid = np.round(np.linspace(0.025, 1.0, 12 if quick else 40), 4)
    fred_size_grid = np.array([len(exact.explain(DOCUMENT, label=1, p=p, eps=float(e), max_len=max_len).best_ids)
                               for e in eps_grid])
    return Prop2Data(tokens, SHORTCUTS, m, p, eps, max_len, tuple(closed), tuple(enumerated),
                     shortcut_expected_prediction(m, p), shortcut_minimal_size(m, p, eps, max_len),
                     shortcut_claim_eps(min(m), p), chosen.best_ids, mc.best_ids, float(mc.drop), mc.n_samples,
                     eps_grid, fred_size_grid, seed)


def _counts(data: Prop2Data, ids: tuple[int, ...]) -> str:
    return ", ".join(f"{sum(data.tokens[i] == w for i in ids)} x {w}" for w in data.words)


def prop2_shortcut_figure(data: Prop2Data):
    """Left: drop vs removed occurrences with the threshold; right: minimal size vs eps."""
    fig = new_figure(11, 4.9)
    left, right = fig.subplots(1, 2, width_ratios=(1.15, 1))
    colors = ("tab:blue", "tab:orange")
    for j, (word, color) in enumerate(zip(data.words, colors)):
        k = np.arange(data.m[j] + 1)
        left.plot(k, data.closed[j], "-", color=color, linewidth=1.5,
                  label=f"remove k of the m={data.m[j]} \"{word}\": closed form")
        left.plot(k, data.enumerated[j], "o", color=color, fillstyle="none", markersize=9,
                  label=f"\"{word}\": exact enumeration (2^{len(data.tokens)} patterns)")
    threshold = data.eps * data.mean_prediction
    left.axhline(threshold, color="tab:red", linewidth=1.4, label=f"threshold eps * E[f] = {threshold:.3f}")
    left.axhline(data.mean_prediction, color="0.5", linestyle=":", linewidth=1,
                 label=f"E[f] = {data.mean_prediction:.3f}")
    m1 = min(data.m)
    rarest = data.closed[int(np.argmin(data.m))]
    left.plot([data.l_star], [rarest[data.l_star]], "*", color="tab:red", markersize=17, markeredgecolor="k",
              label=f"true minimal size l* = {data.l_star}; FRED (exact) returns {_counts(data, data.exact_ids)}")
    left.plot([m1], [rarest[m1]], "s", color="none", markeredgecolor="k", markersize=13, markeredgewidth=1.4,
              label=f"Prop. 2's claim: c*_1 = m_1 = {m1}")
    left.plot([], [], " ", label=f"FRED Monte Carlo (n={data.n_samples}): {_counts(data, data.mc_ids)}, "
                                 f"drop {data.mc_drop:.3f}")
    left.set_xticks(np.arange(max(data.m) + 1))
    left.set_xlabel("number k of removed occurrences of one shortcut word (tokens)")
    left.set_ylabel("drop in P(class 1) (probability units)")
    left.set_title(f"drop of removing k occurrences, eps = {data.eps}")
    left.legend(loc="upper left", fontsize=7)
    left.set_ylim(-0.03, 1.75 * data.mean_prediction)

    fine = np.linspace(data.eps_grid[0], 1.0, 2000)
    right.plot(fine, [shortcut_minimal_size(data.m, data.p, e) for e in fine], color="tab:red", linewidth=1.5,
               label="true minimal size l* (closed form)")
    right.plot(data.eps_grid, data.fred_size_grid, "o", color="k", markersize=4, fillstyle="none",
               label="|candidate| FRED (exact sampler) returns")
    right.axhline(min(m1, data.max_len), color="tab:blue", linestyle="--", linewidth=1.2,
                  label=f"Prop. 2's claim min(m_1, l_max) = {min(m1, data.max_len)}")
    right.axvline(data.claim_eps, color="0.4", linestyle=":", linewidth=1,
                  label=f"claim holds iff eps > 1-(1-p)/(1-p^m_1) = {data.claim_eps:.3f}")
    right.axvline(data.eps, color="tab:red", linestyle=":", linewidth=1, label=f"eps = {data.eps} (left panel)")
    right.set_yticks(np.arange(1, m1 + 1))
    right.set_xlabel("eps (fraction of E[f] the drop must reach)")
    right.set_ylabel("size of the optimal candidate (tokens)")
    right.set_title("minimal size against eps")
    right.legend(loc="lower right", fontsize=7)
    fig.suptitle(f"Proposition 2: shortcut model f = 1{{\"good\" and \"fresh\" in z}} on \"{' '.join(data.tokens)}\"\n"
                 f"p = {data.p}, eps = {data.eps}, max_len = {data.max_len}, n = {data.n_samples} (Monte Carlo), "
                 f"seed = {data.seed}\nFRED stops before removing every occurrence of the rarest word when "
                 f"eps <= {data.claim_eps:.3f}: Prop. 2 is false there")
    return fig
