"""A re-derivation of Mardaoui and Garreau's approximation of LIME's limit for a linear model on L2-normalised
TF-IDF: its constants, their large-d limit, and a bound on the error of the approximation it rests on.

Source: D. Mardaoui, D. Garreau, "An analysis of LIME for text data", AISTATS 2021 (PMLR 130, pp. 3493-3501;
arXiv 2010.12487). Their main theorem gives LIME's limit explanation beta^f for text (lime's defaults, ``bow=True``:
one feature per distinct word, s uniform in {1..d} words removed, cosine-distance kernel) through the moments
alpha_p = E[pi z_1 ... z_p] of the kernel under LIME's law (``m0, m1, m2`` of :class:`analytic.lime_text.LimeMoments`);
their linear-model result applies it to a linear model on scikit-learn's default ``TfidfVectorizer()`` (their
Proposition 4, as the header of their released experiment ``theory_meets_practice_linear`` names it, confronted
with lime in their Figure 7). Only their abstract and opening pages could be read here (the stored pages of the
search tool), so their statement's exact wording and constants were not seen: what follows is re-derived, never
copied (neither their text nor their code), from the approximation as this project states it (``lime_text``'s module
docstring, :func:`analytic.lime_text.lime_l2_linear`).

Setting. A document of d distinct words, word j occurring m_j times with idf v_j, w_j = m_j v_j; the model
f(x) = lambda_0 + sum_j lambda_j phi_j(x), phi = the L2-normalised TF-IDF vector. Keeping the set K of k words,

    f(z) = lambda_0 + sum_{j in K} lambda_j w_j / |w_K|         (exact; |w_K|^2 = sum_{j in K} w_j^2).

The approximation replaces |w_K| by sqrt(k / d) |w|, the root of its mean square given k (a uniform k-subset keeps
each word with probability k / d, so E[|w_K|^2 | k] = (k / d) |w|^2 exactly). Then f ~ lambda_0 + sqrt(d / k)
sum_{j in K} c_j with c_j = lambda_j phi_j(xi) = lambda_j w_j / |w|, and LIME's limit for it (the weighted least
squares under LIME's law, ``lime_text``'s Sherman-Morrison) is, in two constants,

    beta_j = K_d(nu) c_j + L_d(nu) S,    S = sum_l c_l,
    K_d = (n1 - n2) / (m1 - m2) = sum_{k<d} pi_k sqrt(k/d) (d - k) / sum_{k<d} pi_k (k/d) (d - k),
    L_d = (g - c K_d) / (a + d c),  a = m1 - m2,  c = m2 - m1^2 / m0,  g = n2 - m1 n1 / m0,

n1, n2 the moments m1, m2 with the extra factor sqrt(d / k). K_d is **the constant of the linear-model
approximation**: the factor sqrt(d / k) that the shrinking norm puts on every kept word, averaged by LIME's
weights. It depends on d and on the kernel width nu only (pi_k = exp(-(100 (1 - sqrt(k/d)))^2 / (2 nu^2)), lime's
distance x 100 and nu = 25): K_2 = sqrt 2 exactly (only k = 1 is drawn with a kept word), and as d -> infinity
(k / d -> t uniform on [0, 1], psi(t) = exp(-(100 (1 - sqrt t))^2 / (2 nu^2)))

    K_inf(nu) = int_0^1 psi(t) sqrt(t) (1 - t) dt / int_0^1 psi(t) t (1 - t) dt,

1.3069 at nu = 25, 8/5 as nu -> infinity (psi = 1), 1 as nu -> 0. Approximating the perturbed norm by the
unperturbed one (|w_K| ~ |w|) makes f additive and gives K = 1, L = 0 (``lime_text``'s additive case).

Where it is exact. When every w_j is equal, |w_K| = sqrt(k / d) |w| for every K: the closed form is LIME's exact
limit. Otherwise the error of f is e(z) = sqrt(d/k) (rho_K - 1) sum_{j in K} c_j with rho_K =
sqrt(mean_j w_j^2 / mean_{j in K} w_j^2), and since LIME's limit is linear in f, beta_exact - beta_closed =
Sigma^-1 E[pi (1, z) e(z)]; row j of Sigma^-1 (1, z) is p + q z_j + r k (exchangeable design), so

    |beta_exact,j - beta_closed,j| <= sum_{k=1}^{d-1} (1/d) pi_k sqrt(d/k) eps_k T_k E[|p + q z_j + r k| | k]

with eps_k = max |rho_K - 1| over the k-subsets (reached at the k smallest or largest w_j^2) and T_k the sum of the k
largest |c_l|: :func:`approximation_bound`, 0 exactly when the w_j are equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp
from scipy.integrate import quad

from .lime_text import (
    DISTANCE_SCALE,
    KERNEL_WIDTH,
    check_d,
    lime_kernel,
    lime_moments,
    lime_moments_sym,
)


@dataclass(frozen=True)
class MardaouiGarreauConstants:
    """The two constants of the closed form beta_j = K c_j + L S for d words and kernel width ``kernel_width``."""

    d: int
    kernel_width: float
    constant: float
    common: float

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"d": self.d, "kernel_width": self.kernel_width, "constant": self.constant, "common": self.common}


def _constants(moments: tuple, d: int) -> tuple:
    """(K, L) from the moments (m0, m1, m2, n1, n2), in their arithmetic (floats or sympy)."""
    m0, m1, m2, n1, n2 = moments
    a, c, g = m1 - m2, m2 - m1**2 / m0, n2 - m1 * n1 / m0
    constant = (n1 - n2) / a
    return constant, (g - c * constant) / (a + d * c)


def _check_two_words(d) -> int:
    d = check_d(d)
    if d < 2:
        raise ValueError("the limit needs d >= 2 words (d = 1: LIME's random rows never keep the word)")
    return d


def mardaoui_garreau_constants(d: int, kernel_width: float = KERNEL_WIDTH) -> MardaouiGarreauConstants:
    """K_d and L_d (module docstring) from :func:`analytic.lime_text.lime_moments`; any d >= 2.

    >>> k = mardaoui_garreau_constants(2)
    >>> round(k.constant ** 2, 12), round(mardaoui_garreau_constants(10).constant, 4)
    (2.0, 1.3099)
    """
    d = _check_two_words(d)
    m = lime_moments(d, kernel_width)
    constant, common = _constants((m.m0, m.m1, m.m2, m.n1, m.n2), d)
    return MardaouiGarreauConstants(d, float(kernel_width), float(constant), float(common))


def mardaoui_garreau_constants_sym(d: int, kernel_width=KERNEL_WIDTH) -> tuple[sp.Expr, sp.Expr]:
    """(K_d, L_d) as exact sympy expressions (``kernel_width`` may be a symbol).

    >>> mardaoui_garreau_constants_sym(2)[0]
    sqrt(2)
    """
    d = _check_two_words(d)
    constant, common = _constants(lime_moments_sym(d, kernel_width), d)
    return sp.simplify(constant), common


def _psi(t, kernel_width: float):
    return np.exp(-((DISTANCE_SCALE * (1.0 - np.sqrt(t))) ** 2) / (2.0 * kernel_width**2))


def constant_limit(kernel_width: float = KERNEL_WIDTH) -> float:
    """K_inf(nu) = int psi sqrt(t) (1 - t) / int psi t (1 - t) on [0, 1] (numerical quadrature).

    >>> round(constant_limit(), 4)
    1.3069
    """
    top = quad(lambda t: _psi(t, kernel_width) * np.sqrt(t) * (1.0 - t), 0.0, 1.0, epsabs=0.0, epsrel=1e-13)[0]
    bottom = quad(lambda t: _psi(t, kernel_width) * t * (1.0 - t), 0.0, 1.0, epsabs=0.0, epsrel=1e-13)[0]
    return top / bottom


def _gaussian_moment(n: int, a: sp.Expr) -> sp.Expr:
    """int_0^1 v^n exp(-a v^2) dv, exactly: I_0 = sqrt(pi) erf(sqrt a) / (2 sqrt a), I_1 = (1 - e^-a) / (2a),
    I_n = ((n - 1) I_{n-2} - e^-a) / (2a)."""
    if n == 0:
        return sp.sqrt(sp.pi) * sp.erf(sp.sqrt(a)) / (2 * sp.sqrt(a))
    if n == 1:
        return (1 - sp.exp(-a)) / (2 * a)
    return ((n - 1) * _gaussian_moment(n - 2, a) - sp.exp(-a)) / (2 * a)


def constant_limit_sym(kernel_width=KERNEL_WIDTH) -> sp.Expr:
    """K_inf(nu) in sympy: t = u^2 and v = 1 - u turn both integrals into int_0^1 P(v) exp(-a v^2) dv with
    a = 100^2 / (2 nu^2) and P a polynomial (error functions, exactly).

    >>> round(float(constant_limit_sym()), 4)
    1.3069
    """
    a = sp.Integer(DISTANCE_SCALE) ** 2 / (2 * sp.nsimplify(kernel_width) ** 2)
    v = sp.Symbol("v")
    u = 1 - v

    def integral(poly: sp.Expr) -> sp.Expr:
        coeffs = sp.Poly(sp.expand(poly), v).all_coeffs()[::-1]
        return sum(c * _gaussian_moment(n, a) for n, c in enumerate(coeffs))

    return integral(2 * u**2 * (1 - u**2)) / integral(2 * u**3 * (1 - u**2))


def _extreme_ratios(squares: np.ndarray) -> np.ndarray:
    """eps_k for k = 1..d: the largest |rho_K - 1| over k-subsets, rho_K = sqrt(mean w^2 / mean_K w^2)."""
    ordered = np.sort(squares)
    k = np.arange(1, squares.size + 1)
    lowest, highest = np.cumsum(ordered) / k, np.cumsum(ordered[::-1]) / k
    mean = squares.mean()
    return np.maximum(np.sqrt(mean / lowest) - 1.0, 1.0 - np.sqrt(mean / highest))


def _lime_row(d: int, kernel_width: float) -> tuple[float, float, float]:
    """(p, q, r): row j of Sigma^-1 (1, z) = p + q z_j + r k, Sigma = E[pi (1, z)(1, z)^T] under LIME's law."""
    m = lime_moments(d, kernel_width)
    gram = np.empty((d + 1, d + 1))
    gram[0, 0], gram[0, 1:], gram[1:, 0] = m.m0, m.m1, m.m1
    gram[1:, 1:] = m.m2 + (m.m1 - m.m2) * np.eye(d)
    row = np.linalg.inv(gram)[1]
    return float(row[0]), float(row[1] - row[2]), float(row[2])


def approximation_bound(coef, tfidf, kernel_width: float = KERNEL_WIDTH) -> float:
    """The bound of the module docstring on max_j |beta_exact,j - beta_closed,j| at the limit, for the linear model
    ``coef`` (lambda_j) on a document whose distinct words have TF-IDF entries ``tfidf`` (w_j = m_j v_j, any scale).

    >>> approximation_bound([1.0, -2.0, 0.5], [3.0, 3.0, 3.0])   # equal entries: the closed form is exact
    0.0
    """
    lam, w = np.asarray(coef, dtype=float), np.asarray(tfidf, dtype=float)
    if lam.shape != w.shape or w.ndim != 1 or np.any(w == 0):
        raise ValueError("coef and tfidf must be 1-d of one length, every tfidf entry non-zero")
    d = _check_two_words(w.size)
    eps = _extreme_ratios(w**2)[:-1]  # k = 1..d-1 (k = d is never drawn, k = 0 gives e = 0)
    if np.all(eps <= 0.0):
        return 0.0
    top = np.cumsum(np.sort(np.abs(lam * w / np.linalg.norm(w)))[::-1])[:-1]
    p, q, r = _lime_row(d, kernel_width)
    k = np.arange(1, d, dtype=float)
    lever = (k / d) * np.abs(p + q + r * k) + (1.0 - k / d) * np.abs(p + r * k)
    return float(np.sum(lime_kernel(k, d, kernel_width) * np.sqrt(d / k) * eps * top * lever) / d)
