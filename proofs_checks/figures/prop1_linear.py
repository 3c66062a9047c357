"""Proposition 1 (the paper's Figure 3): on a TF-IDF linear model FRED adds words by decreasing lambda_j v_j.

The model is a fitted ``TfidfVectorizer(norm=None)`` + ``Ridge`` of
:mod:`proofs_checks.models.family` (Eq. 6 exactly), the document a review over its
vocabulary with repeated words. For each size l the exact drop of every
candidate is enumerated over all 2^b mask patterns (:func:`analytic.all_drops`);
the largest equals the closed form (1 - p) * (sum of the l largest a_i)
(:func:`analytic.linear_best_drops`), checked here. The threshold is
eps * E[f]; the exact answer of Algorithm 1 (:func:`analytic.exact_explain`)
is highlighted, and FRED's Monte Carlo drops (Eq. 3, FRED's own drop code on
the rows FRED drew) of the best candidate of each size are drawn as points.
"""

from __future__ import annotations

import itertools
import textwrap
from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D

from analytic import LinearTfidfModel, all_drops, exact_explain, linear_best_drops, table_from_classifier
from fred import Fred
from fred.drops import extension_drops
from fred_constants import MAX_LEN, P

from ..models.family import Case, cases
from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "prop1_linear"
#: The claims this figure draws (the claim map and their pages show it).
CLAIM_IDS: frozenset[str] = frozenset({"prop1-linear"})
#: A review over the family vocabulary: three positive words (two repeated), food (weakly positive), three negative.
DOCUMENT = "tasty nice nice great good good food slow cold awful"
#: Seed of the family corpus the model is fitted on.
CORPUS_SEED = 1
#: Closed form and enumeration of the best drop must agree to this absolute tolerance (float rounding only).
CLOSED_FORM_ATOL = 1e-9


@dataclass(frozen=True, eq=False)
class Prop1Data:
    """Exact drops of every candidate, per-size bests, FRED's Monte Carlo drops, and the choices."""

    case: Case
    tokens: tuple[str, ...]
    a: np.ndarray  # position weights a_i = lambda^T phi(token_i)
    p: float
    eps: float
    max_len: int
    sizes: np.ndarray  # size of each non-empty candidate code
    exact: np.ndarray  # exact drop of each non-empty candidate code
    best_exact: np.ndarray  # [l - 1] closed-form best drop of size l
    best_ids: tuple[tuple[int, ...], ...]  # exact best candidate of each size
    threshold: float
    chosen: tuple[int, ...]
    empirical_best: np.ndarray  # [l - 1] largest Monte Carlo drop among candidates of size l
    fred_ids: tuple[int, ...]
    fred_drop: float
    fred_threshold: float
    n_samples: int
    seed: int


def model_case() -> Case:
    """The ``ridge-raw`` pipeline fitted on the family corpus of seed :data:`CORPUS_SEED` (any of its documents)."""
    return next(c for c in cases("ridge-raw") if c.seed == CORPUS_SEED)


def best_sample_drops(table: np.ndarray, perturbed: np.ndarray) -> np.ndarray:
    """Largest Eq. (3) drop among candidates of each size 1..b, by FRED's :func:`fred.drops.extension_drops`.

    The rows are FRED's; f on them is read from the table of the (deterministic) model.
    Candidates with n_c = 0 are skipped (NaN when a size has none).
    """
    n, b = perturbed.shape
    f = table[perturbed @ (1 << np.arange(b))]
    weights = np.full(n, 1.0 / n)
    best = np.full(b, np.nan)
    for size in range(1, b + 1):
        subsets = list(itertools.combinations(range(b), size - 1))
        prefixes = np.array(subsets, dtype=np.intp).reshape(len(subsets), size - 1)
        drops, defined = extension_drops(perturbed, weights, f.mean() - f, prefixes)
        fresh = np.ones_like(defined)
        np.put_along_axis(fresh, prefixes, False, axis=1)  # entries j in S hold the drop of S (size - 1)
        if (defined & fresh).any():
            best[size - 1] = drops[defined & fresh].max()
    return best


def prop1_linear_data(seed: int = 0, quick: bool = False, p: float = P, eps: float = 0.5,
                      max_len: int = MAX_LEN) -> Prop1Data:
    """Exact and Monte Carlo drops on :data:`DOCUMENT` (``quick`` changes nothing: it is already fast)."""
    case = model_case()
    tokens = tuple(DOCUMENT.split())
    b = len(tokens)
    classify = case.classifier_fn()
    a = LinearTfidfModel.from_pipeline(case.vectorizer, case.model).position_weights(tokens)
    table = table_from_classifier(classify, tokens)
    codes = np.arange(1, 2**b)
    sizes = np.array([bin(c).count("1") for c in codes])
    exact = all_drops(table, p)[codes]
    best_exact = linear_best_drops(a, np.ones(b, int), p, b)
    enumerated = np.array([exact[sizes == l].max() for l in range(1, b + 1)])
    if not np.allclose(enumerated, best_exact, rtol=0, atol=CLOSED_FORM_ATOL):
        raise AssertionError(f"closed form {best_exact} != enumeration {enumerated} (p={p}, document {DOCUMENT!r})")
    best_ids = tuple(tuple(int(i) for i in range(b) if codes[sizes == l][np.argmax(exact[sizes == l])] >> i & 1)
                     for l in range(1, b + 1))
    chosen = exact_explain(table, p, eps, max_len)
    exp = Fred(classify, random_state=seed).explain(DOCUMENT, p=p, eps=eps, max_len=max_len)
    empirical_best = best_sample_drops(table, exp.sample_perturbed)
    return Prop1Data(case, tokens, a, p, eps, max_len, sizes, exact, best_exact, best_ids, chosen.threshold,
                     chosen.best_ids, empirical_best, exp.best_ids, float(exp.drop), exp.threshold, exp.n_samples, seed)


def prop1_linear_figure(data: Prop1Data):
    """Drops of all candidates by size, the best per size, the threshold, the exact choice and FRED's drops."""
    fig = new_figure(9.5, 5.6)
    ax = fig.subplots()
    b = len(data.tokens)
    sizes = np.arange(1, b + 1)
    jitter = (np.arange(len(data.sizes)) * 0.6180339887 % 1 - 0.5) * 0.35  # deterministic spread of the grey dots
    ax.plot(data.sizes + jitter, data.exact, ".", color="0.75", markersize=3, zorder=1)
    ax.plot(sizes, data.best_exact, "o-", color="k", markersize=5, zorder=3)
    ax.plot(sizes, data.empirical_best, "x", color="tab:blue", markersize=8, markeredgewidth=1.6, zorder=4)
    ax.axhline(data.threshold, color="tab:red", linewidth=1.6, zorder=2)
    l_star = len(data.chosen)
    ax.plot([l_star], [data.best_exact[l_star - 1]], "*", color="tab:red", markersize=18, markeredgecolor="k",
            zorder=5)
    ax.plot([len(data.fred_ids)], [data.fred_drop], "D", color="none", markeredgecolor="tab:blue", markersize=12,
            markeredgewidth=1.5, zorder=5)
    previous: set[int] = set()
    for l, ids in zip(sizes, data.best_ids):
        added = set(ids) - previous
        label = "+" + " ".join(data.tokens[i] for i in sorted(added)) if previous <= set(ids) else \
            " ".join(data.tokens[i] for i in ids)
        previous = set(ids)
        ax.annotate(label, (l, data.best_exact[l - 1]), xytext=(-4, 8), textcoords="offset points", fontsize=8,
                    ha="right", color="tab:red" if l == l_star else "k")
    ax.set_xticks(sizes)
    ax.set_xlim(0.4, b + 1.2)
    ax.set_xlabel("candidate size |c| (tokens)")
    ax.set_ylabel("drop in prediction (Ridge output units)")
    order = " > ".join(f"{w}({v:.2f})" for w, v in sorted({t: float(x) for t, x in zip(data.tokens, data.a)}.items(),
                                                            key=lambda kv: -kv[1]))
    legend = [
        Line2D([], [], color="0.75", marker=".", linestyle="none",
               label="exact drop of every candidate (2^b patterns)"),
        Line2D([], [], color="k", marker="o", label="best exact drop of size l = (1-p) * (sum of the l largest a_i);"
               " +word: the word it adds"),
        Line2D([], [], color="tab:red", linewidth=1.6, label=f"threshold eps * E[f] = {data.threshold:.3f}"),
        Line2D([], [], color="tab:red", marker="*", markersize=14, markeredgecolor="k", linestyle="none",
               label=f"exact minimal candidate (Eq. 2): size {l_star}"),
        Line2D([], [], color="tab:blue", marker="x", markeredgewidth=1.6, linestyle="none",
               label=f"FRED Monte Carlo (n={data.n_samples}): best drop of each size (Eq. 3)"),
        Line2D([], [], color="none", marker="D", markeredgecolor="tab:blue", markersize=9, linestyle="none",
               label=f"FRED's answer: {' '.join(data.tokens[i] for i in data.fred_ids)} "
                     f"(drop {data.fred_drop:.3f} >= {data.fred_threshold:.3f})"),
    ]
    ax.legend(handles=legend, loc="lower right", fontsize=7.5)
    fig.suptitle(f"Proposition 1 (paper's Figure 3): TF-IDF(norm=None) + Ridge (family corpus seed {data.case.seed})\n"
                 f"document \"{' '.join(data.tokens)}\"\n"
                 f"p = {data.p}, eps = {data.eps}, max_len = {data.max_len}, n = {data.n_samples} "
                 f"(Monte Carlo), seed = {data.seed}\n"
                 + textwrap.fill(f"FRED adds words by decreasing a_i = lambda_j v_j: {order}", 95))
    return fig
