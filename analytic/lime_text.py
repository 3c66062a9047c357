"""LIME for text, exactly: its coefficients as n -> infinity, by enumeration over its own sampling law.

Read from the installed ``lime`` 0.2.0.1 (``lime_text.LimeTextExplainer`` and ``lime_base.LimeBase``):

* the d features are the distinct words (``bow=True``: removing a word removes all its occurrences) or the
  positions (``bow=False``, the evaluation's setting, a removed position becoming ``UNKWORDZ``);
* row 0 is the document itself (all ones, always included); each of the other n - 1 rows removes s features,
  s uniform in {1, ..., d}, chosen uniformly without replacement. A pattern keeping k < d features therefore
  has probability 1 / (d C(d, k)), and each kept count k = 0, ..., d - 1 has probability 1 / d;
* its distance to row 0 is 100 times the cosine distance of the binary rows, D_k = 100 (1 - sqrt(k / d));
  its weight is pi_k = sqrt(exp(-D_k^2 / w^2)) = exp(-D_k^2 / (2 w^2)), kernel width w = 25;
* the coefficients are those of ``Ridge(alpha=1, fit_intercept=True)`` fitted with these sample weights, i.e.
  the minimiser of sum_rows pi (y - b0 - z.beta)^2 + alpha |beta|^2 (the intercept b0 is not penalised).
  Feature selection is immaterial when, as in the evaluation, ``num_features`` is the number of features: both
  "forward_selection" and "highest_weights" then keep every feature.

What "limit" means. Divided by n - 1, LIME's objective is the empirical mean of pi (y - b0 - z.beta)^2 plus
(row 0's term + alpha |beta|^2) / (n - 1). By the strong law its minimiser beta_n converges almost surely to
beta_inf, the minimiser of E[pi (y - b0 - z.beta)^2] under the sampling law (unique for d >= 2): the ridge
penalty and the original row vanish at rate 1/n, the sampling noise at rate n^(-1/2). :func:`lime_coefficients`
with ``n_samples=None`` is beta_inf; with ``n_samples=n`` it is the deterministic equivalent beta*_n, the same
objective with the empirical mean replaced by its expectation and row 0 and alpha kept, which carries the O(1/n)
ridge bias of n samples but none of their noise. For d = 1 the random rows never keep the word, the population
objective is degenerate and beta_n -> (f(x) - f(empty)) / (1 + alpha): half the effect at LIME's alpha = 1.

Closed form (exchangeable design). Every weight and probability depends on k only, so with
m0 = E[pi], m1 = E[pi z_j], m2 = E[pi z_j z_l] (j != l; the three moments of Mardaoui and Garreau, "An analysis of
LIME for text data", AISTATS 2021, arXiv 2010.12487) and, at n samples (N = n - 1 random rows plus row 0),
M_i = N m_i + 1, the centred weighted Gram matrix is a I + c 11^T with a = M1 - M2 + alpha, c = M2 - M1^2 / M0;
Sherman-Morrison gives beta_j = (G_j - c / (a + d c) sum_l G_l) / a with G_j = E'[pi f z_j] - (M1 / M0) E'[pi f]
(E' the same weighted sums). For an additive f = lambda_0 + sum_j A_j z_j (a TF-IDF linear model, Eq. (6):
A_j = lambda_j v_j per position, m_j lambda_j v_j per word with ``bow=True``) this reduces to

    beta_j = (A_j (M1 - M2) + S c alpha / (a + d c)) / a,   S = sum_l A_l,

and at the limit (alpha / N -> 0, row 0 negligible) to beta_j = A_j for every kernel width: LIME recovers the
model's own per-feature contribution, the unnormalised counterpart of Mardaoui and Garreau's result on
linear models. Their TF-IDF is L2-normalised (scikit-learn's default, the evaluation's models): f =
lambda_0 + lambda . phi(z) / |phi(z)| is not additive. With distinct words of equal TF-IDF entry,
|phi(z)| = |phi(x)| sqrt(k / d) exactly, so f = lambda_0 + sqrt(d / k) sum_j c_j z_j, c_j = lambda_j phi_j /
|phi(x)|; the same solution with E'[pi f z_j] = lambda_0 M1 + c_j N1 + (S - c_j) N2 and E'[pi f] = lambda_0 M0
+ S N1, where N1, N2 are M1, M2 with the extra weight sqrt(d / k), gives :func:`lime_l2_linear`: exact in that
case, their large-d approximation otherwise (then only the enumeration is exact). Its constants, their large-d limit
and a bound on the approximation's error: :mod:`analytic.lime_l2`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Hashable, Sequence

import numpy as np
import sympy as sp

from .patterns import check_b, check_table, popcounts

#: ``LimeTextExplainer(kernel_width=25)``.
KERNEL_WIDTH = 25.0
#: ``LimeBase``'s default regressor ``Ridge(alpha=1, fit_intercept=True)``.
RIDGE_ALPHA = 1.0
#: The cosine distance is multiplied by 100 before the kernel (``__data_labels_distances``).
DISTANCE_SCALE = 100


@dataclass(frozen=True)
class LimeMoments:
    """m0 = E[pi], m1 = E[pi z_j], m2 = E[pi z_j z_l] (j != l) under LIME's law for d features, and n1, n2: m1, m2
    with the extra factor sqrt(d / k) of an L2-normalised model (k the kept count)."""

    d: int
    m0: float
    m1: float
    m2: float
    n1: float
    n2: float

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"d": self.d, "m0": self.m0, "m1": self.m1, "m2": self.m2, "n1": self.n1, "n2": self.n2}


@dataclass(frozen=True)
class LimeCoefficients:
    """LIME's intercept and one coefficient per feature: the limit (``n_samples`` None) or beta*_n."""

    intercept: float
    coef: tuple[float, ...]
    n_samples: int | None

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"intercept": self.intercept, "coef": list(self.coef), "n_samples": self.n_samples}


def _check_positive(value, name: str, allow_zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    if not (value >= 0 if allow_zero else value > 0) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number {'>= 0' if allow_zero else '> 0'}, got {value!r}")
    return value


def _check_n_samples(n_samples) -> int | None:
    if n_samples is None:
        return None
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral):
        raise TypeError(f"n_samples must be None or an integer >= 2, got {type(n_samples).__name__}")
    if n_samples < 2:
        raise ValueError(f"n_samples must be None or an integer >= 2, got {n_samples!r}")
    return int(n_samples)


def check_d(d) -> int:
    """``d``, LIME's number of features, as an int, or TypeError/ValueError unless it is an integer >= 1. The kernel
    and the moments are sums over the kept count k = 0..d (no 2^d enumeration), so d has no upper bound here.

    >>> check_d(1000)
    1000
    """
    if isinstance(d, bool) or not isinstance(d, numbers.Integral):
        raise TypeError(f"the number of features d must be an integer >= 1, got {type(d).__name__}")
    if d < 1:
        raise ValueError(f"the number of features d must be an integer >= 1, got {d!r}")
    return int(d)


def lime_kernel(kept, d: int, kernel_width: float = KERNEL_WIDTH) -> np.ndarray:
    """LIME's weight of a row keeping ``kept`` of d features: exp(-(100 (1 - sqrt(k / d)))^2 / (2 w^2)).

    >>> lime_kernel([4, 1], 4).round(6).tolist()   # D = 0 and D = 50: exp(-2)
    [1.0, 0.135335]
    """
    d = check_d(d)
    kernel_width = _check_positive(kernel_width, "kernel_width")
    k = np.asarray(kept, dtype=float)
    if np.any(k < 0) or np.any(k > d):
        raise ValueError(f"kept must lie in [0, d={d}], got {kept!r}")
    distance = DISTANCE_SCALE * (1.0 - np.sqrt(k / d))
    return np.exp(-(distance**2) / (2.0 * kernel_width**2))


def lime_kernel_sym(kept: int, d: int, kernel_width=KERNEL_WIDTH) -> sp.Expr:
    """:func:`lime_kernel` as an exact sympy number (``kernel_width`` may be a symbol).

    >>> lime_kernel_sym(1, 4, 25)
    exp(-2)
    """
    distance = DISTANCE_SCALE * (1 - sp.sqrt(sp.Rational(kept, check_d(d))))
    return sp.exp(-(distance**2) / (2 * sp.nsimplify(kernel_width) ** 2))


def lime_moments(d: int, kernel_width: float = KERNEL_WIDTH) -> LimeMoments:
    """The moments of LIME's law: (1/d) sum_{k<d} pi_k times 1, k/d and k(k-1)/(d(d-1)) (0 for d = 1), and the last
    two times sqrt(d / k) (k >= 1).

    >>> m = lime_moments(2)
    >>> round(m.m0, 6), round(m.m1, 6), m.m2   # pi_0 = exp(-8), pi_1 = exp(-8 (1 - 1/sqrt 2)^2)
    (0.251888, 0.12586, 0.0)
    """
    d = check_d(d)
    k = np.arange(d, dtype=float)
    pi = lime_kernel(k, d, kernel_width)
    single, pair = k / d, (k * (k - 1) / (d * (d - 1)) if d > 1 else np.zeros(d))
    scale = np.sqrt(d / np.maximum(k, 1.0))  # k = 0 multiplies a zero moment
    return LimeMoments(d, float(pi.mean()), float((pi * single).mean()), float((pi * pair).mean()),
                       float((pi * single * scale).mean()), float((pi * pair * scale).mean()))


def lime_moments_sym(d: int, kernel_width=KERNEL_WIDTH) -> tuple[sp.Expr, ...]:
    """:func:`lime_moments` as exact sympy expressions (m0, m1, m2, n1, n2)."""
    d = check_d(d)
    pi = [lime_kernel_sym(k, d, kernel_width) for k in range(d)]
    single = [sp.Rational(k, d) for k in range(d)]
    pair = [sp.Rational(k * (k - 1), d * (d - 1)) if d > 1 else sp.Integer(0) for k in range(d)]
    scale = [sp.sqrt(sp.Rational(d, max(k, 1))) for k in range(d)]
    return (sum(pi) / d, sum(p * q for p, q in zip(pi, single)) / d, sum(p * q for p, q in zip(pi, pair)) / d,
            sum(p * q * r for p, q, r in zip(pi, single, scale)) / d,
            sum(p * q * r for p, q, r in zip(pi, pair, scale)) / d)


def _closed_form(weights: Sequence, intercept, moments: tuple, d: int, n_samples, alpha, normalised: bool):
    """(b0, beta) for f = lambda_0 + r(k) sum_j c_j z_j, r = 1 (additive) or sqrt(d / k) (L2-normalised), in the
    arithmetic of the inputs (floats or sympy); n_samples None for the limit. The Sherman-Morrison solution of the
    module docstring with E'[pi f z_j] = lambda_0 M1 + c_j N1 + (S - c_j) N2 and E'[pi f] = lambda_0 M0 + S N1."""
    weights = list(weights)
    total = sum(weights)
    m0, m1, m2, n1, n2 = moments
    if not normalised:
        n1, n2 = m1, m2
    if n_samples is None:  # alpha / N -> 0 and row 0's weight 1 / N -> 0
        big0, big1, big2, scaled1, scaled2, penalty = m0, m1, m2, n1, n2, 0
    else:  # row 0 keeps all d features: weight 1, r(d) = 1
        rows = n_samples - 1
        big0, big1, big2 = rows * m0 + 1, rows * m1 + 1, rows * m2 + 1
        scaled1, scaled2, penalty = rows * n1 + 1, rows * n2 + 1, alpha
    c = big2 - big1**2 / big0
    a = big1 - big2 + penalty
    if normalised:
        common = total * (scaled2 - big1 * scaled1 / big0)
        gamma = [w * (scaled1 - scaled2) + common for w in weights]
        shift = c / (a + d * c) * sum(gamma)
        coef = [(g - shift) / a for g in gamma]
    else:  # the same, simplified by hand (N = M): at the limit (penalty 0) it is w exactly, also in sympy
        coef = [(w * (big1 - big2) + total * c * penalty / (a + d * c)) / a for w in weights]
    # b0 = weighted mean of f - weighted mean of z . beta, the latter M1/M0 per feature
    intercept_out = intercept + (total * scaled1 - big1 * sum(coef)) / big0
    return intercept_out, coef


def _closed_form_inputs(weights, n_samples, alpha) -> tuple[list, int, int | None, float]:
    a = np.asarray(weights, dtype=float)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"weights must be a non-empty 1-d sequence, got shape {a.shape}")
    d = check_b(a.size)
    n_samples = _check_n_samples(n_samples)
    if n_samples is None and d == 1:
        raise ValueError("d = 1 has no limit of this form: pass n_samples (see the module docstring)")
    return a.tolist(), d, n_samples, _check_positive(alpha, "alpha", allow_zero=True)


def lime_additive(weights, intercept: float = 0.0, n_samples: int | None = None, *,
                  kernel_width: float = KERNEL_WIDTH, alpha: float = RIDGE_ALPHA) -> LimeCoefficients:
    """LIME's coefficients for f = lambda_0 + sum_j A_j z_j in closed form (numeric twin of
    :func:`lime_linear_sym`).

    beta_j = (A_j (M1 - M2) + S c alpha / (a + d c)) / a at n samples, A_j at the limit (see the module).

    >>> lime_additive([1.0, -2.0, 0.5]).coef
    (1.0, -2.0, 0.5)
    >>> [round(x, 4) for x in lime_additive([1.0, -2.0, 0.5], n_samples=100).coef]  # the ridge bias at n = 100
    [0.9505, -1.8003, 0.492]
    """
    weights, d, n_samples, alpha = _closed_form_inputs(weights, n_samples, alpha)
    m = lime_moments(d, kernel_width)
    b0, coef = _closed_form(weights, float(intercept), (m.m0, m.m1, m.m2, m.n1, m.n2), d, n_samples, alpha, False)
    return LimeCoefficients(float(b0), tuple(float(x) for x in coef), n_samples)


def lime_l2_linear(coef, tfidf, intercept: float = 0.0, n_samples: int | None = None, *,
                   kernel_width: float = KERNEL_WIDTH, alpha: float = RIDGE_ALPHA) -> LimeCoefficients:
    """LIME's coefficients for a linear model on L2-normalised TF-IDF, f = lambda_0 + lambda . phi(z) / |phi(z)|.

    One feature per distinct word j, with phi_j = m_j v_j its TF-IDF entry in the document. Removing features
    changes the norm; when every |phi_j| is equal, |phi(z)| = |phi(x)| sqrt(k / d) exactly (k kept words), so
    f = lambda_0 + sqrt(d / k) sum_j c_j z_j with c_j = lambda_j phi_j / |phi(x)|, and the module's formula with
    the moments n1, n2 is exact. Otherwise this is the approximation |phi(z)| ~ |phi(x)| sqrt(k / d) of Mardaoui
    and Garreau (2021), good when d is large; :func:`lime_coefficients` on the model's table is the exact value.
    Unlike the additive case the limit is not c_j: beta_j = c_j (n1 - n2) / (m1 - m2) plus a term common to all j.

    >>> [round(x, 4) for x in lime_l2_linear([1.0, -1.0, 0.5], [2.0, 2.0, 2.0]).coef]
    [0.7169, -0.8372, 0.3284]
    """
    phi = np.asarray(tfidf, dtype=float)
    lam = np.asarray(coef, dtype=float)
    if phi.shape != lam.shape or phi.ndim != 1:
        raise ValueError(f"coef and tfidf must be 1-d of one length, got shapes {lam.shape} and {phi.shape}")
    if np.any(phi == 0):
        raise ValueError("tfidf entries must be non-zero: a feature of the document has a TF-IDF weight")
    weights, d, n_samples, alpha = _closed_form_inputs(lam * phi / np.linalg.norm(phi), n_samples, alpha)
    m = lime_moments(d, kernel_width)
    b0, out = _closed_form(weights, float(intercept), (m.m0, m.m1, m.m2, m.n1, m.n2), d, n_samples, alpha, True)
    return LimeCoefficients(float(b0), tuple(float(x) for x in out), n_samples)


def lime_linear_sym(weights: Sequence, intercept=0, n_samples: int | None = None, *, normalised: bool = False,
                    kernel_width=KERNEL_WIDTH, alpha=RIDGE_ALPHA) -> tuple[sp.Expr, list[sp.Expr]]:
    """(intercept, coefficients) of :func:`lime_additive` (``normalised`` False, weights A_j) or of
    :func:`lime_l2_linear` (True, weights c_j = lambda_j phi_j / |phi(x)|) as sympy expressions; the weights
    may be symbols.

    >>> a, b = sp.symbols("a b")
    >>> lime_linear_sym([a, b])[1]   # the additive limit: the model's own contributions, exactly
    [a, b]
    """
    weights = [sp.sympify(w) for w in weights]
    d = check_b(len(weights))
    n_samples = _check_n_samples(n_samples)
    if n_samples is None and d == 1:
        raise ValueError("d = 1 has no limit of this form: pass n_samples (see the module docstring)")
    moments = lime_moments_sym(d, kernel_width)
    return _closed_form(weights, sp.sympify(intercept), moments, d, n_samples, sp.nsimplify(alpha), normalised)


def lime_pattern_law(d: int) -> np.ndarray:
    """Probability of each feature code (bit j = feature j removed) in one of LIME's random rows:
    1 / (d C(d, k)) for a code keeping k < d features, 0 for the document itself (only row 0 is it).

    >>> lime_pattern_law(2).tolist()   # keep both: never; keep one: 1/4 each; keep none: 1/2
    [0.0, 0.25, 0.25, 0.5]
    """
    d = check_b(d)
    kept = d - popcounts(d)
    law = np.zeros(2**d)
    random_rows = kept < d
    law[random_rows] = 1.0 / (d * np.array([math.comb(d, int(k)) for k in kept[random_rows]]))
    return law


def feature_groups(groups: Sequence[Hashable] | None, b: int) -> list[int]:
    """Bit mask of positions of each LIME feature, in LIME's order (first occurrence).

    ``groups`` None: one feature per position (``bow=False``); else the label of each position (its word for
    ``bow=True``), positions with equal labels forming one feature.

    >>> feature_groups(["a", "b", "a"], 3)
    [5, 2]
    """
    b = check_b(b)
    if groups is None:
        return [1 << i for i in range(b)]
    groups = list(groups)
    if len(groups) != b:
        raise ValueError(f"groups must give one label per position (b={b}), got {len(groups)}")
    masks: dict = {}
    for i, g in enumerate(groups):
        masks[g] = masks.get(g, 0) | 1 << i
    return list(masks.values())


def _check_columns(columns, d: int) -> list[int]:
    if columns is None:
        return list(range(d))
    kept = [int(j) for j in columns]
    if not kept or len(set(kept)) != len(kept) or min(kept) < 0 or max(kept) >= d:
        raise ValueError(f"columns must be distinct feature indices in [0, d={d}), at least one, got {columns!r}")
    return kept


def lime_coefficients(table, n_samples: int | None = None, *, groups: Sequence[Hashable] | None = None,
                      kernel_width: float = KERNEL_WIDTH, alpha: float = RIDGE_ALPHA,
                      columns: Sequence[int] | None = None) -> LimeCoefficients:
    """LIME's coefficients by enumeration of all 2^d feature patterns: the limit (``n_samples`` None) or beta*_n.

    ``table[code]`` is f with the positions of the bits of ``code`` removed (code 0 the document). The weighted
    normal equations sum_u w_u (1, z_u)(1, z_u)^T (b0, beta) + alpha (0, beta) = sum_u w_u f_u (1, z_u) are
    solved directly, with w_u = P(u) pi(u) at the limit and (n - 1) P(u) pi(u), plus 1 on the document, at n.

    Parameters
    ----------
    table : (2^b,) array, f on every keep/remove pattern of the positions.
    n_samples : None (the limit) or LIME's ``num_samples`` (>= 2).
    groups : None (``bow=False``, one feature per position) or one label per position (``bow=True``: words).
    kernel_width, alpha : LIME's kernel width (> 0) and ridge penalty (>= 0).
    columns : None (the fit uses every feature) or the indices of the features it uses, in the order of the
        coefficients returned: lime's feature selection, when ``num_features`` < d, fits the kept features alone,
        while the sampling law and the kernel (the distance over all d features) stay those of the d features.

    >>> [round(x, 12) for x in lime_coefficients([3.0, 2.0, 1.0, 0.0]).coef]  # f = z_0 + 2 z_1: additive
    [1.0, 2.0]
    >>> [round(x, 4) for x in lime_coefficients([3.0, 2.0, 1.0, 0.0], columns=[1]).coef]  # z_0 left out: not 2
    [1.0013]
    """
    table, b = check_table(table)
    masks = feature_groups(groups, b)
    d = len(masks)
    n_samples = _check_n_samples(n_samples)
    alpha = _check_positive(alpha, "alpha", allow_zero=True)
    kept_columns = _check_columns(columns, d)
    if n_samples is None and d == 1:  # random rows never keep the word: only row 0 and the ridge remain
        return LimeCoefficients(float(table[-1]), (float(table[0] - table[-1]) / (1.0 + alpha),), None)
    codes = np.zeros(2**d, dtype=np.int64)
    units = np.arange(2**d)
    for j, mask in enumerate(masks):
        codes[units >> j & 1 == 1] |= mask
    weight = lime_pattern_law(d) * lime_kernel(d - popcounts(d), d, kernel_width)
    penalty = 0.0
    if n_samples is not None:
        weight = (n_samples - 1) * weight
        weight[0] += 1.0  # row 0, the document, kernel 1
        penalty = alpha
    design = np.column_stack([np.ones(2**d)] + [(units >> j & 1) == 0 for j in kept_columns]).astype(float)
    gram = design.T @ (weight[:, None] * design) + penalty * np.diag([0.0] + [1.0] * len(kept_columns))
    solution = np.linalg.solve(gram, design.T @ (weight * table[codes]))
    return LimeCoefficients(float(solution[0]), tuple(float(x) for x in solution[1:]), n_samples)
