"""The one rule that turns step results into verdicts (proofs_checks.verdicts.results), and the guarantee that no claim
module types a status in."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from fred_constants import DELTA
from proofs_checks.claims.lemmas import lemma1
from proofs_checks.verdicts.results import ClaimResult, Quote, Reading, StepResult, argued, checked, decide, hypotheses

CLAIMS_DIR = Path(__file__).resolve().parents[2] / "proofs_checks" / "claims"


def _step(role: str, status: str, reading: str | None = None) -> StepResult:
    if status == "argued":
        return argued(f"x.{role}-{status}", "x", role, "written argument", reading=reading)
    if status == "inconclusive":
        return checked(f"x.{role}-{status}", "x", role, "statistical", "a test that cannot reach its level",
                       holds=True, conclusive=False, reading=reading,
                       values={"false_alarm_probability": 0.05, "seed": 0, "smallest_attainable_p": 0.0625})
    return checked(f"x.{role}-{status}", "x", role, "exhaustive", "a check", holds=status == "holds",
                   values={"cases": 1}, reading=reading)


def _reference_rule(tests: list[str], proof: list[str]) -> str:
    """The rule as the report prints it, written out case by case (independent of ``decide``)."""
    if "fails" in tests:
        return "fails"
    if "inconclusive" in tests:
        return "inconclusive"
    if not proof or "fails" in proof or "inconclusive" in proof:
        return "unproved"
    return "argued" if "argued" in proof + tests else "holds"


@pytest.mark.parametrize("n_tests, n_proof", [(0, 1), (1, 0), (1, 2), (2, 2)])
def test_decide_is_the_printed_rule_on_every_combination(n_tests, n_proof):
    """Catches a rule that lets a proof step rescue a failing statement, calls an argued proof 'holds', calls
    a claim with no proof 'holds', or counts an inconclusive test as evidence either way."""
    for tests in itertools.product(("holds", "fails", "inconclusive"), repeat=n_tests):
        for proof in itertools.product(("holds", "fails", "argued", "inconclusive"), repeat=n_proof):
            got = decide([_step("statement", s) for s in tests], [_step("proof", s) for s in proof])
            assert got == _reference_rule(list(tests), list(proof)), (tests, proof)


def test_an_inconclusive_step_is_only_a_statistical_one_whose_check_said_so():
    """Catches 'inconclusive' typed onto an exhaustive step, or onto a statistical step with no computed
    conclusive=False in its values (a verdict typed in)."""
    with pytest.raises(ValueError, match="conclusive=False"):
        StepResult("x.s", "x", "statement", "exhaustive", "inconclusive", "n", {"cases": 1})
    with pytest.raises(ValueError, match="conclusive=False"):
        StepResult("x.s", "x", "statement", "statistical", "inconclusive", "n",
                   {"false_alarm_probability": 0.05, "seed": 0})
    with pytest.raises(TypeError, match="conclusive must be the bool"):
        checked("x.s", "x", "statement", "statistical", "n", holds=True, conclusive="no",
                values={"false_alarm_probability": 0.05, "seed": 0})
    step = _step("statement", "inconclusive")
    assert (step.status, step.values["conclusive"]) == ("inconclusive", False)


WORDS = (Quote(1, "some words"),)
READINGS = (Reading("meant", "headline", "what the text supports", WORDS),
            Reading("strict", "stronger", "the strictest sense"))


def test_the_headline_reading_decides_and_a_stronger_reading_that_fails_does_not():
    """Catches a stronger reading's failure turning the headline verdict into 'fails', a headline decided by
    the steps of another reading, or steps shared by every reading left out of one."""
    claim = ClaimResult("r", "statement", "s", "c", None, (
        _step("statement", "holds"), _step("statement", "fails", "strict"), _step("proof", "holds", "meant")),
        source=WORDS, readings=READINGS)
    assert (claim.status, claim.reading_status("strict"), claim.headline.id) == ("holds", "fails", "meant")
    shared_fails = ClaimResult("r", "statement", "s", "c", None, (
        _step("statement", "fails"), _step("proof", "holds", "meant")), source=WORDS, readings=READINGS)
    assert shared_fails.status == "fails" and shared_fails.reading_status("strict") == "fails"
    assert [r["verdict"] for r in claim.to_dict()["readings"]] == ["holds", "fails"]


@pytest.mark.parametrize("readings, steps, match", [
    ((Reading("a", "headline", "m", WORDS), Reading("b", "headline", "m", WORDS)), (), "exactly one headline"),
    ((Reading("a", "stronger", "m"),), (), "exactly one headline"),
    (READINGS, (_step("statement", "holds", "unknown"),), "unknown readings"),
])
def test_readings_are_well_formed(readings, steps, match):
    """Catches two headlines (a verdict chosen among readings after the fact), no headline, or a step that
    names a reading the claim does not list (its result would count for no verdict)."""
    with pytest.raises(ValueError, match=match):
        ClaimResult("r", "statement", "s", "c", None, steps, source=WORDS, readings=readings)


def test_a_headline_reading_must_quote_the_words_that_support_it():
    """Catches a headline reading chosen with no quoted justification."""
    with pytest.raises(ValueError, match="must quote"):
        Reading("a", "headline", "m")


def test_a_counterexample_outside_the_hypotheses_is_refused():
    """Catches a counterexample reported without its computed hypotheses check, one whose record disagrees
    with its own conditions, and a failing counterexample step whose case breaks the statement's hypotheses."""
    inside, outside = hypotheses(decreasing=True, positive=True), hypotheses(decreasing=True, positive=False)
    assert (inside["satisfies_hypotheses"], outside["satisfies_hypotheses"]) == (True, False)
    with pytest.raises(ValueError, match="not a counterexample"):
        checked("x.c", "x", "statement", "counterexample", "n", holds=False, values={**outside, "case": 1})
    with pytest.raises(ValueError, match="must record 'satisfies_hypotheses'"):
        checked("x.c", "x", "statement", "counterexample", "n", holds=False, values={"case": 1})
    with pytest.raises(ValueError, match="disagrees"):
        ClaimResult("r", "statement", "s", "c", {**inside, "satisfies_hypotheses": False}, ())
    with pytest.raises(TypeError, match="must be the bool"):
        hypotheses(decreasing="yes")
    fine = checked("x.c", "x", "statement", "counterexample", "n", holds=False, values={**inside, "case": 1})
    assert fine.status == "fails"
    # a search that found nothing outside the hypotheses holds, and says so
    assert checked("x.c", "x", "statement", "counterexample", "n", holds=True,
                   values={**outside, "case": None}).status == "holds"


def test_paper_proof_steps_never_decide_and_corrections_decide_the_corrected_verdict():
    """Catches a failing check of the paper's own proof turning a claim into 'fails', and a corrected verdict
    decided by the statement steps instead of the correction steps."""
    claim = ClaimResult("x", "statement", "s", "c", None, (
        _step("statement", "fails"), _step("correction", "holds"), _step("proof", "holds"),
        _step("paper-proof", "fails")), corrected="corrected s")
    assert (claim.status, claim.corrected_status, claim.verdict) == ("fails", "holds", "fails")
    extension = ClaimResult("y", "extension", "s", "c", None, (_step("statement", "fails"), _step("proof", "holds")))
    assert extension.verdict == "does not extend"
    holds = ClaimResult("z", "statement", "s", "c", None, (_step("statement", "holds"), _step("paper-proof", "fails"),
                                                          _step("proof", "holds")))
    assert holds.status == "holds" and holds.corrected_status is None


def test_experiment_claims_are_decided_by_their_statement_steps_alone():
    """Catches an experiment claim (no proof by nature) reported 'unproved' when its tests hold, 'supported' with
    no test at all or with a run that was not tested (an argued step), or carrying a proof step that could rescue it."""
    supported = ClaimResult("e", "experiment", "s", "c", None, (_step("statement", "holds"),) * 2)
    assert (supported.status, supported.verdict) == ("holds", "supported")
    refuted = ClaimResult("e", "experiment", "s", "c", None, (_step("statement", "holds"), _step("statement", "fails")))
    assert (refuted.status, refuted.verdict) == ("fails", "not supported")
    assert ClaimResult("e", "experiment", "s", "c", None, ()).status == "unproved"
    untested = ClaimResult("e", "experiment", "s", "c", None, (_step("statement", "holds"), _step("statement", "argued")))
    assert untested.status == "unproved"
    with pytest.raises(ValueError, match="no proof steps"):
        ClaimResult("e", "experiment", "s", "c", None, (_step("statement", "holds"), _step("proof", "holds")))


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"evidence": "argument", "status": "holds", "values": {}}, ValueError, "'argued' goes with evidence"),
    ({"evidence": "exhaustive", "status": "argued", "values": {"a": 1}}, ValueError, "'argued' goes with evidence"),
    ({"evidence": "exhaustive", "status": "holds", "values": {}}, ValueError, "must carry the values"),
    ({"evidence": "statistical", "status": "holds", "values": {"seed": 1}}, ValueError, "false_alarm_probability"),
    ({"evidence": "proof", "status": "holds", "values": {"a": 1}}, ValueError, "evidence must be one of"),
])
def test_a_step_cannot_be_built_with_a_status_its_evidence_does_not_support(kwargs, exc, match):
    """Catches a step typed 'holds' with no computed values, an argued step passed off as checked, or a
    statistical step without its false-alarm probability and seed."""
    with pytest.raises(exc, match=match):
        StepResult("x.s", "x", "statement", note="n", **kwargs)


def test_checked_takes_the_boolean_a_check_returned():
    """Catches a status passed as a string ('holds') instead of a check's boolean."""
    with pytest.raises(TypeError, match="holds must be the bool"):
        checked("x.s", "x", "statement", "exhaustive", "n", holds="holds", values={"a": 1})


def _literal_statuses(path: Path) -> list[str]:
    """Calls in a claim module that pass ``holds=<constant>`` or build ``StepResult(...)`` directly."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if name == "StepResult":
            found.append(f"{path.name}:{node.lineno} StepResult(...)")
        for kw in node.keywords:
            if kw.arg in ("holds", "conclusive") and isinstance(kw.value, ast.Constant):
                found.append(f"{path.name}:{node.lineno} holds={kw.value.value!r}")
    return found


def test_no_claim_module_types_a_status():
    """Catches a verdict typed in: every step of every claim module goes through checked(holds=<computed>,
    conclusive=<computed>) or argued(); none passes a constant or builds a StepResult by hand."""
    offenders = [hit for path in sorted(CLAIMS_DIR.glob("*.py")) for hit in _literal_statuses(path)]
    assert offenders == []


@pytest.fixture()
def quiet_lemma1(monkeypatch):
    """lemma1's check with its slow Monte Carlo step replaced by a canned passing result."""
    canned = {"runs": 0, "false_alarm_probability": DELTA, "seed": lemma1.SEED, "failures": []}
    monkeypatch.setattr(lemma1, "monte_carlo", lambda boxes, seed, models: ("canned", canned))
    return canned


def test_planting_a_failing_check_changes_the_claim_by_the_rule(quiet_lemma1, monkeypatch):
    """Catches a claim status that does not follow its steps: a failing proof check turns lemma1 from 'argued'
    to 'unproved'; a failing statement check turns it to 'fails'."""
    assert lemma1.check().status == "argued"
    monkeypatch.setattr(lemma1, "_limit_is_eq1",
                        lambda: (False, {"cases": 1, "largest_difference": 1.0, "tolerance": 1e-12, "planted": True}))
    planted = lemma1.check()
    assert {s.id: s.status for s in planted.steps}["lemma1.s5-limit-is-eq1"] == "fails"
    assert planted.status == "unproved"
    monkeypatch.setattr(lemma1, "monte_carlo",
                        lambda boxes, seed, models: ("canned", {**quiet_lemma1, "failures": [{"planted": 1}]}))
    assert lemma1.check().status == "fails"


def test_the_printed_rule_names_every_verdict_word_the_report_shows():
    """Catches a verdict word in the report ('extends (argued)', 'not supported', 'inconclusive', ...) that the
    rule printed at the top never defines, so a reader cannot tell what it means."""
    from proofs_checks.verdicts.results import RULE, WORDING

    shown = {word.replace(" (argued)", "") for words in WORDING.values() for word in words.values()}
    assert [w for w in sorted(shown) if f"'{w}'" not in RULE] == []
    assert "'holds (argued)'" in RULE
