"""The probability, under FRED's sampling scheme, that every candidate of size <= l_max is absent from (entirely
perturbed in) at least one of the n samples: the computations of claim sampling-absence
(:mod:`proofs_checks.claims.lemmas.sampling_absence`), in exact rationals wherever a closed form or an enumeration
exists.

FRED's scheme (:class:`fred.sampling.MaskSampler`, section 2.3, line 355): each of the n rows perturbs each of the b
positions independently with probability p; n is FRED's default, Lemma 2 with l = min(l_max, b) (the paper's n =
3067 for b >= l_max at the defaults). For b <= l_max the whole document is a candidate, so the joint probability is
its coverage 1 - (1 - p^b)^n; for b = l_max + 1 it has the closed form :func:`analytic.lemma2.joint_coverage_one_out`;
for longer documents it is at most the value at l_max + 1 (the first l_max + 1 positions' candidates are among the
document's, and their rows are the same i.i.d. coordinates) and at most the disjoint-block bound
:func:`analytic.lemma2.joint_coverage_blocks`.
"""

from __future__ import annotations

import csv
import math
from fractions import Fraction

import numpy as np

from analytic import covers
from analytic.exact_cache import exact_cache
from analytic.lemma2 import joint_coverage_blocks, joint_coverage_one_out
from fred import sample_size
from fred.evaluation.config import results_dir
from fred.sampling import MaskSampler
from fred_constants import ALPHA, ALPHA_EXACT, MAX_LEN, P_EXACT, P

from ...statistics.intervals import clopper_pearson

#: The committed per-document results whose n_tokens are the experiments' document lengths (the paper's p and eps).
RESULTS_GLOB = "*_p0.5_eps0.15*.csv"


def scheme_n(b: int) -> int:
    """FRED's default n for a b-token document: Lemma 2 with l = min(l_max, b) at the paper's alpha and p."""
    return sample_size(ALPHA, P, min(MAX_LEN, b))


@exact_cache(copy=True)
def experiment_lengths() -> dict[int, int]:
    """{b: number of documents} over the documents of the committed experiments (one per dataset and test index,
    whatever the run, model or explainer; a document whose rows disagree on n_tokens raises ValueError)."""
    seen: dict[tuple[str, str], int] = {}
    for path in sorted(results_dir().glob(RESULTS_GLOB)):
        dataset = path.name.split("_")[0]
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                key, b = (dataset, row["test_index"]), int(row["n_tokens"])
                if seen.setdefault(key, b) != b:
                    raise ValueError(f"document {key} has n_tokens {seen[key]} and {b} in the results")
    counts: dict[int, int] = {}
    for b in seen.values():
        counts[b] = counts.get(b, 0) + 1
    return dict(sorted(counts.items()))


@exact_cache
def one_out_at_defaults() -> Fraction:
    """The joint probability for b = l_max + 1 at the scheme's n, p = 1/2: exact (Fractions)."""
    return joint_coverage_one_out(MAX_LEN + 1, scheme_n(MAX_LEN + 1), P_EXACT)


def joint_at_scheme(b: int) -> dict:
    """The joint probability for a b-token document at the scheme's n: exact for b <= l_max + 1, else the smaller of
    the two exact upper bounds (the value at l_max + 1, the disjoint blocks)."""
    n = scheme_n(b)
    if b <= MAX_LEN:
        value = 1 - (1 - P_EXACT**b) ** n
        return {"b": b, "n": n, "exact": True, "value": value, "how": "whole document: 1 - (1 - 2^-b)^n"}
    if b == MAX_LEN + 1:
        return {"b": b, "n": n, "exact": True, "value": one_out_at_defaults(), "how": "closed form, b = l_max + 1"}
    blocks = _blocks(b // MAX_LEN, n)
    value, how = min((one_out_at_defaults(), "at most the value at b = l_max + 1"),
                     (blocks, f"at most the {b // MAX_LEN} disjoint blocks' coverage"))
    return {"b": b, "n": n, "exact": False, "value": value, "how": how}


#: The thresholds "with high probability" is read against (readings alpha, above-0.99, one-minus-one-over-b).
THRESHOLDS = {"alpha": lambda b: ALPHA_EXACT, "0.99": lambda b: Fraction(99, 100),
              "1-1/b": lambda b: 1 - Fraction(1, b)}


@exact_cache
def _blocks(count: int, n: int) -> Fraction:
    """The disjoint-block bound of ``count`` blocks of l_max positions at n rows (the same for every b with that many
    blocks), computed once."""
    return joint_coverage_blocks(count * MAX_LEN, n, P_EXACT, MAX_LEN)


@exact_cache(copy=True)
def documents_table() -> list[dict]:
    """Per experiment length b: its documents, the scheme's n, the joint probability (exact) or an exact upper bound
    (as a float; compared exactly), for each threshold whether it is reached ('reached'), missed ('missed': the exact
    value or an upper bound below it) or undecided (an upper bound above it), and the union-bound n that reaches
    alpha (reading grows-with-n)."""
    rows = []
    for b, documents in experiment_lengths().items():
        row = joint_at_scheme(b)
        value = row.pop("value")
        verdicts = {name: ("reached" if row["exact"] and value >= level(b) else "missed" if value < level(b)
                           else "undecided") for name, level in THRESHOLDS.items()}
        rows.append({**row, "documents": documents, "value_float": float(value), "thresholds": verdicts,
                     "n_union_bound": union_bound_n(b)})
    return rows


def union_bound_n(b: int) -> int:
    """The smallest n with C(b, l) (1 - p^l)^n <= 1 - alpha, l = min(l_max, b), decided exactly (analytic.covers):
    with that many rows every candidate of size <= l_max is absent from some row with probability >= alpha."""
    size = min(MAX_LEN, b)
    target = 1 - (1 - ALPHA_EXACT) / math.comb(b, size)  # C (1 - q)^n <= 1 - alpha  <=>  (1 - q)^n <= 1 - target
    n = max(1, math.ceil(math.log((1 - ALPHA) / math.comb(b, size)) / math.log1p(-float(P_EXACT) ** size)))
    while n > 1 and covers(target, n - 1, P_EXACT, size):
        n -= 1
    while not covers(target, n, P_EXACT, size):
        n += 1
    return n


def union_bound_reaches(b: int, n: int) -> bool:
    """Whether the exact union lower bound 1 - C(b, l) (1 - p^l)^n, l = min(l_max, b), is >= alpha at n rows."""
    size = min(MAX_LEN, b)
    return 1 - math.comb(b, size) * (1 - P_EXACT**size) ** n >= ALPHA_EXACT


def fred_sampler_runs(b: int, sims: int, seed: int, delta: float) -> dict:
    """``sims`` designs of FRED's own sampler (MaskSampler.draw, the scheme's n rows of b positions): how many leave
    no size-min(l_max, b) candidate present in every row, with its Clopper-Pearson interval at ``delta``."""
    size, n = min(MAX_LEN, b), scheme_n(b)
    targets = np.array([sum(1 << i for i in range(b) if i not in gap) for gap in _gaps(b, b - size)], dtype=np.int64)
    rng, sampler, bits = np.random.default_rng(seed), MaskSampler(), 1 << np.arange(b, dtype=np.int64)
    hits = 0
    for _ in range(sims):
        codes = sampler.draw(b, P, n, rng).perturbed.astype(np.int64) @ bits
        hits += bool(((codes[:, None] & targets) == targets).any(axis=0).all())
    low, high = (float(x) for x in clopper_pearson(hits, sims, delta))
    return {"b": b, "n": n, "sims": sims, "all_absent_somewhere": hits, "interval": [low, high], "seed": seed,
            "false_alarm_probability": delta, "sampler": "fred.sampling.MaskSampler.draw"}


def _gaps(b: int, k: int) -> list[tuple[int, ...]]:
    """The position sets of size k (the complement of each size-(b - k) candidate); only k <= 1 is used."""
    if k == 0:
        return [()]
    if k == 1:
        return [(i,) for i in range(b)]
    raise ValueError("fred_sampler_runs checks candidates of size b or b - 1 only")
