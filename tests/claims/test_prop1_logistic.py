"""Claim prop1-logistic (proofs_checks/claims/prop1_logistic.py, verdict holds): Prop. 1's ordering on the
predicted-class probability of a LogisticRegression on TfidfVectorizer(norm=None).

The best candidates are found by brute force over exact drops (analytic.best_drop_of_size); the weights
lambda^T phi(token_i) come from the fitted model (analytic.LinearTfidfModel), never from FRED.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given

from analytic import LinearTfidfModel, best_drop_of_size, table_from_classifier
from fred import Fred
from proofs_checks.strategies import epsilons, fitted_tfidf_models, probabilities
from tests._helpers import SLOW

VALUE_TOL = 1e-9


def _is_top_set(a: np.ndarray, positions) -> bool:
    chosen = np.sort(a[list(positions)])[::-1]
    return bool(np.all(np.abs(chosen - np.sort(a)[::-1][: len(chosen)]) <= VALUE_TOL))


@SLOW
@given(fitted_tfidf_models(kind="logistic", max_tokens=6), probabilities(), epsilons())
def test_top_weight_sets_have_the_largest_drop_at_every_size_and_fred_picks_one(case, p, eps):
    """Catches the coupling argument failing for the logistic link: at every size some best set (brute force)
    is a top-weight set, for the predicted class's weights; and FRED's exact choice, when found, is one."""
    proba = lambda texts: case.model.predict_proba(case.vectorizer.transform(texts))  # noqa: E731
    label = int(np.argmax(proba([" ".join(case.tokens)])[0]))
    a = LinearTfidfModel.from_pipeline(case.vectorizer, case.model).position_weights(case.tokens)
    a = a if label == 1 else -a
    table = table_from_classifier(proba, list(case.tokens), label=label)
    for size in range(1, len(case.tokens) + 1):
        _, winners = best_drop_of_size(table, p, size)
        assert any(_is_top_set(a, w) for w in winners), f"size {size}: best {winners}, weights {a}"
    exp = Fred(proba, sampler="exact").explain(" ".join(case.tokens), label=label, p=p, eps=eps)
    if exp.found:
        assert _is_top_set(a, exp.best_ids), f"FRED chose {exp.best_ids}, weights {a}"
        assert not any(a[i] < -VALUE_TOL for i in exp.best_ids)
