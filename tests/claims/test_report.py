"""The claim report as a whole (proofs_checks.run_claims): its verdicts, its JSON schema, and the
counterexamples it prints, which the tests of tests/claims/test_<claim>.py reproduce.

These are regression tests: a future change that makes a finding disappear (or a report that stops
finding it) is noticed.
"""

from __future__ import annotations

import pytest

from proofs_checks import run_claims


@pytest.fixture(scope="module")
def report():
    return run_claims()


@pytest.mark.slow
def test_report_verdicts_and_schema(report):
    """The report must keep its verdicts (a check that silently turns 'fails' into 'holds' is a bug) and the
    JSON schema of issue 4."""
    got = {c.id: c.status for c in report.claims}
    assert got == {
        "lemma1": "holds", "lemma2": "holds-under-conditions", "prop1-linear": "holds",
        "importance-linear": "fails", "prop1-logistic": "holds", "prop1-l2norm": "fails", "prop2-shortcut": "fails",
        "algorithm1-beam": "fails",
    }
    d = report.to_dict()
    assert set(d) == {"claims", "environment"}
    for claim in d["claims"]:
        assert {"id", "statement", "status", "conditions", "counterexample", "steps"} <= set(claim)
        assert claim["steps"] and all(set(s) == {"id", "claim", "status", "note"} for s in claim["steps"])
        if claim["status"] == "fails":
            assert claim["counterexample"] is not None, claim["id"]
        if claim["status"] == "holds":
            assert claim["counterexample"] is None, claim["id"]


@pytest.mark.slow
def test_report_counterexamples_are_the_minimal_ones_asserted_above(report):
    """The counterexamples printed by the report are the ones the tests above reproduce."""
    ce = {c.id: c.counterexample for c in report.claims}
    assert ce["lemma2"]["p"] == 0.05 and ce["lemma2"]["l_max"] == 1 and ce["lemma2"]["n_paper"] == 5
    assert ce["prop1-linear"] is None  # the claim holds; the proof's formula fails in step s3
    assert ce["prop1-l2norm"]["lambda"] == {"a": 1.0, "b": 0.5} and ce["prop1-l2norm"]["fred_best"] == ["a"]
    assert ce["prop2-shortcut"]["document"] == "w1 w1" and ce["prop2-shortcut"]["fred_best"] == ["w1"]
    beam = ce["algorithm1-beam"]
    assert beam["exhaustive_best_ids"] == beam["exact_referee_best_ids"] != beam["beam_best_ids"]
    steps = {s.id: s for c in report.claims for s in c.steps}
    assert "961/1024" in steps["lemma2.s6-all-candidates-at-once"].note
    assert '"p": 0.25' in steps["prop1-linear.s3-drop-formula"].note and '"exact_drop": 0.75' in steps[
        "prop1-linear.s3-drop-formula"].note
