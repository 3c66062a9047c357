"""Claim prop2-shortcut (proofs_checks/claims/prop2_shortcut.py, verdict fails): FRED stops before all
occurrences of the shortcut word, reproduced from the report's minimal counterexample by an independent
computation.

The closed forms of analytic/prop2_shortcut.py: tests/analytic/test_prop2_shortcut.py.
"""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from fred import Fred


def test_prop2_stops_before_all_occurrences():
    """Prop. 2 claims c*_1 = m_1 = 2 on "w w" with f = 1{w present}; at p = 1/2, eps = 0.15 one occurrence
    already drops E[f] = 3/4 to 1/2 (drop 1/4 >= 0.15 * 3/4), so FRED returns one occurrence."""
    clf = lambda texts: np.array([float("w" in t.split()) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w w", p=0.5, eps=0.15)
    assert exp.found and len(exp.best_ids) == 1
    assert_allclose([exp.drop, exp.threshold], [0.25, 0.15 * 0.75], rtol=1e-12)
    exp = Fred(clf, sampler="exact").explain("w w", p=0.5, eps=0.4)  # eps > 1/3: the claim holds
    assert len(exp.best_ids) == 2
