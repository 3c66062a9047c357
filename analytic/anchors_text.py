"""Anchors on text, exactly: precision and coverage of every anchor under anchor-exp's UNK perturbation.

Read from the installed ``anchor-exp`` 0.0.2.0 (``anchor/anchor_text.py``, ``anchor/anchor_base.py``) with
``use_unk_distribution=True`` (the evaluation's setting): for each word i outside the anchor, the sampler draws
n_changed ~ Binomial(n, 1/2) and replaces word i by ``"UNK"`` in n_changed rows chosen uniformly without
replacement. A binomial number of uniformly chosen rows is the same law as an independent fair coin per row, so
in every row each non-anchor word is replaced with probability 1/2, independently of the others and of the other
rows; anchor words are always kept. Hence, for an anchor A (a set of kept positions) and the classifier's label
l(z) on each pattern z,

    precision(A) = P(l(z) = l(x) | A kept) = #{codes c with c & A = 0 and l(c) = l(x)} / 2^(b - |A|),
    coverage(A)  = P(A kept) = 2^(-|A|)  under the same perturbation without an anchor.

anchor-exp's explain_instance asks for precision >= ``threshold`` (0.95), stops at the first size that has one
(``stop_on_first=True``) and estimates coverage from a single sample (``coverage_samples=1``), so its reported
coverage is 0 or 1; the exact coverage above is the quantity it stands for. Here the labels are exact integers,
so precisions and coverages are Fractions and every comparison with the threshold is exact.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .patterns import check_b, code_of, popcounts, positions_of, superset_sums, table_b

#: ``AnchorText.explain_instance(threshold=0.95)``.
ANCHOR_THRESHOLD = Fraction(95, 100)


@dataclass(frozen=True)
class Anchor:
    """An anchor (kept positions), its exact precision and coverage, and whether it is minimal: no proper
    subset meets the threshold."""

    positions: tuple[int, ...]
    precision: Fraction
    coverage: Fraction
    minimal: bool

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (precision and coverage as floats)."""
        return {"positions": list(self.positions), "precision": float(self.precision),
                "coverage": float(self.coverage), "minimal": self.minimal}


def _labels(labels) -> tuple[np.ndarray, int]:
    """The label table as an int array of length 2^b, and b; TypeError/ValueError otherwise."""
    array = np.asarray(labels)
    if array.dtype.kind not in "iub":
        raise TypeError(f"labels must hold integer class labels, got dtype {array.dtype}")
    return array.astype(np.int64), table_b(array, "labels")


def _anchor_code(anchor: Sequence[int], b: int) -> int:
    """The code of ``anchor``'s positions; ValueError naming the anchor unless they lie in [0, b - 1]."""
    code = code_of(anchor)
    if code >= 2**b:
        raise ValueError(f"anchor positions must lie in [0, {b - 1}], got {sorted(anchor)}")
    return code


def _check_threshold(threshold) -> Fraction:
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise TypeError(f"threshold must be a real number in [0, 1], got {type(threshold).__name__}")
    threshold = Fraction(str(threshold)) if isinstance(threshold, float) else Fraction(threshold)
    if not 0 <= threshold <= 1:
        raise ValueError(f"threshold must lie in [0, 1], got {float(threshold)!r}")
    return threshold


def agreement_counts(labels) -> np.ndarray:
    """For every anchor code A (bits = kept positions), #{codes c: c & A = 0 and l(c) = l(x)}.

    The codes disjoint from A are the subsets of its complement; reversing the array (c -> ~c) turns subset sums
    into superset sums, so one zeta transform gives all 2^b counts.

    >>> agreement_counts([1, 1, 0, 0]).tolist()   # the label needs position 1 kept
    [2, 1, 2, 1]
    """
    labels, _ = _labels(labels)
    agree = (labels == labels[0]).astype(float)
    return np.rint(superset_sums(agree[::-1])).astype(np.int64)


def anchor_precision(labels, anchor: Sequence[int]) -> Fraction:
    """Exact precision of ``anchor`` (positions kept): the share of its 2^(b - |A|) patterns with l = l(x).

    >>> anchor_precision([1, 1, 0, 0], [1]), anchor_precision([1, 1, 0, 0], [])
    (Fraction(1, 1), Fraction(1, 2))
    """
    labels, b = _labels(labels)
    code = _anchor_code(anchor, b)
    free = np.arange(2**b)
    free = free[free & code == 0]
    return Fraction(int(np.sum(labels[free] == labels[0])), free.size)


def anchor_coverage(b: int, anchor: Sequence[int]) -> Fraction:
    """Exact coverage 2^(-|A|) of ``anchor`` under the UNK perturbation of a b-token document.

    >>> anchor_coverage(5, [0, 3])
    Fraction(1, 4)
    """
    return Fraction(1, 2 ** _anchor_code(anchor, check_b(b)).bit_count())


def anchors_meeting(labels, threshold=ANCHOR_THRESHOLD) -> tuple[Anchor, ...]:
    """Every anchor with precision >= ``threshold``, smallest first (then higher precision, then positions).

    The first entries are the minimal-size anchors, the ones anchor-exp's beam (stopping at the first size that
    has one) looks for; ``minimal`` marks those with no proper subset meeting the threshold.

    >>> [(a.positions, a.precision, a.minimal) for a in anchors_meeting([1, 1, 0, 0])]
    [((1,), Fraction(1, 1), True), ((0, 1), Fraction(1, 1), False)]
    """
    labels, b = _labels(labels)
    threshold = _check_threshold(threshold)
    counts = agreement_counts(labels)
    size = popcounts(b)  # here: the number of kept (anchor) positions of an anchor code
    meets = np.array([Fraction(int(counts[a]), 2 ** (b - int(size[a]))) >= threshold for a in range(2**b)])
    # an anchor is minimal iff it meets and no anchor obtained by dropping one position meets (meeting is not
    # monotone, so every proper subset is checked through the "some subset meets" superset propagation)
    below = np.zeros(2**b, dtype=bool)
    for a in sorted(range(2**b), key=lambda c: size[c]):
        below[a] = any(meets[a ^ 1 << i] or below[a ^ 1 << i] for i in positions_of(a))
    found = [Anchor(positions_of(a), Fraction(int(counts[a]), 2 ** (b - int(size[a]))), Fraction(1, 2 ** int(size[a])),
                    not below[a]) for a in range(2**b) if meets[a]]
    return tuple(sorted(found, key=lambda x: (len(x.positions), -x.precision, x.positions)))
