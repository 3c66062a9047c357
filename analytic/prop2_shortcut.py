"""Closed forms of FRED on the shortcut model f(z) = prod_{j in J} 1{w_j in z} (Prop. 2).

Word j of J occurs m_j >= 1 times; it is absent from a sample iff all its
occurrences are perturbed, probability p^{m_j}, independently across words:

    E[f] = prod_j (1 - p^{m_j}).

Given that c_j occurrences are perturbed, word j is absent with probability
p^{m_j - c_j}; the proof of Prop. 2 writes (1 - p)^{m_j - c_j}, then uses p = 1/2.
The drop is Delta_c = E[f] - prod_j (1 - p^{m_j - c_j}); positions outside J
do not change f.

With m_1 the smallest multiplicity, the largest drop of size l < m_1 is
c = (l, 0, ..., 0) (concavity of log(1 - p^{m - x}) and the ratio
(1 - p^{m - l}) / (1 - p^m) increasing in m), and every candidate with c_1 = m_1
has the maximal drop E[f]. The minimal size is therefore

    l* = min { l : 1 - p^{m_1 - l} <= (1 - eps)(1 - p^{m_1}) }  <=  m_1,

which equals m_1 (Prop. 2's c*_1 = min(m_1, l_max)) iff m_1 = 1 or
eps > 1 - (1 - p) / (1 - p^{m_1}). Counterexample: "w w", p = 1/2, eps = 0.15:
one occurrence drops E[f] from 3/4 to 1/2, i.e. by 1/3 >= 0.15, so l* = 1.

Everything here assumes f(xi) = 1 (every word of J occurs in the document).
With the threshold eps * f(xi) = eps of the authors' released code (baseline
"original") the ordering of candidates of one size is the same (it depends on
prod_j (1 - p^{m_j - c_j}) only) but the factors of the other words no longer
cancel:

    l* = min { l : (1 - p^{m_1 - l}) prod_{j >= 2} (1 - p^{m_j}) <= 1 - eps }.

The solution of Eq. (2) need not be unique: m = (2, 3), p = 1/2, eps = 0.1
admits the counts (1, 0) and (0, 1); (l*, 0, ..., 0) is the one with the
largest drop, which FRED returns.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import sympy as sp


def shortcut_expected_prediction_sym(m: Sequence, p) -> sp.Expr:
    """Sympy E[f] = prod_j (1 - p^{m_j}).

    >>> shortcut_expected_prediction_sym([2], sp.Rational(1, 2))
    3/4
    """
    return sp.Mul(*[1 - p**mj for mj in m])


def shortcut_conditional_sym(m: Sequence, counts: Sequence, p) -> sp.Expr:
    """Sympy E[f | c perturbed] = prod_j (1 - p^{m_j - c_j})."""
    return sp.Mul(*[1 - p ** (mj - cj) for mj, cj in zip(m, counts)])


def shortcut_conditional_as_written_sym(m: Sequence, counts: Sequence, p) -> sp.Expr:
    """The proof's prod_j (1 - (1 - p)^{m_j - c_j}); equals the true value only at p = 1/2."""
    return sp.Mul(*[1 - (1 - p) ** (mj - cj) for mj, cj in zip(m, counts)])


def shortcut_drop_sym(m: Sequence, counts: Sequence, p) -> sp.Expr:
    """Sympy drop E[f] - E[f | c perturbed].

    >>> shortcut_drop_sym([2], [1], sp.Rational(1, 2))
    1/4
    """
    return shortcut_expected_prediction_sym(m, p) - shortcut_conditional_sym(m, counts, p)


def shortcut_claim_eps_sym(m1, p) -> sp.Expr:
    """Sympy 1 - (1 - p)/(1 - p^{m_1}): Prop. 2's c*_1 = m_1 holds iff m_1 = 1 or eps exceeds this.

    >>> shortcut_claim_eps_sym(2, sp.Rational(1, 2))
    1/3
    """
    return 1 - (1 - p) / (1 - p**m1)


def shortcut_expected_prediction(m, p: float) -> float:
    """Numpy twin of :func:`shortcut_expected_prediction_sym`.

    >>> shortcut_expected_prediction([2, 1], 0.5)
    0.375
    """
    return float(np.prod(1.0 - p ** np.asarray(m, float)))


def shortcut_drop(m, counts, p: float) -> float:
    """Numpy twin of :func:`shortcut_drop_sym`.

    >>> shortcut_drop([2, 1], [0, 1], 0.5)
    0.375
    """
    m = np.asarray(m, float)
    c = np.asarray(counts, float)
    if np.any(c < 0) or np.any(c > m):
        raise ValueError(f"counts c must satisfy 0 <= c_j <= m_j, got c={c.tolist()}, m={m.tolist()}")
    return float(np.prod(1.0 - p**m) - np.prod(1.0 - p ** (m - c)))


def shortcut_claim_eps(m1: int, p: float) -> float:
    """Numpy twin of :func:`shortcut_claim_eps_sym`.

    Rational when ``p`` is a ``Fraction``:

    >>> from fractions import Fraction
    >>> shortcut_claim_eps(2, Fraction(1, 2))
    Fraction(1, 3)
    """
    return 1 - (1 - p) / (1 - p**m1)


def shortcut_optimal_counts(m, size: int, n_other: int = 0) -> np.ndarray:
    """Closed-form largest-drop counts of a given size (last entry: positions outside J).

    ``c = (l, 0, ..., 0)`` on the word of smallest multiplicity (lowest index
    among equals) for l < m_1; for l >= m_1 that word is fully perturbed and the
    rest of the budget fills the other positions in order (the drop is E[f]
    whatever the filling).

    >>> shortcut_optimal_counts([3, 2], 1, n_other=1).tolist()
    [0, 1, 0]
    """
    m = np.asarray(m, int)
    caps = np.append(m, n_other)
    if not 0 <= size <= int(caps.sum()):
        raise ValueError(f"size must lie in [0, {int(caps.sum())}], got {size}")
    first = int(np.argmin(m))
    c = np.zeros_like(caps)
    c[first] = min(size, m[first])
    left = size - c[first]
    for j in range(len(caps)):
        take = min(caps[j] - c[j], left)
        c[j] += take
        left -= take
    return c


def shortcut_optimal_counts_bruteforce(m, size: int, p: float, n_other: int = 0) -> tuple[float, list[np.ndarray]]:
    """Largest drop of a given size and every count vector attaining it (within 1e-12), by enumeration."""
    m = np.asarray(m, int)
    caps = np.append(m, n_other)
    best, argbest = -np.inf, []
    for c in itertools.product(*[range(k + 1) for k in caps]):
        if sum(c) != size:
            continue
        d = shortcut_drop(m, c[:-1], p)
        if d > best + 1e-12:
            best, argbest = d, [np.array(c)]
        elif abs(d - best) <= 1e-12:
            argbest.append(np.array(c))
    return best, argbest


def _rest_of_mean(m, p):
    """prod_{j >= 2} (1 - p^{m_j}): E[f] without the factor of one least frequent word (exact for ``Fraction`` p)."""
    m = [int(mj) for mj in m]
    rest = list(m)
    rest.remove(min(m))
    return math.prod(1 - p**mj for mj in rest)


def _check_baseline(baseline: str) -> str:
    if baseline not in ("mean", "original"):
        raise ValueError(f"baseline must be 'mean' or 'original', got {baseline!r}")
    return baseline


def shortcut_minimal_size(m, p: float, eps: float, max_len: int | None = None, *,
                          baseline: str = "mean") -> int | None:
    """l*, the size of the minimal candidates of Eq. (2) on the shortcut model; None if l* > max_len.

    Assumes f(xi) = 1 (every word of J occurs: each m_j >= 1). The best candidate of size l < m_1 is
    (l, 0, ..., 0), whose f given the candidate perturbed is F_l = (1 - p^{m_1 - l}) prod_{j >= 2} (1 - p^{m_j});
    it reaches the threshold iff

    * baseline "mean" (the paper, threshold eps E[f]): 1 - p^{m_1 - l} <= (1 - eps)(1 - p^{m_1});
    * baseline "original" (the authors' released code, threshold eps f(xi) = eps):
      (1 - p^{m_1 - l}) prod_{j >= 2} (1 - p^{m_j}) <= 1 - eps.

    l* is the smallest l >= 1 that does (l = m_1 always does, so l* <= m_1).

    >>> shortcut_minimal_size([2], 0.5, 0.15)   # Prop. 2 says 2
    1
    >>> shortcut_minimal_size([2], 0.5, 0.5)
    2
    >>> from fractions import Fraction
    >>> half = Fraction(1, 2)
    >>> shortcut_minimal_size([2, 3], half, half), shortcut_minimal_size([2, 3], half, half, baseline="original")
    (2, 1)

    (mean: 1/2 > (1/2)(3/4); original: (1/2)(7/8) = 7/16 <= 1/2.) Floats can put eps on either side of
    a boundary such as eps = 1/3 here; ``Fraction`` arguments decide it exactly.
    """
    _check_baseline(baseline)
    m1 = int(np.min(m))
    if baseline == "mean":
        target = (1 - eps) * (1 - p**m1)
        size = next(l for l in range(1, m1 + 1) if 1 - p ** (m1 - l) <= target)
    else:
        rest = _rest_of_mean(m, p)
        size = next(l for l in range(1, m1 + 1) if (1 - p ** (m1 - l)) * rest <= 1 - eps)
    return size if max_len is None or size <= max_len else None


def shortcut_claim_holds(m, p: float, eps: float, *, baseline: str = "mean") -> bool:
    """Whether Prop. 2's c*_1 = m_1 (with l_max >= m_1) agrees with :func:`shortcut_minimal_size`.

    >>> shortcut_claim_holds([2], 0.5, 0.15), shortcut_claim_holds([1, 4], 0.5, 0.15)
    (False, True)

    At eps equal to :func:`shortcut_claim_eps` the claim fails (l* = m_1 - 1);
    only ``Fraction`` arguments decide that comparison without rounding. With
    baseline "original" it holds iff m_1 = 1 or (1 - p) prod_{j >= 2} (1 - p^{m_j}) > 1 - eps:

    >>> shortcut_claim_holds([2, 3], 0.5, 0.5), shortcut_claim_holds([2, 3], 0.5, 0.5, baseline="original")
    (True, False)
    """
    _check_baseline(baseline)
    m1 = int(np.min(m))
    if baseline == "original":
        return m1 == 1 or (1 - p) * _rest_of_mean(m, p) > 1 - eps
    return m1 == 1 or eps > shortcut_claim_eps(m1, p)


@dataclass(frozen=True)
class ShortcutModel:
    """f(z) = 1 if every word of ``words`` occurs in z.split(), else 0.

    Calling the model returns f as an (n,) float array; :meth:`predict_proba`
    returns scikit-learn style (n, 2) probabilities [1 - f, f].

    >>> ShortcutModel(("good",))(["good food", "UNK food"]).tolist()
    [1.0, 0.0]
    """

    words: tuple[str, ...]

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([float(all(w in set(t.split()) for w in self.words)) for t in texts])

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        """Two columns, 1 - f and f, as a scikit-learn classifier's ``predict_proba``."""
        f = self(texts)
        return np.column_stack([1.0 - f, f])

    def multiplicities(self, tokens: Sequence[str]) -> list[int]:
        """m_j: occurrences of each word of J in ``tokens``, in the order of ``words``; each must be >= 1.

        >>> ShortcutModel(("good", "fresh")).multiplicities("good fresh good".split())
        [2, 1]
        """
        m = [list(tokens).count(w) for w in self.words]
        if min(m) < 1:
            raise ValueError(f"every word of J must occur in tokens (f(xi) = 1), got multiplicities {m}")
        return m

    def expected_prediction(self, tokens: Sequence[str], p: float) -> float:
        """E[f] = prod_j (1 - p^{m_j}) under mask sampling of ``tokens``.

        >>> ShortcutModel(("good",)).expected_prediction("good food good".split(), 0.5)
        0.75
        """
        return shortcut_expected_prediction(self.multiplicities(tokens), p)

    def drop(self, tokens: Sequence[str], positions: Sequence[int], p: float) -> float:
        """Drop of perturbing ``positions``: only their occurrences of words of J count (Prop. 2's proof).

        >>> ShortcutModel(("good",)).drop("good food good".split(), [0, 1], 0.5)
        0.25
        """
        counts = [sum(tokens[i] == w for i in set(positions)) for w in self.words]
        return shortcut_drop(self.multiplicities(tokens), counts, p)

    def minimal_size(self, tokens: Sequence[str], p: float, eps: float, max_len: int | None = None, *,
                     baseline: str = "mean") -> int | None:
        """l*, the size of FRED's explanation of ``tokens``; see :func:`shortcut_minimal_size`.

        >>> ShortcutModel(("good",)).minimal_size("good food good".split(), 0.5, 0.15)
        1
        """
        return shortcut_minimal_size(self.multiplicities(tokens), p, eps, max_len, baseline=baseline)
