"""Planted correct modifications pass every check they are capable of; the declared variant fails exactly the
checks of the paper it departs from and passes the check of its declaration (proofs_checks/kit/planted.py)."""

from __future__ import annotations

import pytest

from proofs_checks import check_explainer, get_tags
from proofs_checks.kit import CHECKS
from proofs_checks.kit.planted import CATALOGUE
from tests._helpers import assert_fails_exactly

CORRECT = [entry for entry in CATALOGUE if entry.kind == "correct"]
VARIANTS = [entry for entry in CATALOGUE if entry.kind == "declared variant"]


def test_the_catalogue_has_six_wrong_and_two_correct_modifications():
    """The catalogue keeps at least six wrong and two correct modifications, each wrong one failing some check and
    tested in one of the per-part files (no wrong entry left without a test)."""
    kinds = [entry.kind for entry in CATALOGUE]
    assert kinds.count("wrong") >= 6 and kinds.count("correct") >= 2
    assert len({entry.name for entry in CATALOGUE}) == len(CATALOGUE)
    for entry in CATALOGUE:
        assert (entry.kind == "wrong") == bool(entry.part) and (entry.kind != "wrong" or entry.kit_fails)
        assert entry.part in ("", "sampling", "drops", "search", "interface")


@pytest.mark.parametrize("entry", CORRECT, ids=[entry.name for entry in CORRECT])
def test_correct_modification_passes_every_applicable_check(entry):
    """A valid variant (another tie-breaking, another way to draw the same masks, an independent implementation)
    must not be flagged: every check passes or is not applicable for a capability its tags do not declare. Holds
    at every FRED_STATISTICAL_SEED (each statistical check's false-alarm probability is DELTA = 1e-6)."""
    report = check_explainer(entry.factory)
    tags = get_tags(entry.factory)
    for outcome in report.outcomes:
        assert outcome.status in ("passed", "skipped"), str(report)
        if outcome.status == "skipped":
            assert "tags." in outcome.message
    assert report.counts()["skipped"] == sum(tags.missing(*check.needs) is not None for check in CHECKS)


@pytest.mark.parametrize("entry", VARIANTS, ids=[entry.name for entry in VARIANTS])
def test_declared_variant_fails_the_papers_checks_and_passes_its_declaration(entry, monkeypatch):
    """Declaring baseline='original' does not turn the paper's checks into passes (they fail exactly as listed),
    while check_declared_baseline_is_used confirms the declaration (default seeds, as the wrong ones)."""
    report = assert_fails_exactly(entry, monkeypatch)  # the whole kit, at the default seeds
    assert report.status()["check_declared_baseline_is_used"] == "passed", str(report)
