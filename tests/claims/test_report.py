"""The claim report as a whole (proofs_checks.run_claims): its verdicts, its JSON schema, its header counts, and
the counterexamples it prints, which the tests of tests/claims/test_<claim>.py reproduce.

These are regression tests: a future change that makes a finding disappear (or a report that stops finding it) is
noticed. Each claim's steps are pinned in its own test file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from proofs_checks import run_claims
from proofs_checks.neural_cases import minilm_setting
from proofs_checks.results import EVIDENCE, KINDS, RULE, ROLES, STEP_STATUSES, VERDICTS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "claims.md"


@pytest.fixture(scope="module")
def report():
    return run_claims()


@pytest.mark.slow
def test_report_verdicts_kinds_and_corrections(report):
    """The report must keep its verdicts (a check that silently turns 'fails' into 'holds' is a bug), the kind of
    each claim (three were once mislabelled as failed paper statements) and the verdict on each correction."""
    got = {c.id: (c.kind, c.status, c.corrected_status) for c in report.claims}
    neural = "argued" if minilm_setting()[0] is not None else "unproved"
    assert got == {
        "lemma1": ("statement", "argued", None),
        "lemma1-selection": ("proof-step", "fails", "argued"),
        "lemma2": ("statement", "holds", None),
        "lemma2-any-p": ("extension", "fails", "holds"),
        "lemma2-joint": ("statement", "fails", "argued"),
        "prop1-linear": ("statement", "fails", "argued"),
        "importance-linear": ("corollary", "fails", "argued"),
        "prop1-logistic": ("extension", "fails", "argued"),
        "prop1-l2norm": ("extension", "fails", None),
        "prop2-shortcut": ("statement", "fails", "argued"),
        "algorithm1-beam": ("discrepancy", "fails", "argued"),
        "algorithm1-literal": ("statement", "fails", "argued"),
        "prop1-step-link": ("extension", "fails", "argued"),
        "prop2-specular": ("proof-step", "fails", "argued"),
        "tfidf-oov": ("statement", "fails", "argued"),
        "counterfactuals-linear": ("statement", "fails", "argued"),
        "experiment-faithfulness": ("experiment", "fails", None),
        "experiment-mask-vs-pos": ("experiment", "fails", None),
        "experiment-anchors-confidence": ("experiment", "fails", None),
        "experiment-shap-efficiency": ("experiment", "fails", None),
        "experiment-distilbert-sentiment": ("experiment", "fails", "unproved"),
        # Run where the neural extra and the Restaurants file are present (CI); else reported as not run.
        "minilm-lemma1": ("extension", neural, None),
        "minilm-selection": ("extension", neural, None),
    }
    words = {c.id: c.verdict for c in report.claims}
    assert words["prop1-l2norm"] == "does not extend" and words["algorithm1-beam"] == "code differs"
    assert words["prop2-shortcut"] == "fails" and words["lemma1"] == "holds (argued)"


@pytest.mark.slow
def test_report_json_schema_and_header_counts(report):
    """Catches a JSON report without the rule, kinds or evidence, a step whose status is not backed by its evidence
    (a literal status outside 'argument'), or a header whose counts do not add up."""
    d = json.loads(report.to_json())
    assert set(d) == {"rule", "summary", "claims", "environment"} and d["rule"] == RULE
    steps = [s for c in d["claims"] for s in c["steps"]]
    for claim in d["claims"]:
        assert {"id", "kind", "statement", "status", "verdict", "conditions", "counterexample", "corrected",
                "corrected_status", "evidence", "steps"} <= set(claim)
        assert claim["kind"] in KINDS and claim["status"] in VERDICTS
        assert claim["steps"], claim["id"]
        if claim["status"] == "fails":
            assert claim["counterexample"] is not None, claim["id"]
        if claim["status"] in ("holds", "argued"):
            assert claim["counterexample"] is None, claim["id"]
    for s in steps:
        assert set(s) == {"id", "claim", "role", "evidence", "status", "note", "values"}
        assert s["role"] in ROLES and s["evidence"] in EVIDENCE and s["status"] in STEP_STATUSES
        assert (s["status"] == "argued") == (s["evidence"] == "argument"), s["id"]
        assert s["evidence"] == "argument" or s["values"], s["id"]
    summary = d["summary"]
    assert summary["steps"] == len(steps) == summary["steps_machine_checked"] + summary["steps_argued"]
    assert summary["steps_by_evidence"] == {e: sum(s["evidence"] == e for s in steps) for e in EVIDENCE}
    assert summary["steps_failing"] == sum(s["status"] == "fails" for s in steps)
    text = report.to_text()
    assert f"{summary['steps_machine_checked']} machine-checked" in text and f"{summary['steps_argued']} argued" in text


@pytest.mark.slow
def test_report_counterexamples_are_the_minimal_ones_asserted_in_the_claim_tests(report):
    """Catches a report whose printed counterexamples drift from the ones tests/claims/test_<claim>.py reproduce
    independently (a regression pin: the numbers are derived in those files)."""
    ce = {c.id: c.counterexample for c in report.claims}
    assert (ce["lemma2-any-p"]["p_exact"], ce["lemma2-any-p"]["l_max"], ce["lemma2-any-p"]["n_paper"]) == ("9/20", 1, 5)
    assert (ce["lemma2-joint"]["b"], ce["lemma2-joint"]["n"], ce["lemma2-joint"]["joint_coverage"]) == (2, 5, "961/1024")
    assert ce["prop1-linear"]["ii_any_solution"]["position_weights"] == ["1", "1/2"]
    assert ce["prop1-linear"]["i_any_solution"]["position_weights"] == ["1", "-1/100"]
    assert (ce["importance-linear"]["p"], ce["importance-linear"]["exact_score"]) == ("1/4", "3/4")
    assert ce["prop1-l2norm"]["lambda"] == {"a": 0.5, "b": 1.0} and ce["prop1-l2norm"]["fred_best"] == ["b"]
    assert ce["prop2-shortcut"]["document"] == "w1 w1" and ce["prop2-shortcut"]["fred_best"] == ["w1"]
    assert len(ce["algorithm1-beam"]["tokens"]) == 5  # 4 tokens cannot separate a width-4 beam (step s1)
    assert ce["algorithm1-beam"]["f_by_pattern_code"][:8] == [1, 0, 0, 0, 0, 0, 0, 3]
    assert ce["lemma1-selection"]["tie"]["position_weights"] == ["1/20", "1/20"]
    assert ce["lemma1-selection"]["threshold"]["agreement"]["5"] == "15/32"
    assert ce["algorithm1-literal"]["table"] == ["-4", "-3"]
    assert ce["prop1-step-link"]["position_weights"] == ["1", "2"] and ce["prop1-step-link"]["fred_best"] == ["w1"]
    assert ce["prop2-specular"]["document"] == "w1"
    assert ce["tfidf-oov"]["b_mask_not_in_corpus"]["corpus"] == ["good unk"]
    assert ce["counterfactuals-linear"]["position_weights"] == ["1", "1"]
    assert ce["counterfactuals-linear"]["P_minimal"] == "2047/2048"
    steps = {s.id: s for c in report.claims for s in c.steps}
    assert "961/1024" in steps["lemma2-joint.s1-minimal-counterexample"].note
    assert '"p": 0.25' in steps["prop1-linear.s3-drop-formula"].note and '"exact_drop": 0.75' in steps[
        "prop1-linear.s3-drop-formula"].note


@pytest.mark.slow
def test_claim_map_kinds_match_the_report(report):
    """Catches docs/claims.md announcing a kind the report does not give."""
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| ([a-z-]+) \|", DOCS.read_text(), re.M)
    assert dict(rows) == {c.id: c.kind for c in report.claims}
