"""Claim prop1-l2norm (proofs_checks/claims/prop1_l2norm.py, verdict fails): Prop. 1 does not carry over to
L2-normalised TF-IDF, reproduced from the report's minimal counterexample by an independent computation.

The model analytic.L2NormalisedLinearModel itself: tests/analytic/test_prop1_l2norm.py.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.testing import assert_allclose

from fred import Fred


def test_prop1_fails_on_l2_normalised_tfidf():
    """f = lambda . u/||u||, u = counts * idf, lambda = (1, 0.5), idf = (0.5, 2) on "a b", p = 1/2:
    lambda_j v_j = (0.5, 1.0) puts b first, but removing a drops E[f] far more. By hand, with the four
    equally likely patterns: f(ab) = 1.5/sqrt(4.25), f(a) = 1, f(b) = 0.5, f() = 0."""
    lam, idf = {"a": 1.0, "b": 0.5}, {"a": 0.5, "b": 2.0}

    def clf(texts):
        out = []
        for t in texts:
            u = {w: t.split().count(w) * idf[w] for w in lam}
            norm = math.sqrt(sum(x * x for x in u.values()))
            out.append(sum(lam[w] * u[w] for w in lam) / norm if norm else 0.0)
        return np.array(out)

    mean = (1.5 / math.sqrt(4.25) + 1 + 0.5 + 0) / 4
    exp = Fred(clf, sampler="exact").explain("a b", p=0.5, eps=0.15, max_len=1)
    assert_allclose(exp.importances, [mean - 0.25, mean - 0.5], rtol=1e-12)
    assert exp.best == ("a",)
