"""The selection-consistency figure (proofs_checks/figures/lemma1_selection.py): its exact curves against closed
forms, its measured points against the bound it draws, its n grid against FRED's default n, and reproducibility."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

pytest.importorskip("matplotlib")

from fred import sample_size  # noqa: E402
from proofs_checks.figures.lemma1_selection import (  # noqa: E402
    QUICK_MULTIPLES,
    lemma1_selection_data,
    lemma1_selection_figure,
)
from proofs_checks.statistics.seeds import statistical_seed  # noqa: E402
from tests._helpers import clopper_pearson  # noqa: E402

#: False-alarm probability of the statistical test (union bound over every point it checks).
DELTA = 1e-6


@pytest.fixture(scope="module")
def data():
    return lemma1_selection_data(seed=statistical_seed(11), quick=True)


def test_threshold_curve_is_the_binomial_closed_form(data):
    """Catches a threshold curve that is not the exact agreement: for f = 17/20 + 3/10 kept on one token
    (E[f] = 1, drop = 0.15 E[f]) FRED agrees iff 1 <= N <= n/2 rows perturb the token, N ~ Bin(n, 1/2)."""
    curve = next(c for c in data.zero if "threshold" in c.label)
    want = [sum(math.comb(int(n), k) for k in range(1, int(n) // 2 + 1)) / 2 ** int(n) for n in curve.ns]
    assert_allclose(curve.agreement, want, rtol=1e-9, atol=1e-12)
    assert curve.enumerated and curve.n_for_target is None and curve.bound.size == 0


def test_tie_curve_starts_at_a_quarter_and_tends_to_half(data):
    """Catches a tie curve that is not FRED's: with one row (n = 1) on f = (a kept + b kept)/20, only the row
    perturbing both tokens makes every drop 0 >= eps * 0 with {a} winning the tie (probability 1/4); a row
    perturbing one token leaves the other undefined and that token's drop 0 below eps * f, so FRED returns it
    with found = False. By the swap symmetry the agreement stays >= 1/2 - P(not found) and tends to 1/2."""
    curve = next(c for c in data.zero if "tie" in c.label)
    assert curve.ns[0] == 1 and abs(curve.agreement[0] - 0.25) < 1e-12
    assert 0.5 <= curve.agreement[-1] < 0.6


def test_measured_grid_is_multiples_of_freds_n(data):
    """Catches points plotted at the wrong n: the measured n are the quick multiples of FRED's default
    n = sample_size(0.95, p, min(max_len, b)) (Lemma 2), recomputed here from the document."""
    for curve in data.margin + data.zero[2:]:
        b = len(curve.document.split())
        n_paper = sample_size(0.95, data.p, min(data.max_len, b))
        assert curve.n_paper == n_paper
        assert curve.ns.tolist() == sorted({max(1, round(m * n_paper)) for m in QUICK_MULTIPLES})


@pytest.mark.statistical
def test_measured_points_are_not_below_the_drawn_bound(data):
    """Catches a drawn bound above FRED's agreement (or a plotted agreement that is not FRED's): each measured
    point's Clopper-Pearson interval at DELTA / points reaches the bound at its n; the bound is non-decreasing
    and its drawn curve reaches 0.95 (it is drawn up to twice the n the bound needs)."""
    curves = [c for c in data.margin if c.bound_at_ns.size]
    points = sum(c.ns.size for c in curves)
    for c in curves:
        for n, rate, bound in zip(c.ns, c.agreement, c.bound_at_ns):
            _, high = clopper_pearson(round(rate * data.repetitions), data.repetitions, DELTA / points)
            assert high >= bound, (c.label, c.document, n, rate, bound)
        assert np.all(np.diff(c.bound) >= 0) and c.bound[-1] >= 0.95 and c.bound_ns[-1] >= c.n_for_target


def test_data_and_figure_are_reproducible(data):
    """Catches unseeded randomness: the same seed gives the same measured agreements, and the figure draws."""
    again = lemma1_selection_data(seed=statistical_seed(11), quick=True)
    for a, b in zip(data.margin + data.zero, again.margin + again.zero):
        assert_allclose(a.agreement, b.agreement, rtol=0, atol=0)
    fig = lemma1_selection_figure(data)
    assert len(fig.axes) == 2
