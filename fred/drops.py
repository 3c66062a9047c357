"""Drops of candidates as weighted means over perturbation rows (Eqs. 1 and 3).

With rows ``x_i``, weights ``w_i`` (``1/n`` for Monte Carlo, pattern
probabilities for the exact sampler) and per-row drops ``d_i``, the drop of a
candidate c is

    drop(c) = sum_{i : c perturbed in x_i} w_i d_i / sum_{i : c perturbed in x_i} w_i,

undefined when no row perturbs all of c (``n_c = 0``). With ``d_i = mean f - f(x_i)``
this is Eq. (3); with exact weights it is Eq. (1).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from threadpoolctl import ThreadpoolController

#: Upper bound on ``rows * prefixes * prefix length`` booleans materialised at once.
_CHUNK_CELLS = 20_000_000


@cache
def _blas_controller() -> ThreadpoolController:
    """One controller of the loaded BLAS libraries (finding them takes milliseconds).

    The products below are thin (a few beam prefixes, or few columns), so BLAS
    threads gain nothing; on a busy machine OpenBLAS threads waiting for a core
    made a (4 x 5000) @ (5000 x 150) product 300x slower than one thread.
    """
    return ThreadpoolController()


def extension_drops(perturbed: np.ndarray, weights: np.ndarray, d: np.ndarray, prefixes: np.ndarray):
    """Drop of ``S | {j}`` for every prefix S (a row of ``prefixes``) and every position j.

    One matrix product per chunk of prefixes: the indicators of the rows
    covered by S, weighted by ``w d`` and by ``w``, times the perturbation
    matrix. (Weighting the few covered-row vectors rather than the (n, b)
    matrix keeps the per-call work at one pass over the matrix.)

    Parameters
    ----------
    perturbed : (n, b) bool array
    weights : (n,) float array, positive
    d : (n,) float array of per-row drops
    prefixes : (P, k) int array, k >= 0; with k = 0 the result holds the drops of the singletons.

    Returns
    -------
    drops : (P, b) float array, 0.0 where undefined
    defined : (P, b) bool array, False where no row perturbs ``S | {j}``

    Entries with ``j`` in S hold the drop of S itself.
    """
    n, b = perturbed.shape
    n_prefixes, k = prefixes.shape
    z = perturbed.astype(float)
    wd = weights * d
    num = np.empty((n_prefixes, b))
    den = np.empty((n_prefixes, b))
    step = max(1, _CHUNK_CELLS // max(1, n * k))
    with _blas_controller().limit(limits=1, user_api="blas"):
        for start in range(0, n_prefixes, step):
            chunk = prefixes[start : start + step]
            if k == 0:
                covered = np.ones((len(chunk), n))
            else:
                covered = perturbed[:, chunk].all(axis=2).T.astype(float)
            both = np.concatenate([covered * wd, covered * weights]) @ z
            num[start : start + step] = both[: len(chunk)]
            den[start : start + step] = both[len(chunk) :]
    defined = den > 0
    drops = np.divide(num, den, out=np.zeros_like(num), where=defined)
    return drops, defined
