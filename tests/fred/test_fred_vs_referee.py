"""Triangulation 2: ``Fred(sampler="exact")`` == the independent exact referee (and the closed forms).

Tolerance: drops and predictions agree to ``TOL = 1e-10`` absolute (values O(10),
both sides sum <= 2^7 weighted terms in a different order: ~1e-14 error).
Cases where a size's best drop lies within 1e-9 of the threshold are skipped
(``assume``): there the float rounding of either side legitimately decides.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import (
    LinearTfidfModel,
    exact_explain,
    linear_minimal_size,
    linear_optimal_positions,
    shortcut_minimal_size,
    table_classifier,
    table_from_classifier,
)
from fred import Fred
from proofs_checks.strategies import black_box_tables, epsilons, fitted_tfidf_models, probabilities, shortcut_models
from tests._black_boxes import DOC, tree_table
from tests._helpers import SLOW

TOL = 1e-10
BASELINES = st.sampled_from(["mean", "original"])


def assert_same(exp, ref, context: str):
    """Compare a fred Explanation with an analytic ExactExplanation field by field."""
    msg = f"{context}\nfred: ids={exp.best_ids} drop={exp.drop} found={exp.found} thr={exp.threshold}\n" \
          f"ref:  ids={ref.best_ids} drop={ref.drop} found={ref.found} thr={ref.threshold} tol={TOL}"
    assert_allclose(exp.importances, ref.importances, rtol=0, atol=TOL, err_msg=msg)
    assert_allclose([exp.mean_prediction, exp.original_prediction, exp.threshold],
                    [ref.mean_prediction, ref.original_prediction, ref.threshold], rtol=0, atol=TOL, err_msg=msg)
    assert exp.found == ref.found, msg
    assert exp.best_ids == ref.best_ids, msg
    assert_allclose(exp.drop, ref.drop, rtol=0, atol=TOL, err_msg=msg)


def away_from_threshold(ref) -> bool:
    return bool(np.all(np.abs(ref.best_drop_by_size - ref.threshold) > 1e-9))


@given(black_box_tables(max_tokens=6), probabilities(), epsilons(), st.integers(1, 6), BASELINES)
def test_fred_exact_matches_referee_on_any_black_box(table, p, eps, max_len, baseline):
    """Catches wrong pattern weights, drops, threshold test, tie-break or baseline in fred on arbitrary f."""
    b = int(np.log2(len(table)))
    tokens = [f"t{i}" for i in range(b)]
    ref = exact_explain(table, p, eps, max_len, baseline=baseline)
    assume(away_from_threshold(ref))
    exp = Fred(table_classifier(tokens, table), sampler="exact", baseline=baseline).explain(
        " ".join(tokens), p=p, eps=eps, max_len=max_len)
    assert_same(exp, ref, f"table={table.tolist()} p={p} eps={eps} max_len={max_len} baseline={baseline}")


@SLOW
@given(fitted_tfidf_models(), probabilities(), epsilons(), BASELINES)
def test_fred_exact_on_fitted_tfidf_linear_model(case, p, eps, baseline):
    """Catches fred disagreeing with Prop. 1 (greedy by a_i, minimal size) on a real scikit-learn pipeline."""
    b = len(case.tokens)
    classifier = case.classifier_fn()
    ref = exact_explain(table_from_classifier(classifier, case.tokens), p, eps, b, baseline=baseline)
    assume(away_from_threshold(ref))
    exp = Fred(classifier, sampler="exact", baseline=baseline).explain(" ".join(case.tokens), p=p, eps=eps, max_len=b)
    context = f"tokens={case.tokens} p={p} eps={eps} baseline={baseline}"
    assert_same(exp, ref, context)
    model = LinearTfidfModel.from_pipeline(case.vectorizer, case.model)
    a = model.position_weights(case.tokens)
    size = linear_minimal_size(a, np.ones(b, int), model.intercept, p, eps, b, baseline=baseline)
    assert size == (len(exp.best_ids) if exp.found else None), f"{context} a={a}"
    if exp.found:  # the closed form's choice has the same (optimal) drop; ids may differ only on float-near ties
        chosen = linear_optimal_positions(a, size)
        assert_allclose((1 - p) * a[list(chosen)].sum(), (1 - p) * a[list(exp.best_ids)].sum(), atol=1e-9)


@given(shortcut_models(max_tokens=7), probabilities(), epsilons(), BASELINES)
def test_fred_exact_on_shortcut_model(case, p, eps, baseline):
    """Catches fred missing Prop. 2's corrected minimal size l* on shortcut models (predict_proba, label 1)."""
    b = len(case.tokens)
    table = table_from_classifier(case.model.predict_proba, case.tokens, label=1)
    ref = exact_explain(table, p, eps, b, baseline=baseline)
    assume(away_from_threshold(ref))
    exp = Fred(case.model.predict_proba, sampler="exact", baseline=baseline).explain(
        " ".join(case.tokens), label=1, p=p, eps=eps, max_len=b)
    context = f"tokens={case.tokens} J={case.model.words} p={p} eps={eps} baseline={baseline}"
    assert_same(exp, ref, context)
    if baseline == "mean":
        assert len(exp.best_ids) == shortcut_minimal_size(case.multiplicities, p, eps), context
        assert {case.tokens[i] for i in exp.best_ids} <= set(case.model.words), context


def test_fred_exact_on_prop2_counterexample():
    """Records fred's answer on 'w w', f = 1{w in z}, p = 1/2, eps = 0.15: one token (Prop. 2 predicts both)."""
    from analytic import ShortcutModel

    exp = Fred(ShortcutModel(("w",)), sampler="exact").explain("w w", p=0.5, eps=0.15, max_len=10)
    assert exp.best_ids == (0,) and exp.found
    assert_allclose([exp.mean_prediction, exp.drop], [0.75, 0.25], rtol=0, atol=TOL)


@given(black_box_tables(max_tokens=4, integer=True), st.sampled_from([0.25, 0.5, 0.75, 1.0]), st.integers(1, 4),
       BASELINES)
def test_fred_exact_matches_referee_on_dyadic_ties_and_boundaries(table, eps, max_len, baseline):
    """Catches '>' where Algorithm 1 has '>=' and tie-breaks off by rounding: at p = 1/2 with integer f and
    dyadic eps every weight, drop and threshold is exact in floating point, so no case is skipped."""
    b = int(np.log2(len(table)))
    tokens = [f"t{i}" for i in range(b)]
    ref = exact_explain(table, 0.5, eps, max_len, baseline=baseline)
    exp = Fred(table_classifier(tokens, table), sampler="exact", baseline=baseline).explain(
        " ".join(tokens), p=0.5, eps=eps, max_len=max_len)
    assert_same(exp, ref, f"table={table.tolist()} eps={eps} max_len={max_len} baseline={baseline}")


def test_fred_exact_stops_when_drop_equals_threshold():
    """Catches '>' for '>=': f = 1{a} + 1{b}, p = 1/2, eps = 1/2: drop({0}) = 0.5 = threshold, so size 1 is found."""
    from analytic import linear_table

    exp = Fred(table_classifier(["a", "b"], linear_table([1.0, 1.0])), sampler="exact").explain(
        "a b", p=0.5, eps=0.5, max_len=2)
    assert (exp.best_ids, exp.drop, exp.threshold, exp.found) == ((0,), 0.5, 0.5, True)


def test_exact_referee_matches_fred_exact_on_tree():
    """Catches fred's exact sampler disagreeing with the referee on the non-linear tree (tolerance 1e-10)."""
    table = tree_table()
    exp = Fred(table_classifier(DOC, table, n_classes=2), sampler="exact").explain(
        " ".join(DOC), label=1, p=0.5, eps=0.15, max_len=3)
    ref = exact_explain(table, 0.5, 0.15, 3)
    assert exp.best_ids == ref.best_ids and exp.found == ref.found
    assert_allclose(exp.importances, ref.importances, rtol=0, atol=1e-10)
    assert_allclose(exp.drop, ref.drop, rtol=0, atol=1e-10)
