"""The linear model on L2-normalised TF-IDF (scikit-learn's default ``TfidfVectorizer()``), outside Prop. 1.

    f(z) = lambda^T phi(z) / ||phi(z)||_2 + lambda_0,   phi(z)_j = m_j(z) v_j,

with f = lambda_0 on a document with no vocabulary word. Definition 1 has no
normalisation: removing a word rescales every other word's contribution, so the
drop is not additive in the words and need not be ordered by lambda_j v_j. Alone
in a document a word contributes lambda_j whatever its v_j.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np
import sympy as sp


@dataclass(frozen=True)
class L2NormalisedLinearModel:
    """f on whitespace-tokenised texts: lambda . (counts * idf) / ||counts * idf|| + lambda_0.

    ``coef`` maps a word to lambda_j, ``idf`` a word to v_j (the same keys), finite
    floats (Python or numpy float64).

    >>> f = L2NormalisedLinearModel({"a": 1.0, "b": 2.0}, {"a": 3.0, "b": 0.5})
    >>> f(["a", "b", "a b", "UNK"]).tolist()   # alone, a word scores lambda_j whatever v_j
    [1.0, 2.0, 1.3151918984428583, 0.0]
    """

    coef: dict[str, float]
    idf: dict[str, float]
    intercept: float = 0.0
    words: tuple[str, ...] = field(init=False)
    _rank: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if set(self.coef) != set(self.idf):
            raise ValueError(f"coef and idf must have the same words, got {sorted(self.coef)} and {sorted(self.idf)}")
        for name, values in (("coef", self.coef), ("idf", self.idf)):
            bad = sorted(w for w, v in values.items() if not math.isfinite(v))
            if bad:
                raise ValueError(f"{name} must be finite for every word, got {[values[w] for w in bad]} for {bad}")
        object.__setattr__(self, "words", tuple(self.coef))
        object.__setattr__(self, "_rank", {w: i for i, w in enumerate(self.words)})

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        for text in texts:
            # The sums run over the text's vocabulary words in vocabulary order: a word absent from the text adds
            # a zero term (its values are finite floats), and a sum started at int 0 is never -0.0, so zero terms
            # change no bit of it.
            counts = Counter(text.split())
            present = sorted((self._rank[w], w) for w in counts if w in self._rank)
            u = [(self.coef[w], counts[w] * self.idf[w]) for _, w in present]
            norm = np.sqrt(sum(x * x for _, x in u))
            out.append(self.intercept + (sum(c * x for c, x in u) / norm if norm > 0 else 0.0))
        return np.array(out)


def l2_table_sym(model: L2NormalisedLinearModel, tokens: Sequence[str], *,
                 exact_idf: Mapping[str, sp.Expr] | None = None) -> list:
    """f of ``model`` on every mask pattern of ``tokens`` as exact sympy numbers (code order of
    analytic.referee: bit i set = position i masked, i.e. removed). Floats are read as the exact binary
    rationals they are, so the drops of :func:`analytic.referee.all_drops_rational` on this table are exact.

    ``exact_idf`` gives v_j as exact sympy numbers in place of ``model.idf`` (e.g. Definition 1's
    ``1 + log((N + 1)/(N_j + 1))``, which no float is); the model's floats must round them.

    >>> f = L2NormalisedLinearModel({"a": 1.0, "b": 0.5}, {"a": 0.5, "b": 2.0})
    >>> l2_table_sym(f, ["a", "b"])
    [3*sqrt(17)/17, 1/2, 1, 0]
    >>> g = L2NormalisedLinearModel({"a": 1.0, "b": 1.0}, {"a": 1 + float(np.log(2)), "b": 1.0})
    >>> l2_table_sym(g, ["a"], exact_idf={"a": 1 + sp.log(2), "b": sp.Integer(1)})
    [1, 0]
    """
    coef = {w: sp.Rational(c) for w, c in model.coef.items()}
    if exact_idf is None:
        idf = {w: sp.Rational(v) for w, v in model.idf.items()}
    else:
        idf = dict(exact_idf)
        if set(idf) != set(model.words) or any(abs(float(idf[w]) - model.idf[w]) > 1e-12 * abs(model.idf[w])
                                               for w in model.words):
            raise ValueError(f"exact_idf {idf} does not round to the model's idf {model.idf}")
    out = []
    for code in range(2 ** len(tokens)):
        kept = [t for i, t in enumerate(tokens) if not code >> i & 1]
        u = {w: kept.count(w) * idf[w] for w in model.words}
        norm = sp.sqrt(sum(x**2 for x in u.values()))
        out.append(sp.Rational(model.intercept) + (sp.radsimp(sum(coef[w] * u[w] for w in model.words) / norm)
                                                    if norm != 0 else 0))
    return out
