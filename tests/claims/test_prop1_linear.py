"""Claim prop1-linear (proofs_checks/claims/prop1_linear.py, verdict holds; its step s3, the proof's drop formula,
fails): reproduced from the report's minimal counterexample by an independent computation.

The closed forms of analytic/prop1_linear.py: tests/analytic/test_prop1_linear.py.
"""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from fred import Fred


def test_prop1_proof_drop_formula_is_wrong_off_half():
    """The proof's Delta_c = p sum lambda_j v_j c_j: on "w" with weight 1, p = 0.25, the exact drop is
    E[f] - E[f | w removed] = 0.75 - 0 = 0.75, not 0.25."""
    clf = lambda texts: np.array([float(t == "w") for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w", p=0.25, eps=1.0)
    assert_allclose(exp.importances, [0.75], rtol=1e-12)
    assert not np.isclose(exp.importances[0], 0.25)
