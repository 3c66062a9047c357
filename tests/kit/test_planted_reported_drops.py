"""A wrong drop estimator behind correct samples (issue 26): a claim about drops reads the explainer's own drops.

The planted explainer is the reference FRED, same seed, same samples, same selection, whose reported drops (the
importances and the selection's drop) come from a biased estimator: the mean of f over the rows that keep the
candidate minus its mean over the rows that perturb it, instead of Eq. (3)'s mean over all rows minus the latter.
On the same rows that is hat Delta_c n / (n - n_c), which tends to Delta_c / (1 - p^|c|), not Delta_c. A claim that
recomputed the drops from the samples the explainer exposes (as lemma1 once did) would see the reference's
drops and keep lemma1; reading the reported ones, lemma1 breaks.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from fred import Fred
from fred_constants import EPS, MAX_LEN, P
from proofs_checks.comparison import Comparison, run_against
from proofs_checks.kit import explainer_tags, fred_factory
from proofs_checks.statistics.seeds import SEED_ENV


class DropsAgainstKeptRows:
    """Fred, whose reported drops are taken against the rows keeping the candidate (a biased estimator)."""

    def __init__(self, classifier_fn, random_state=None):
        self.fred = fred_factory(classifier_fn, random_state=random_state)

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        exp = self.fred.explain(text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)
        rows = exp.sample_perturbed

        def inflation(positions) -> float:
            # mean(f | c kept) - mean(f | c perturbed) = (hat m - hat m_c) n / (n - n_c) on the same rows.
            n_c = int(rows[:, list(positions)].all(axis=1).sum())
            return len(rows) / (len(rows) - n_c)

        importances = np.array([s * inflation((i,)) for i, s in enumerate(exp.importances)])
        drop = None if exp.drop is None else exp.drop * inflation(exp.best_ids)
        return dataclasses.replace(exp, importances=importances, drop=drop)


@explainer_tags(exact=False)
def drops_against_kept_rows(classifier_fn, exact=False, random_state=None):
    return DropsAgainstKeptRows(classifier_fn, random_state)


def _linear(texts):
    f = np.array([0.1 + 0.5 * ("a" in t.split()) + 0.2 * ("b" in t.split()) for t in texts])
    return np.column_stack([1 - f, f])


def test_planted_explainer_exposes_the_references_samples_with_inflated_drops():
    """Guards the premise: the planted explainer's rows, scores and selection are the reference FRED's at the same
    seed, and each reported drop is the reference's times n / (n - n_c) > 1 (checked against the rows by hand)."""
    got = drops_against_kept_rows(_linear, random_state=3).explain("a b c", label=1, n_samples=200)
    want = Fred(_linear, random_state=3).explain("a b c", label=1, n_samples=200)
    np.testing.assert_array_equal(got.sample_perturbed, want.sample_perturbed)
    np.testing.assert_array_equal(got.sample_scores, want.sample_scores)
    assert got.best_ids == want.best_ids
    f = want.sample_scores[:, 1]
    for i in range(3):
        kept, perturbed = f[~want.sample_perturbed[:, i]], f[want.sample_perturbed[:, i]]
        assert got.importances[i] == pytest.approx(kept.mean() - perturbed.mean(), rel=1e-12)
        assert want.importances[i] == pytest.approx(f.mean() - perturbed.mean(), rel=1e-12)


def test_wrong_reported_drops_on_correct_samples_break_lemma1(monkeypatch):
    """Catches a claim about drops that recomputes them from the samples an explainer exposes instead of reading the
    drops it reports: this explainer exposes the reference's samples and reports biased drops, and must be reported
    as breaking lemma1 (its Monte Carlo step failing), where the reference keeps it."""
    monkeypatch.delenv(SEED_ENV, raising=False)
    comparison = Comparison("drops_against_kept_rows", run_against(fred_factory, ["lemma1"]),
                            run_against(drops_against_kept_rows, ["lemma1"]))
    assert comparison.breaks == ("lemma1",), comparison.to_text()
    assert [s.id for s in comparison.new_failures("lemma1")] == ["lemma1.s7-monte-carlo"]
