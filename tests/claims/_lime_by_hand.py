"""LIME for text written out from its description (lime 0.2.0.1), for the tests: the same random draws from
``numpy.random.RandomState(seed)``, the cosine kernel and a weighted ridge solved by its normal equations, without
importing lime or the project's LIME code. Features are the positions (bow=False, a removed position becoming
'UNKWORDZ') or the distinct words in order of first occurrence (bow=True, a removed word deleted everywhere)."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np


def lime_by_hand(f, text: str, n_samples: int, seed: int, kernel_width: float = 25.0, alpha: float = 1.0,
                 bow: bool = False, num_features: int | None = None):
    """Coefficients of the features of ``text``: row 0 the text; each other row removes s ~ U{1..d} features
    drawn without replacement; weight sqrt(exp(-(100 cosine distance)^2 / w^2)). With ``num_features`` < d, lime's
    'highest_weights' selection (its 'auto' above 6 features): a ridge with penalty 0.01 on every feature, the
    ``num_features`` largest |coefficient| kept, the final ridge on those alone; the others get 0."""
    tokens = text.split()
    names = list(dict.fromkeys(tokens)) if bow else tokens
    d = len(names)
    rng = np.random.RandomState(seed)
    sizes = rng.randint(1, d + 1, n_samples - 1)
    z = np.ones((n_samples, d))
    for i, size in enumerate(sizes, start=1):
        z[i, rng.choice(range(d), size, replace=False)] = 0
    if bow:
        texts = [" ".join(t for t in tokens if row[names.index(t)]) for row in z]
    else:
        texts = [" ".join(t if keep else "UNKWORDZ" for t, keep in zip(tokens, row)) for row in z]
    y = np.asarray(f(texts), dtype=float)
    distance = 100 * (1 - np.sqrt(z.sum(axis=1) / d))
    w = np.sqrt(np.exp(-(distance**2) / kernel_width**2))
    def ridge(columns, penalty):
        design = np.column_stack([np.ones(n_samples), z[:, columns]])
        gram = design.T @ (w[:, None] * design) + penalty * np.diag([0.0] + [1.0] * len(columns))
        return np.linalg.solve(gram, design.T @ (w * y))[1:]

    columns = list(range(d))
    if num_features is not None and num_features < d:
        wide = ridge(columns, 0.01)
        columns = sorted(sorted(range(d), key=lambda j: -abs(wide[j]))[:num_features])
    out = np.zeros(d)
    out[columns] = ridge(columns, alpha)
    return out


def limit_by_hand(table, kernel_width: float = 25.0, n_samples: int | None = None, words=None,
                  columns=None) -> np.ndarray:
    """LIME's n -> infinity coefficients by weighted least squares over all feature patterns (a pattern keeping
    k < d features has probability 1 / (d C(d, k))); ``table[code]`` is f with the positions of the bits of code
    removed. ``words`` (one per position) makes the features the distinct words, a removed word removing all its
    positions. With ``n_samples`` the deterministic equivalent: weights times n - 1, the document once more with
    weight 1, the ridge penalty 1. ``columns``: the fit on those features alone (law and kernel over all d),
    returned with 0 at the other features."""
    table = np.asarray(table, dtype=float)
    b = int(np.log2(table.size))
    names = list(dict.fromkeys(words)) if words is not None else list(range(b))
    label = list(words) if words is not None else list(range(b))
    d = len(names)
    rows, values = [], []
    for keep in itertools.product((1, 0), repeat=d):
        removed = {names[j] for j in range(d) if not keep[j]}
        rows.append(keep)
        values.append(table[sum(1 << i for i in range(b) if label[i] in removed)])
    z = np.array(rows, dtype=float)
    kept = z.sum(axis=1)
    law = np.array([0.0 if k == d else 1.0 / (d * comb(d, int(k))) for k in kept])
    kernel = np.exp(-((100 * (1 - np.sqrt(kept / d))) ** 2) / (2 * kernel_width**2))
    weight = law * kernel
    columns = list(range(d)) if columns is None else list(columns)
    design = np.column_stack([np.ones(len(z)), z[:, columns]])
    penalty = np.zeros((len(columns) + 1, len(columns) + 1))
    if n_samples is not None:
        weight = (n_samples - 1) * weight
        weight[0] += 1.0  # the all-kept pattern comes first in the product
        penalty = np.diag([0.0] + [1.0] * len(columns))
    gram = design.T @ (weight[:, None] * design) + penalty
    out = np.zeros(d)
    out[columns] = np.linalg.solve(gram, design.T @ (weight * np.array(values)))[1:]
    return out
