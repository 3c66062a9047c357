"""Perturbation samplers and the sample size of Lemma 2.

A sampler has two jobs, kept apart so that other issues can swap either one:

* ``draw(n_tokens, p, n_samples, rng)`` returns a :class:`Perturbations`: a boolean
  matrix whose row ``i`` marks the positions perturbed in sample ``i``, and the
  weight of each row. Every drop FRED computes is a weighted mean over rows, so
  the Monte Carlo estimate of Eq. (3) (equal weights ``1/n``) and the exact
  expectation of Eq. (1) (all ``2**b`` patterns, weight ``p**k (1-p)**(b-k)``)
  share one code path.
* ``render(tokens, perturbed, rng)`` turns the rows into the texts given to the
  model.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, Sequence, runtime_checkable

import mpmath
import numpy as np

from fred_constants import MASK_TOKEN, MAX_LEN, P

from .validation import check_positive_int, check_probability

#: Largest sample size :func:`sample_size` returns before refusing.
MAX_SAMPLES = 10_000_000
#: Largest document the exact sampler enumerates (2**20 patterns).
MAX_EXACT_TOKENS = 20


def sample_size(alpha: float, p: float = P, max_len: int = MAX_LEN) -> int:
    """Smallest n such that a candidate of size ``max_len`` is perturbed in some row with probability >= alpha.

    Lemma 2 in general form: a candidate of size l is entirely perturbed in one
    row with probability ``p**l``, so it is covered by at least one of n rows with
    probability ``1 - (1 - p**l)**n``, and

        n = ceil(log(1 - alpha) / log(1 - p**max_len)).

    The paper writes the lemma for p = 1/2. The value returned is checked to be
    minimal in floating point (n - 1 rows do not reach alpha).

    >>> sample_size(0.95, 0.5, 10)
    3067
    >>> sample_size(0.95, p=0.5, max_len=1)
    5

    Raises
    ------
    ValueError
        If ``alpha`` or ``p`` is outside (0, 1), ``max_len < 1``, or the sample
        size would exceed :data:`MAX_SAMPLES`.
    """
    return _minimal_sample_size(check_probability(alpha, "alpha"), check_probability(p, "p"),
                                check_positive_int(max_len, "max_len"))


@functools.lru_cache(maxsize=4096)
def _minimal_sample_size(alpha: float, p: float, max_len: int) -> int:
    """:func:`sample_size` of checked arguments, computed once per (alpha, p, max_len).

    Every explanation with the default ``n_samples`` asks for it, and the
    50-digit check of :func:`_covers` took a tenth of the time of a small
    document's explanation.
    """
    log_miss = math.log1p(-(p**max_len))  # log of the chance one row misses the candidate
    target = math.log1p(-alpha)
    if log_miss == 0.0 or target / log_miss > MAX_SAMPLES:
        raise ValueError(
            f"sample_size(alpha={alpha}, p={p}, max_len={max_len}) exceeds {MAX_SAMPLES} samples; "
            "raise p, lower max_len or alpha, or pass n_samples explicitly"
        )
    n = max(1, math.ceil(target / log_miss))
    # The float quotient can be one off at a boundary; settle on the true minimum.
    while n > 1 and _covers(alpha, n - 1, p, max_len):
        n -= 1
    while not _covers(alpha, n, p, max_len):
        n += 1
    return n


def _covers(alpha: float, n: int, p: float, max_len: int) -> bool:
    """Whether (1 - p**max_len)**n <= 1 - alpha for the binary floats p and alpha.

    Decided with 50-digit logarithms; near-equality (which needs a short
    rational, hence a small n) is settled in rational arithmetic.
    """
    with mpmath.workdps(50):
        gap = n * mpmath.log1p(-mpmath.mpf(p) ** max_len) - mpmath.log1p(-mpmath.mpf(alpha))
        if abs(gap) > mpmath.mpf(10) ** -40 or n > 200:
            return gap <= 0
    return (1 - Fraction(p) ** max_len) ** n <= 1 - Fraction(alpha)


@dataclass(frozen=True)
class Perturbations:
    """Rows of a perturbation design: ``perturbed[i, j]`` is True when position j is perturbed in row i."""

    perturbed: np.ndarray
    weights: np.ndarray


@runtime_checkable
class Sampler(Protocol):
    """What :class:`fred.Fred` needs from a sampler.

    Optionally a sampler may define ``render_with_stats(tokens, perturbed, rng)``,
    returning the texts and what rendering them did (e.g.
    :meth:`fred.pos.PosSampler.render_with_stats`); FRED calls it instead of
    ``render`` and puts the statistics on the explanation as ``sampler_stats``. A sampler keeps no state across
    calls: the generator passed to ``draw`` and ``render`` is its only randomness.
    """

    name: str
    exact: bool

    def draw(self, n_tokens: int, p: float, n_samples: int, rng: np.random.Generator) -> Perturbations:
        """Draw ``n_samples`` perturbation patterns of ``n_tokens`` tokens, each perturbed with probability ``p``,
        with their weights."""

    def render(self, tokens: Sequence[str], perturbed: np.ndarray, rng: np.random.Generator) -> list[str]:
        """The perturbed texts: ``tokens`` with the positions ``perturbed`` marks replaced, one text per row."""


#: Positions per block in :func:`render_masked` for many rows (2**8 variants joined once per block).
_RENDER_BLOCK = 8


def render_masked(tokens: Sequence[str], perturbed: np.ndarray, mask_token: str) -> list[str]:
    """Texts with every perturbed position replaced by ``mask_token``.

    Row i is ``" ".join(mask_token if perturbed[i, j] else tokens[j] for j in range(b))``.
    For many rows the positions are cut into blocks of ``_RENDER_BLOCK``; every
    masking variant of a block is joined once, and a row joins the variants its
    pattern selects, which is the same string (joining with single spaces is
    associative) built from b / 8 pieces instead of b. Single rows use blocks of 1.
    At most two blocks (a small document) are made equal halves, the second
    half's variants carry the separating space, and a row is one concatenation
    of two variants, done by numpy over all rows: 0.09 against 0.43 ms for 963
    rows of 10 tokens. With more blocks the concatenations would copy each text
    once per block, and joining is faster (26 against 10 ms for 5000 rows of 150 tokens).

    >>> render_masked(["a", "b", "c"], np.array([[False, True, False], [True, True, True]]), "UNK")
    ['a UNK c', 'UNK UNK UNK']
    """
    n, b = perturbed.shape
    width = _RENDER_BLOCK if n >= 2**_RENDER_BLOCK else 1
    n_blocks = -(-b // width)
    concatenate = n_blocks <= 2
    if concatenate:
        width = -(-b // n_blocks)
    padded = np.zeros((n, n_blocks * width), dtype=np.intp)
    padded[:, :b] = perturbed
    # A block's code has its first position as the most significant bit, the order itertools.product enumerates.
    codes = padded.reshape(n, n_blocks, width) @ (1 << np.arange(width - 1, -1, -1))
    table = np.empty((n_blocks, 2**width), dtype=object)
    if width == 1 and not concatenate:
        table[:, 0], table[:, 1] = list(tokens), mask_token
    else:
        for k in range(n_blocks):
            block = tokens[k * width : (k + 1) * width]
            lead = " " if concatenate and k else ""
            variants = [lead + " ".join(v) for v in itertools.product(*[(t, mask_token) for t in block])]
            table[k, np.arange(len(variants)) << (width - len(block))] = variants  # padding bits are 0
    if concatenate:
        texts = table[0, codes[:, 0]]
        return (texts + table[1, codes[:, 1]] if n_blocks == 2 else texts).tolist()
    return list(map(" ".join, table[np.arange(n_blocks), codes].tolist()))


#: Most positions :func:`masked_text_groups` encodes in one int64 code per row.
_MAX_CODE_BITS = 62


def first_occurrences(codes: np.ndarray, n_codes: int) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct value of ``codes`` (ints in [0, ``n_codes``)), in row order, and each row's
    index among those first rows.

    Values are found through a table of ``n_codes`` entries when it is at most
    four times the rows (``np.minimum.at`` keeps each value's first row, no
    sort), else by a stable sort (``np.unique(return_index=True)`` took 0.8 ms
    for 3067 codes, the table 0.02 ms).

    >>> first, inverse = first_occurrences(np.array([3, 1, 3, 0, 1]), 4)
    >>> first.tolist(), inverse.tolist()
    ([0, 1, 3], [0, 1, 0, 2, 1])
    """
    n = len(codes)
    if n_codes <= 4 * n:
        first_row = np.full(n_codes, n, dtype=np.intp)
        np.minimum.at(first_row, codes, np.arange(n))
        first = np.sort(first_row[first_row < n])
        index = np.empty(n_codes, dtype=np.intp)
        index[codes[first]] = np.arange(len(first))
        return first, index[codes]
    order = np.argsort(codes, kind="stable")
    starts = np.empty(n, dtype=bool)
    starts[:1] = True
    np.not_equal(codes[order[1:]], codes[order[:-1]], out=starts[1:])
    first = order[starts]  # stable: the smallest row of each value, values ascending
    by_row = np.argsort(first)
    index = np.empty(len(first), dtype=np.intp)
    index[by_row] = np.arange(len(first))
    inverse = np.empty(n, dtype=np.intp)
    inverse[order] = index[np.cumsum(starts) - 1]
    return first[by_row], inverse


def masked_text_groups(tokens: Sequence[str], perturbed: np.ndarray, mask_token: str
                       ) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of :func:`render_masked` whose text appears first (in row order), and each row's index among
    them, found from the patterns without rendering; None when more than 62 positions hold another token
    than ``mask_token``, or when ``mask_token`` is not one whitespace-free token (a :class:`MaskSampler` built
    directly is not checked as ``Fred(mask_token=...)`` is): with ``mask_token = "a b"`` masking positions
    {0, 1} or {2, 3} of ``a b a b`` renders the same text.

    Tokens (as ``str.split`` returns them) are non-empty and whitespace-free, so a text splits back into its
    tokens and two rows render equal exactly when their patterns agree on the
    positions whose token is not the mask token. Those positions' bits make
    one integer per row, and equal texts are equal integers.

    >>> first, inverse = masked_text_groups(["a", "UNK", "c"], np.array([[0, 1, 0], [0, 0, 0], [1, 0, 0]], bool),
    ...                                     "UNK")
    >>> first.tolist(), inverse.tolist()
    ([0, 2], [0, 0, 1])
    """
    if not isinstance(mask_token, str) or mask_token.split() != [mask_token]:
        return None  # a sampler built directly with a spaced (or no str) mask: texts of other patterns may agree
    shown = np.array([token != mask_token for token in tokens], dtype=bool)
    n_shown = int(shown.sum())
    if n_shown > _MAX_CODE_BITS:
        return None
    bits = np.zeros(len(tokens), dtype=np.int64)  # mask-token positions weigh 0 (cheaper than selecting columns)
    bits[shown] = 1 << np.arange(n_shown, dtype=np.int64)
    return first_occurrences(perturbed @ bits, 1 << n_shown)


class MaskSampler:
    """Mask sampling (section 2.3): each position independently perturbed with probability p.

    Rows are drawn i.i.d. and weighted ``1/n``, which gives the empirical drop of Eq. (3).
    """

    name = "mask"
    exact = False

    def __init__(self, mask_token: str = MASK_TOKEN):
        self.mask_token = mask_token

    def draw(self, n_tokens: int, p: float, n_samples: int, rng: np.random.Generator) -> Perturbations:
        """Independent Bernoulli(``p``) patterns, weight 1/n each."""
        perturbed = rng.random((n_samples, n_tokens)) < p
        return Perturbations(perturbed, np.full(n_samples, 1.0 / n_samples))

    def render(self, tokens: Sequence[str], perturbed: np.ndarray, rng: np.random.Generator) -> list[str]:
        """Each perturbed position replaced by the mask token."""
        return render_masked(tokens, perturbed, self.mask_token)


class ExactSampler(MaskSampler):
    """All ``2**b`` mask patterns, pattern with k perturbed positions weighted ``p**k (1-p)**(b-k)``.

    Weighted means over these rows are the expectations of Eq. (1), so drops are
    exact rather than Monte Carlo. ``n_samples`` is ignored.
    """

    name = "exact"
    exact = True

    def draw(self, n_tokens: int, p: float, n_samples: int | None, rng: np.random.Generator) -> Perturbations:
        """All 2**b patterns, each weighted by its probability (``n_samples`` ignored); ValueError beyond
        :data:`~fred.sampling.MAX_EXACT_TOKENS` tokens."""
        if n_tokens > MAX_EXACT_TOKENS:
            raise ValueError(
                f"sampler='exact' enumerates 2**b patterns and accepts at most b={MAX_EXACT_TOKENS} tokens, "
                f"got b={n_tokens}; use sampler='mask'"
            )
        p = float(p)  # what math.log reads of any real p; a hashable key
        if n_tokens > _CACHED_EXACT_TOKENS:
            return Perturbations(*_exact_design(n_tokens, p))
        perturbed, weights = _cached_exact_design(n_tokens, p)
        return Perturbations(perturbed.copy(), weights.copy())  # callers own their arrays (explanations expose them)


#: Largest b whose exact design is cached (4096 rows; a small exact explanation spent a twentieth of its time
#: building its design).
_CACHED_EXACT_TOKENS = 12


def _exact_design(n_tokens: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """Every pattern of ``n_tokens`` positions in code order (row c perturbs the positions of c's set bits) and its
    probability ``p**k (1-p)**(b-k)``."""
    codes = np.arange(2**n_tokens)
    perturbed = ((codes[:, None] >> np.arange(n_tokens)) & 1).astype(bool)
    k = perturbed.sum(axis=1)
    return perturbed, np.exp(k * math.log(p) + (n_tokens - k) * math.log1p(-p))


_cached_exact_design = functools.lru_cache(maxsize=64)(_exact_design)


def make_sampler(sampler, mask_token: str) -> Sampler:
    """Resolve ``"mask"``, ``"exact"`` or a sampler object."""
    if isinstance(sampler, str):
        if sampler == "mask":
            return MaskSampler(mask_token)
        if sampler == "exact":
            return ExactSampler(mask_token)
        if sampler == "pos":
            raise ValueError("sampler='pos' needs a corpus to build its dictionaries: pass "
                             "sampler=fred.pos.PosSampler(corpus) (requires the 'pos' extra)")
        raise ValueError(f"sampler must be 'mask', 'exact' or a Sampler object, got {sampler!r}")
    if not isinstance(sampler, Sampler):
        raise TypeError(f"sampler must be 'mask', 'exact' or a Sampler object, got {type(sampler).__name__}")
    return sampler
