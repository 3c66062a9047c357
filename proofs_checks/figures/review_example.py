"""The paper's Figure 1 on a real review of ``restaurants.tsv``: minimal subset, saliency strip, counterfactuals.

A ``TfidfVectorizer`` + ``LogisticRegression`` pipeline is trained on the
1000 preprocessed reviews (:func:`fred.evaluation.datasets.load_dataset`), and FRED (mask
sampling, default n) explains its "positive" prediction on one review: (a) the
minimal influential subset (Eq. 4), (b) the per-token importances s_i (Eq. 5)
as a coloured strip, (c) the k = 3 samples with fewest perturbed tokens that the
model classifies "negative". The data file is read in place; when it is missing
:func:`review_example_data` raises :class:`FileNotFoundError` and the CLI skips the figure.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.patches import Patch

from fred import Counterfactual, Explanation, Fred
from fred.evaluation.datasets import load_dataset
from fred.evaluation.models import make_model
from fred_constants import P

from .output import new_figure

#: The figure's name (its files are ``NAME.png`` and ``NAME.svg``).
NAME = "review_example"
#: The claims this figure draws (the claim map and their pages show it): none, it illustrates the paper's
#: Figure 1.
CLAIM_IDS: frozenset[str] = frozenset()
#: Class names of the review classifier.
CLASS_NAMES = ("negative", "positive")
#: Lengths of the reviews considered (the paper's example has 6 tokens).
MIN_TOKENS, MAX_TOKENS = 6, 10
#: Colour of the perturbed tokens in the drawn samples.
PERTURBED_COLOR = "tab:orange"


@dataclass(frozen=True, eq=False)
class ReviewData:
    """FRED's explanation of the chosen review, its k = 3 counterfactuals, and the setting."""

    explanation: Explanation
    counterfactuals: tuple[Counterfactual, ...]
    seed: int
    n_reviews: int

    @property
    def text(self) -> str:
        """The explained review."""
        return " ".join(self.explanation.tokens)


def review_example_data(seed: int = 0, quick: bool = False, p: float = P, eps: float = 0.5,
                        data_path=None) -> ReviewData:
    """Train the pipeline, pick the review, explain it (eps = 0.5 as in the paper's Figure 1; ``quick`` is unused).

    The review is the most confidently positive review of 6-10 tokens labelled
    positive on which FRED (this seed, p, eps) finds a subset and 3 counterfactuals.

    Raises
    ------
    FileNotFoundError
        When ``restaurants.tsv`` is not in the data directory (see :func:`fred.evaluation.datasets.data_dir`).
    """
    data = load_dataset("restaurants", data_path)
    pipeline = make_model("logistic").fit(list(data.texts), data.labels)
    proba = pipeline.predict_proba(list(data.texts))[:, 1]
    pool = [i for i, t in enumerate(data.texts) if MIN_TOKENS <= len(t.split()) <= MAX_TOKENS and data.labels[i] == 1]
    explainer = Fred(pipeline.predict_proba, class_names=CLASS_NAMES, random_state=seed)
    for i in sorted(pool, key=lambda i: (-proba[i], i)):
        exp = explainer.explain(data.texts[i], label=1, p=p, eps=eps)
        if exp.found and len(exp.counterfactuals(k=3)) == 3:
            return ReviewData(exp, exp.counterfactuals(k=3), seed, len(data.texts))
    raise ValueError(f"no review of {MIN_TOKENS}-{MAX_TOKENS} tokens gets a subset and 3 counterfactuals at eps={eps}")


def _token_row(ax, y: float, tokens, colors, bold=(), edge=()) -> None:
    """Draw tokens left to right at height y (axes fraction), each placed 6 points after the previous box."""
    previous = None
    for i, (token, color) in enumerate(zip(tokens, colors)):
        style = {"fontsize": 10, "va": "center", "ha": "left", "fontweight": "bold" if i in bold else "normal",
                 "bbox": {"boxstyle": "round,pad=0.25", "facecolor": color, "edgecolor": "k" if i in edge else "0.85",
                          "linewidth": 1.4 if i in edge else 0.6}}
        if previous is None:
            previous = ax.text(0.01, y, token, transform=ax.transAxes, **style)
        else:
            previous = ax.annotate(token, xy=(1, 0.5), xycoords=previous, xytext=(6, 0), textcoords="offset points",
                                   **style)


def review_example_figure(data: ReviewData):
    """Three stacked panels: (a) the subset sentence, (b) the saliency strip with a colour bar, (c) counterfactuals."""
    exp = data.explanation
    fig = new_figure(9, 5.6, layout=None)
    fig.subplots_adjust(left=0.02, right=0.9, top=0.8, bottom=0.02, hspace=0.5)
    ax_a, ax_b, ax_c = fig.subplots(3, 1, height_ratios=(1, 1.1, 1.6))
    for ax in (ax_a, ax_b, ax_c):
        ax.set_axis_off()
    words = ", ".join(f'"{exp.tokens[i]}"' for i in exp.best_ids)
    verb = "is" if exp.found else "(threshold not reached) best found is"
    ax_a.set_title("(a) minimal influential subset of tokens", loc="left")
    ax_a.text(0.01, 0.5, f'Explaining class "positive": the minimal subset of tokens that make the\nconfidence drop '
                         f"by {100 * exp.eps:.0f}% if perturbed {verb} {{{words}}}\n(drop {exp.drop:.3f} >= "
                         f"threshold {exp.threshold:.3f} = eps x mean prediction {exp.mean_prediction:.3f})",
              transform=ax_a.transAxes, va="center", fontsize=9, family="monospace")

    scores = np.nan_to_num(exp.importances)
    limit = float(np.max(np.abs(scores))) or 1.0
    norm = Normalize(-limit, limit)
    cmap = "RdYlGn"
    mappable = ScalarMappable(norm, cmap)
    ax_b.set_title("(b) per-token importance s_i = drop of {i} (Eq. 5); boxed: the subset of (a)", loc="left")
    _token_row(ax_b, 0.5, exp.tokens, [mappable.to_rgba(s) for s in scores], bold=exp.best_ids, edge=exp.best_ids)
    bar = fig.colorbar(mappable, ax=ax_b, orientation="vertical", fraction=0.03, pad=0.0, aspect=6)
    bar.set_label("s_i (drop in P(positive))", fontsize=7)
    bar.ax.tick_params(labelsize=7)

    ax_c.set_title(f'(c) k={len(data.counterfactuals)} samples with minimal perturbation classified as "negative"',
                   loc="left")
    for row, cf in enumerate(data.counterfactuals):
        y = 0.88 - 0.26 * row
        colors = [PERTURBED_COLOR if i in cf.perturbed_ids else "white" for i in range(len(exp.tokens))]
        _token_row(ax_c, y, cf.text.split(), colors)
        ax_c.text(0.99, y, f"P(positive) = {cf.score:.3f}", transform=ax_c.transAxes, ha="right", va="center",
                  fontsize=8)
    if not data.counterfactuals:
        ax_c.text(0.01, 0.5, "no sample is classified negative", transform=ax_c.transAxes)
    ax_c.legend(handles=[Patch(facecolor=PERTURBED_COLOR, label="perturbed token (masked by FRED)"),
                         Patch(facecolor="white", edgecolor="k", label="token of the subset (a) in (b)")],
                loc="lower left", fontsize=7.5, ncols=2)
    fig.suptitle(f'Paper\'s Figure 1 on restaurants.tsv: TF-IDF + LogisticRegression (trained on {data.n_reviews} '
                 f'reviews)\nexplaining "{data.text}"; P(positive) = {exp.original_prediction:.3f}, mean over the '
                 f"sample {exp.mean_prediction:.3f}\nmask sampling, p = {exp.p}, eps = {exp.eps}, "
                 f"n = {exp.n_samples}, seed = {data.seed}")
    return fig
