"""The LIME convergence figure (proofs_checks/figures/lime_convergence.py): what it plots is the lime package's
output and LIME's exact values, each recomputed here without the project's LIME code (tests/claims/_lime_by_hand.py)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

pytest.importorskip("matplotlib")
pytest.importorskip("lime")

from analytic import table_from_classifier  # noqa: E402
from proofs_checks.figures import FIGURES, lime_convergence_data, lime_convergence_figure  # noqa: E402
from proofs_checks.paper.baselines import fitted_l2_model, fitted_model  # noqa: E402
from tests.claims._lime_by_hand import lime_by_hand, limit_by_hand  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return lime_convergence_data(seed=5, quick=True)


def _f(model: str):
    return fitted_model().predict if model == "definition-1" else fitted_l2_model()[0]


def test_points_are_the_package_runs(data):
    """Catches the figure plotting something other than LIME's coefficients on its stated seeds: every run of
    both panels at the smallest and largest n equals LIME written out by hand on that run's seed."""
    for runs in data.runs:
        f = _f(runs.model)
        for j in (0, len(runs.ns) - 1):
            for r, seed in enumerate(runs.seeds[j]):
                assert_allclose(runs.coef[j, r], lime_by_hand(f, runs.text, runs.ns[j], int(seed)), atol=1e-9,
                                err_msg=f"{runs.model} n={runs.ns[j]} seed={seed}")


def test_lines_are_the_exact_values(data):
    """Catches a wrong limit line or a wrong dashed curve (e.g. the limit drawn as the n-curve, or the O(1/n)
    ridge bias left out): the exact limit and beta*_n at each curve point equal weighted least squares over all
    2^b patterns written out here; on Definition 1's model the closed form's limit is that limit."""
    for runs, curve in zip(data.runs, data.curve_values):
        table = table_from_classifier(_f(runs.model), runs.tokens, mask_token="UNKWORDZ")
        assert_allclose(runs.limit, limit_by_hand(table), atol=1e-10)
        for n, values in zip(data.curve_ns[[0, -1]], curve[[0, -1]]):
            assert_allclose(values, limit_by_hand(table, n_samples=int(n)), atol=1e-10, err_msg=f"n={n}")
    assert_allclose(data.runs[0].closed_limit, data.runs[0].limit, atol=1e-10)
    assert np.abs(data.runs[1].closed_limit - data.runs[1].limit).max() > 1e-3  # the approximation's visible gap


def test_figure_is_registered_and_draws_both_panels(data):
    """Catches the figure missing from ``python -m proofs_checks plots`` or losing a panel."""
    assert FIGURES["lime_convergence"] == (lime_convergence_data, lime_convergence_figure)
    fig = lime_convergence_figure(data)
    assert len(fig.axes) == 2 and all(ax.get_xscale() == "log" for ax in fig.axes)
