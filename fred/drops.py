"""Drops of candidates as weighted means over perturbation rows (Eqs. 1 and 3).

With rows ``x_i``, weights ``w_i`` (``1/n`` for Monte Carlo, pattern
probabilities for the exact sampler) and per-row drops ``d_i``, the drop of a
candidate c is

    drop(c) = sum_{i : c perturbed in x_i} w_i d_i / sum_{i : c perturbed in x_i} w_i,

undefined when no row perturbs all of c (``n_c = 0``). With ``d_i = mean f - f(x_i)``
this is Eq. (3); with exact weights it is Eq. (1).
"""

from __future__ import annotations

import contextlib
import functools
import threading

import numpy as np
from threadpoolctl import ThreadpoolController

#: Upper bound on ``rows * prefixes * prefix length`` booleans materialised at once.
_CHUNK_CELLS = 20_000_000
#: Multiply-adds below which OpenBLAS runs a matrix-vector and a matrix-matrix product on one thread anyway: it
#: threads gemv from m n >= 2304 * GEMM_MULTITHREAD_THRESHOLD (default 4) and gemm only above m n k = 65536 * 4 (its
#: interface/gemv.c and interface/gemm.c). A search whose products all stay below never sets the limit, whose setting
#: and restoring cost more than a small exact explanation's products (about 35 us of 330 with numpy's and scipy's
#: BLAS and OpenMP loaded).
_OPENBLAS_ONE_THREAD = (2304 * 4, 65536 * 4)


@functools.cache
def _blas_controller() -> ThreadpoolController:
    """One controller of the loaded BLAS libraries (finding them takes milliseconds).

    The products below are thin (a few beam prefixes, or few columns), so BLAS
    threads gain nothing; on a busy machine OpenBLAS threads waiting for a core
    made a (4 x 5000) @ (5000 x 150) product 300x slower than one thread.
    """
    return ThreadpoolController()


@functools.cache
def _one_thread_below() -> tuple[int, int]:
    """Multiply-adds (matrix-vector, matrix-matrix) below which the loaded BLAS runs a product on one thread anyway:
    :data:`_OPENBLAS_ONE_THREAD` when every loaded BLAS is OpenBLAS, else (0, 0): another library (MKL, BLIS) may
    thread small products, and a product's last bits can depend on its threads, so every product is limited."""
    libraries = _blas_controller().select(user_api="blas").lib_controllers
    return _OPENBLAS_ONE_THREAD if all(lib.internal_api == "openblas" for lib in libraries) else (0, 0)


class _Block:
    """The outermost open :meth:`DesignDrops.single_threaded` block of a thread, whichever design opened it: it
    holds the limit from the first product that needs it to its end, so that blocks of several designs nest (the
    limit is restored when the outermost ends, as when each block set its own on entry)."""

    limits: contextlib.ExitStack | None = None
    limited = False


_THREAD = threading.local()


def _block() -> _Block:
    """This thread's :class:`_Block` (a block ending in another thread, say a generator's, resets its own)."""
    block = getattr(_THREAD, "block", None)
    if block is None:
        block = _THREAD.block = _Block()
    return block


class DesignDrops:
    """A perturbation design prepared once for every drop the search asks of it.

    Holds the ``(n, b)`` indicators as floats (the matrix-product operand), the
    weights and ``w d``; :meth:`extension_drops` is then called once per search
    size without converting the design again.

    Parameters
    ----------
    perturbed : (n, b) bool array
    weights : (n,) float array, positive
    d : (n,) float array of per-row drops
    """

    def __init__(self, perturbed: np.ndarray, weights: np.ndarray, d: np.ndarray):
        self.perturbed = perturbed
        self.z = perturbed.astype(float)
        self.weights = weights
        self.wd = weights * d

    @functools.cached_property
    def by_position(self) -> np.ndarray:
        """The (b, n) indicators, position by row: the rows a prefix covers are then gathered as whole rows of it
        (five times faster than gathering columns of ``perturbed``)."""
        return np.ascontiguousarray(self.perturbed.T)

    @contextlib.contextmanager
    def single_threaded(self):
        """BLAS limited to one thread inside, from the first product large enough to use threads to the end of the
        outermost such block of the thread (of any design), once for every :meth:`extension_drops` call made in it.

        Setting and restoring the limit costs about 0.1 ms on a busy machine,
        as much as the products of a small document's search; a search enters
        this once around all its calls instead of once per call, and a search
        whose products all stay below ``_one_thread_below()`` (which BLAS
        runs on one thread anyway) never sets it.
        """
        block = _block()
        if block.limits is not None:
            yield
            return
        with contextlib.ExitStack() as limits:
            block.limits = limits
            try:
                yield
            finally:
                block.limits, block.limited = None, False

    @staticmethod
    def _before_product(work: int, matrix_vector: bool) -> None:
        """Limit BLAS to one thread (until the outermost :meth:`single_threaded` block ends) before a product of
        ``work`` multiply-adds that BLAS could run on several."""
        gemv, gemm = _one_thread_below()
        block = _block()
        if work >= (gemv if matrix_vector else gemm) and not block.limited:
            block.limits.enter_context(_blas_controller().limit(limits=1, user_api="blas"))
            block.limited = True

    def extension_drops(self, prefixes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Drop of ``S | {j}`` for every prefix S (a row of ``prefixes``) and every position j.

        One matrix product per chunk of prefixes: the indicators of the rows
        covered by S, weighted by ``w d`` and by ``w``, times the perturbation
        matrix, restricted to the rows some prefix of the chunk covers when
        they are at most half (a set of k positions covers about ``n p**k``
        rows, so larger prefixes cost less).
        Weighting the few covered-row vectors rather than the (n, b) matrix
        keeps the work at one pass over those rows.

        Parameters
        ----------
        prefixes : (P, k) int array, k >= 0; with k = 0 the result holds the drops of the singletons.

        Returns
        -------
        drops : (P, b) float array, 0.0 where undefined
        defined : (P, b) bool array, False where no row perturbs ``S | {j}``

        Entries with ``j`` in S hold the drop of S itself.
        """
        if _block().limits is None:  # a call on its own, outside a search's block
            with self.single_threaded():
                return self.extension_drops(prefixes)
        n, b = self.perturbed.shape
        n_prefixes, k = prefixes.shape
        num = np.empty((n_prefixes, b))
        den = np.empty((n_prefixes, b))
        step = max(1, _CHUNK_CELLS // max(1, n * k))
        # The largest product of the call: one row per prefix of a chunk, twice, over at most n rows; numpy hands a
        # product with one column (b = 1) or one row (k = 0) to gemv.
        self._before_product(n * b * (1 if k == 0 else 2 * min(step, n_prefixes)), matrix_vector=k == 0 or b == 1)
        if k == 0:  # every row is covered: two vector-matrix products serve all prefixes
            num[:], den[:] = self.wd @ self.z, self.weights @ self.z
        for start in range(0, n_prefixes if k else 0, step):
            chunk = prefixes[start : start + step]
            rows = slice(None)
            covered = self.by_position[chunk].all(axis=1)
            union = np.flatnonzero(covered.any(axis=0))
            if 2 * len(union) <= n:  # gathering those rows of z costs less than the product over the rest
                rows, covered = union, covered[:, union]
            # The products written into one operand: two temporaries and their concatenation cost more than
            # the product on a small document. The operand has covered's memory order (C, or Fortran after
            # gathering rows), as concatenating the products gave, because the order decides how BLAS sums.
            weighted = np.empty((2 * len(chunk), covered.shape[1]),
                                order="C" if covered.flags.c_contiguous else "F")
            np.multiply(covered, self.wd[rows], out=weighted[: len(chunk)])
            np.multiply(covered, self.weights[rows], out=weighted[len(chunk) :])
            both = weighted @ self.z[rows]
            num[start : start + step] = both[: len(chunk)]
            den[start : start + step] = both[len(chunk) :]
        defined = den > 0
        drops = np.divide(num, den, out=np.zeros_like(num), where=defined)
        return drops, defined


def extension_drops(perturbed: np.ndarray, weights: np.ndarray, d: np.ndarray, prefixes: np.ndarray):
    """Drop of ``S | {j}`` for every prefix S and position j: :meth:`DesignDrops.extension_drops` of one call.

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
    return DesignDrops(perturbed, weights, d).extension_drops(prefixes)
