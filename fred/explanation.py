"""Result objects: :class:`Explanation` and :class:`Counterfactual`."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np

from .validation import check_int
from .fastpath import FastPathStatus
from .sampling import render_masked


@dataclass(frozen=True)
class Counterfactual:
    """A perturbed sample whose predicted class differs from the explained one (Figure 1 (c))."""

    text: str
    perturbed_ids: tuple[int, ...]
    predicted_label: int
    predicted_class: str | None
    score: float  # the model's score for the explained label on this sample

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {
            "text": self.text,
            "perturbed_ids": list(self.perturbed_ids),
            "predicted_label": self.predicted_label,
            "predicted_class": self.predicted_class,
            "score": self.score,
        }


def _number(x: float | None):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


@dataclass(frozen=True, eq=False)
class Explanation:
    """What FRED returns for one document.

    Attributes
    ----------
    tokens : the whitespace tokens of the text (the positions FRED perturbs).
    label : the explained column of the classifier output, None for a regression output.
    best_ids, best : the selected candidate, as sorted positions and as tokens.
    drop : its drop (Eq. 3, or Eq. 1 with the exact sampler); None only when no
        candidate is defined (no row perturbs any position).
    threshold : ``eps * mean_prediction`` (baseline "mean") or ``eps * original_prediction``
        (baseline "original").
    found : whether ``drop >= threshold``.
    importances : per-position score s_i = drop of {i} (Eq. 5). NaN marks a
        position that no sample perturbs, whose drop is undefined.
    n_samples : number of rows (2**b for the exact sampler).
    fast_path : whether this call scored its samples through the bag-of-words fast
        path, and why (not) (see :class:`fred.Fred`).
    sampler_stats : what the sampler reports on this call's rows (from ``sampler.render_with_stats``,
        e.g. :class:`fred.pos.PosStats`), None for samplers without it or when no text was rendered.
    """

    tokens: tuple[str, ...]
    label: int | None
    class_name: str | None
    best_ids: tuple[int, ...]
    drop: float | None
    threshold: float
    found: bool
    mean_prediction: float
    original_prediction: float
    importances: np.ndarray
    n_samples: int
    p: float
    eps: float
    max_len: int
    baseline: str
    sampler: str
    search: str
    class_names: tuple[str, ...] | None = field(default=None, repr=False)
    mask_token: str = field(default="UNK", repr=False)
    sample_perturbed: np.ndarray | None = field(default=None, repr=False)
    sample_scores: np.ndarray | None = field(default=None, repr=False)
    sample_texts: tuple[str, ...] | None = field(default=None, repr=False)
    fast_path: FastPathStatus = field(default=FastPathStatus(False, "not recorded"), repr=False)
    sampler_stats: object | None = field(default=None, repr=False)

    @property
    def best(self) -> tuple[str, ...]:
        """The tokens of the selected candidate, in text order."""
        return tuple(self.tokens[i] for i in self.best_ids)

    def _class(self, label: int) -> str | None:
        return self.class_names[label] if self.class_names is not None else None

    def counterfactuals(self, k: int = 3, target: int | None = None) -> tuple[Counterfactual, ...]:
        """The k distinct samples with fewest perturbed tokens whose predicted class differs.

        A sample's predicted class is the argmax of its scores. With ``target`` set,
        only samples predicted as ``target`` qualify. Ties in the number of
        perturbed tokens keep sampling order. Needs class scores (k >= 2 columns).
        """
        k = check_int(k, "k", 0)
        if self.label is None or self.sample_scores is None or self.sample_scores.shape[1] < 2:
            raise ValueError("counterfactuals need class scores (classifier_fn returning (n, k) with k >= 2)")
        n_classes = self.sample_scores.shape[1]
        if target is not None:
            target = check_int(target, "target", 0, n_classes)
        predicted = self.sample_scores.argmax(axis=1)
        hits = predicted == target if target is not None else predicted != self.label
        rows = np.flatnonzero(hits)
        rows = rows[np.argsort(self.sample_perturbed[rows].sum(axis=1), kind="stable")]
        out: list[Counterfactual] = []
        seen: set[bytes] = set()
        for i in rows:
            if len(out) == k:
                break
            key = self.sample_perturbed[i].tobytes()
            if key in seen:
                continue
            seen.add(key)
            ids = tuple(int(j) for j in np.flatnonzero(self.sample_perturbed[i]))
            text = (self.sample_texts[i] if self.sample_texts is not None
                    else render_masked(self.tokens, self.sample_perturbed[i : i + 1], self.mask_token)[0])
            out.append(Counterfactual(text, ids, int(predicted[i]), self._class(int(predicted[i])),
                                      float(self.sample_scores[i, self.label])))
        return tuple(out)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (NaN importances become None)."""
        out = {
            "tokens": list(self.tokens),
            "label": self.label,
            "class_name": self.class_name,
            "best_ids": list(self.best_ids),
            "best": list(self.best),
            "drop": _number(self.drop),
            "threshold": float(self.threshold),
            "found": bool(self.found),
            "mean_prediction": float(self.mean_prediction),
            "original_prediction": float(self.original_prediction),
            "importances": [_number(float(s)) for s in self.importances],
            "n_samples": int(self.n_samples),
            "p": self.p,
            "eps": self.eps,
            "max_len": self.max_len,
            "baseline": self.baseline,
            "sampler": self.sampler,
            "search": self.search,
            "fast_path": {"active": self.fast_path.active, "reason": self.fast_path.reason},
        }
        if self.label is not None and self.sample_scores is not None and self.sample_scores.shape[1] >= 2:
            out["counterfactuals"] = [c.to_dict() for c in self.counterfactuals()]
        return out

    def _target_name(self) -> str:
        if self.label is None:
            return "the regression output"
        name = self.class_name if self.class_name is not None else str(self.label)
        return f'class "{name}"'

    def __str__(self) -> str:
        words = ", ".join(f'"{t}"' for t in self.best)
        what = "confidence" if self.label is not None else "prediction"
        lines = [f"Explaining {self._target_name()}:"]
        if self.found:
            lines.append(f"The minimal subset of tokens that make the {what} drop by {100 * self.eps:.1f}% "
                         f"if perturbed is {{{words}}}")
        elif self.best_ids:
            lines.append(f"No subset of at most {self.max_len} tokens makes the {what} drop by "
                         f"{100 * self.eps:.1f}%; the best found is {{{words}}}")
        else:
            lines.append("No candidate could be evaluated: no sample perturbs any token.")
        drop = "undefined" if self.drop is None else f"{self.drop:.4g}"
        lines.append(f"(drop {drop}, threshold {self.threshold:.4g}, mean prediction {self.mean_prediction:.4g}, "
                     f"original prediction {self.original_prediction:.4g}; n={self.n_samples}, p={self.p}, "
                     f"sampler={self.sampler}, baseline={self.baseline})")
        if self.label is not None and self.sample_scores is not None and self.sample_scores.shape[1] >= 2:
            cfs = self.counterfactuals()
            if cfs:
                lines.append(f"k={len(cfs)} samples with minimal perturbation classified otherwise:")
                for c in cfs:
                    other = c.predicted_class if c.predicted_class is not None else str(c.predicted_label)
                    lines.append(f'"{self._highlight(c)}" -> "{other}"')
        return "\n".join(lines)

    def _highlight(self, c: Counterfactual) -> str:
        words = c.text.split()
        if len(words) != len(self.tokens):
            return c.text
        return " ".join(f"[{w}]" if i in c.perturbed_ids else w for i, w in enumerate(words))

    def to_html(self) -> str:
        """Saliency map: green for positive importance, red for negative, the selected tokens underlined."""
        finite = self.importances[np.isfinite(self.importances)]
        scale = float(np.max(np.abs(finite))) if finite.size and np.max(np.abs(finite)) > 0 else 1.0
        spans = []
        for i, (tok, s) in enumerate(zip(self.tokens, self.importances)):
            if np.isfinite(s):
                alpha = min(1.0, abs(float(s)) / scale)
                rgb = "0,128,0" if s >= 0 else "200,0,0"
                style = f"background-color: rgba({rgb},{alpha:.3f});"
                title = f"s_{i} = {float(s):.4g}"
            else:
                style, title = "", f"s_{i} undefined"
            if i in self.best_ids:
                style += " text-decoration: underline; font-weight: bold;"
            spans.append(f'<span style="{style}" title="{title}">{html.escape(tok)}</span>')
        return f'<div class="fred-explanation">{" ".join(spans)}</div>'
