"""The 2^b perturbation patterns of a b-token document: codes, their probabilities, superset sums.

A pattern is an integer code whose bit i is set when position i is perturbed; it has probability
p^k (1 - p)^(b - k) with k perturbed positions. A table of f holds f(pattern) for codes 0 .. 2^b - 1 (code 0 is
the original document). Every module of ``analytic`` that enumerates patterns builds on these.
"""

from __future__ import annotations

import numbers
from typing import Sequence

import numpy as np

from fred_constants import MAX_TOKENS


def check_b(b: int) -> int:
    """``b`` as an int, or TypeError/ValueError unless it is an integer in [1, MAX_TOKENS] (the largest document
    the referee enumerates).

    >>> check_b(3)
    3
    """
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
        raise TypeError(f"the number of tokens b must be an integer in [1, {MAX_TOKENS}], got {type(b).__name__}")
    if not 1 <= b <= MAX_TOKENS:
        raise ValueError(f"the number of tokens b must be an integer in [1, {MAX_TOKENS}], got {b!r}")
    return int(b)


def check_max_len(max_len) -> int:
    """``max_len`` as an int, or TypeError/ValueError unless it is an integer >= 1 (the one check of analytic).

    >>> check_max_len(10)
    10
    """
    if isinstance(max_len, bool) or not isinstance(max_len, numbers.Integral):
        raise TypeError(f"max_len must be an integer >= 1, got {type(max_len).__name__}")
    if max_len < 1:
        raise ValueError(f"max_len must be an integer >= 1, got {max_len!r}")
    return int(max_len)


def table_b(values, name: str = "table", *, batch: bool = False) -> int:
    """The b of a table holding one entry per pattern code: ``values`` (anything ``np.shape`` reads) must be 1-d
    of length 2^b with b >= 1 (ValueError naming ``name`` otherwise), and b is checked by :func:`check_b`.
    With ``batch``, ``values`` is a batch of such tables, one per row of a 2-d array (no rows at all included).

    >>> table_b([1, 0, 0, 0])
    2
    >>> table_b(np.zeros((0, 8)), "tables", batch=True)
    3
    >>> table_b([1, 0, 0], "labels")
    Traceback (most recent call last):
    ...
    ValueError: labels must be a 1-d array of length 2**b (b >= 1), got shape (3,)
    """
    shape = np.shape(values)
    size = int(shape[-1]) if len(shape) == 1 + batch else 0
    b = size.bit_length() - 1
    if size != 2**b or b < 1:
        what = "a 2-d array of rows" if batch else "a 1-d array"
        raise ValueError(f"{name} must be {what} of length 2**b (b >= 1), got shape {shape}")
    return check_b(b)


def check_table(table) -> tuple[np.ndarray, int]:
    """``table`` as a float array of length 2^b, and b; ValueError unless it is one.

    >>> check_table([1, 0, 0, 0])[1]
    2
    """
    table = np.asarray(table, dtype=float)
    return table, table_b(table)


def pattern_weights(b: int, p: float) -> np.ndarray:
    """Probability of each code: p^k (1 - p)^(b - k), built one position at a time.

    >>> pattern_weights(2, 0.25).tolist()
    [0.5625, 0.1875, 0.1875, 0.0625]
    """
    b = check_b(b)
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie in (0, 1), got {p!r}")
    w = np.ones(1)
    for _ in range(b):  # position i becomes bit i: the upper half has it perturbed
        w = np.concatenate([w * (1.0 - p), w * p])
    return w


def popcounts(b: int) -> np.ndarray:
    """Number of perturbed positions of each code.

    >>> popcounts(2).tolist()
    [0, 1, 1, 2]
    """
    k = np.zeros(1, dtype=np.int64)
    for _ in range(check_b(b)):
        k = np.concatenate([k, k + 1])
    return k


def code_of(positions: Sequence[int]) -> int:
    """Code of a position set: sum of 2^i.

    >>> code_of([0, 2])
    5
    """
    positions = {int(i) for i in positions}
    if any(i < 0 for i in positions):
        raise ValueError(f"positions must be non-negative integers, got {sorted(positions)}")
    return sum(1 << i for i in positions)


def positions_of(code: int) -> tuple[int, ...]:
    """Sorted positions of a code.

    >>> positions_of(5)
    (0, 2)
    """
    return tuple(i for i in range(int(code).bit_length()) if code >> i & 1)


def superset_sums(values: np.ndarray) -> np.ndarray:
    """s[S] = sum over codes T containing S of values[T] (zeta transform over bits, O(b 2^b)); ``values`` holds
    one entry per code (:func:`table_b`).

    >>> superset_sums([1.0, 2.0, 3.0, 4.0]).tolist()
    [10.0, 6.0, 7.0, 4.0]
    """
    s = np.array(values, dtype=float)
    for i in range(table_b(s, "values")):
        view = s.reshape(-1, 2, 2**i)  # axis 1 is bit i
        view[:, 0, :] += view[:, 1, :]
    return s
