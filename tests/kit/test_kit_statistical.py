"""The kit's Monte Carlo variants on the reference: without an exact mode, seeded and unseeded."""

from __future__ import annotations

import numpy as np
import pytest

from fred import Fred
from proofs_checks import check_explainer, explainer_tags
from proofs_checks.statistics.seeds import statistical_seed


@explainer_tags(exact=False)
def monte_carlo_fred(classifier_fn, exact=False):
    return Fred(classifier_fn, random_state=statistical_seed(0))


@explainer_tags(exact=False, seeded=False)
def unseeded_fred(classifier_fn, exact=False):
    return Fred(classifier_fn, random_state=np.random.default_rng(statistical_seed(0)))


@pytest.mark.statistical
def test_monte_carlo_reference_passes_every_check():
    """Without an exact mode every check runs its Monte Carlo variant; the reference passes them all (each check's
    false-alarm probability is DELTA = 1e-6, seeds statistical_seed(0) and the checks' own defaults)."""
    report = check_explainer(monte_carlo_fred)
    assert report.ok and report.counts()["skipped"] == 0, str(report)


@pytest.mark.statistical
def test_unseeded_reference_passes_and_the_seed_check_is_not_applicable():
    """An explainer drawing fresh samples at each call declares seeded=False: the reproducibility check is not
    applicable (with the reason) and the metamorphic checks fall back to the referee (DELTA = 1e-6 per check)."""
    report = check_explainer(unseeded_fred)
    status = report.status()
    assert report.ok, str(report)
    assert status["check_same_seed_same_explanation"] == "skipped"
    reason = next(o.message for o in report.outcomes if o.name == "check_same_seed_same_explanation")
    assert "tags.seeded=False" in reason
