"""The exact sampler against expectations enumerated here with ``itertools.product``."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from fred import Fred

EXACT_RTOL = 1e-12


def table_classifier(table: dict[tuple[bool, ...], float], mask: str = "UNK"):
    """A black box defined by a value per perturbation pattern, recovered from the mask positions."""

    def classifier_fn(texts):
        return np.array([table[tuple(w == mask for w in t.split())] for t in texts])

    return classifier_fn


def enumerate_drops(table, b, p, subset, reference=None):
    """E[f] - E[f | subset perturbed] (Eq. 1), or reference - E[f | subset perturbed]."""
    mean = sum(v * p ** sum(z) * (1 - p) ** (b - sum(z)) for z, v in table.items())
    cond = [(v, p ** sum(z) * (1 - p) ** (b - sum(z))) for z, v in table.items() if all(z[j] for j in subset)]
    cond_mean = sum(v * w for v, w in cond) / sum(w for _, w in cond)
    return (mean if reference is None else reference) - cond_mean, mean


@st.composite
def tables(draw):
    b = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = rng.normal(size=2**b)
    table = {z: float(v) for z, v in zip(itertools.product([False, True], repeat=b), values)}
    return b, table


@given(tables(), st.floats(0.02, 0.98), st.sampled_from(["mean", "original"]))
def test_exact_importances_and_mean_match_enumeration(bt, p, baseline):
    """Catches dropped or wrong pattern weights (e.g. uniform weights, or p and 1-p swapped) and a
    baseline computed from the wrong reference."""
    b, table = bt
    text = " ".join(f"t{i}" for i in range(b))
    exp = Fred(table_classifier(table), sampler="exact", baseline=baseline).explain(text, p=p, eps=1.0, max_len=b)
    f_text = table[(False,) * b]
    ref = None if baseline == "mean" else f_text
    expected = [enumerate_drops(table, b, p, (j,), ref)[0] for j in range(b)]
    mean = enumerate_drops(table, b, p, (0,))[1]
    assert_allclose(exp.importances, expected, rtol=EXACT_RTOL, atol=1e-12, err_msg=f"b={b} p={p} {baseline}")
    assert_allclose(exp.mean_prediction, mean, rtol=EXACT_RTOL)
    assert exp.n_samples == 2**b
    if exp.best_ids:
        want, _ = enumerate_drops(table, b, p, exp.best_ids, ref)
        assert_allclose(exp.drop, want, rtol=EXACT_RTOL, atol=1e-12)


def test_threshold_met_with_equality_counts_as_found():
    """The paper selects when drop >= eps * E[f]; an implementation with `>` misses this exact tie.

    f = 1{w present}, document "w", p = 1/2: E[f] = 1/2, drop of {0} = 1/2 = eps * E[f] with eps = 1,
    all dyadic so the comparison is exact in floating point.
    """
    clf = lambda texts: np.array([float("w" in t.split()) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w", p=0.5, eps=1.0)
    assert exp.drop == 0.5 and exp.threshold == 0.5
    assert exp.found


def test_exact_sampler_refuses_long_documents():
    """2**21 patterns would exhaust memory silently; the error must name the limit and the alternative."""
    import pytest

    clf = lambda texts: np.zeros(len(texts))  # noqa: E731
    with pytest.raises(ValueError, match="b=20.*mask"):
        Fred(clf, sampler="exact").explain(" ".join(["a"] * 21))


def test_eps_one_finds_the_candidate_that_removes_the_shortcut():
    """Regression (found by the prop2-shortcut claim): at eps = 1 the threshold equals E[f] and the drop of
    removing every occurrence of the shortcut word is E[f] - 0, but the weighted mean rounded it one ulp
    below the threshold and FRED answered found=False. f = 1{w2 present}, p = 0.9."""
    clf = lambda texts: np.array([float("w2" in t.split()) for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w2 w2", p=0.9, eps=1.0)
    assert exp.found and exp.best == ("w2", "w2")
    assert_allclose(exp.drop, exp.threshold, rtol=1e-14)
