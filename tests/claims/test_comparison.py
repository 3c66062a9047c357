"""The claims against any explainer (proofs_checks.subject.explainer, proofs_checks.comparison, ``--explainer``): what a
subject can be asked, the outcomes, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fred import Fred
from proofs_checks.comparison import ClaimOutcome, Comparison, run_against
from proofs_checks.kit import NotApplicable, explainer_tags, fred_factory
from proofs_checks.subject.explainer import checking, current, explainer
from proofs_checks.verdicts.results import ClaimResult, checked

ROOT = Path(__file__).resolve().parents[2]


def _constant(texts):
    return np.column_stack([np.full(len(texts), 0.25), np.full(len(texts), 0.75)])


@explainer_tags(exact=False)
def _plain(classifier_fn, exact=False):
    """A protocol-only factory: no exact mode, no FRED options, no random_state, explanations with best_ids only."""
    if exact:
        raise NotImplementedError

    class Explainer:
        def explain(self, text, label=None, p=0.5, eps=0.15, max_len=10, n_samples=None):
            class Explanation:
                best_ids = (0,)
                found = True
                importances = tuple(0.0 for _ in text.split())
            return Explanation()

    return Explainer()


def test_a_subject_is_never_given_what_its_tags_do_not_declare():
    """Catches a subject silently replaced by the reference (or handed options it never declared): every missing
    capability is a NotApplicable naming it."""
    with checking(_plain):
        with pytest.raises(NotApplicable, match="exact"):
            explainer(_constant, exact=True)
        with pytest.raises(NotApplicable, match=r"\['beam_width', 'search'\].*fred_options"):
            explainer(_constant, search="beam", beam_width=2)
        with pytest.raises(NotApplicable, match="independent replicates"):
            explainer(_constant, random_state=3)
        # The paper's baseline and search are the ones the tags declare: met without being passed.
        exp = explainer(_constant, baseline="mean", search="exhaustive").explain("a b c")
        assert exp.best == ("a",) and exp.tokens == ("a", "b", "c")
        with pytest.raises(NotApplicable, match="explanation.drop"):
            exp.drop
        assert current().requests == 1


def test_missing_found_tag_makes_reading_found_not_applicable():
    """Catches a claim reading ``found`` of an explainer that declares none (it would read None as False)."""
    with checking(explainer_tags(exact=False, found=False)(_plain)):
        exp = explainer(_constant).explain("a b")
        with pytest.raises(NotApplicable, match="found"):
            exp.found


def test_the_reference_subject_builds_exactly_the_fred_the_claims_ask_for():
    """Catches FRED's options or the replicate seed dropped on the reference path, which would change the
    reference verdicts: the built explainer gives the explanation of the Fred built directly."""
    with checking(fred_factory):
        got = explainer(_linear, exact=True, search="beam", beam_width=1, baseline="original").explain("a b c", p=0.3)
        mc = explainer(_linear, random_state=7).explain("a b c", n_samples=50)
    want = Fred(_linear, sampler="exact", search="beam", beam_width=1, baseline="original").explain("a b c", p=0.3)
    want_mc = Fred(_linear, random_state=7).explain("a b c", n_samples=50)
    assert (got.best_ids, got.threshold, got.search, got.baseline) == (want.best_ids, want.threshold, "beam",
                                                                        "original")
    np.testing.assert_array_equal(mc.sample_perturbed, want_mc.sample_perturbed)


def _linear(texts):
    f = np.array([0.1 + 0.5 * ("a" in t.split()) + 0.2 * ("b" in t.split()) + 0.1 * ("c" in t.split())
                  for t in texts])
    return np.column_stack([1 - f, f])


def _raising(classifier_fn, exact=False):
    class Explainer:
        def explain(self, *args, **kwargs):
            raise RuntimeError("planted crash")
    return Explainer()


def test_an_explainer_that_raises_gives_error_outcomes_not_a_crash():
    """Catches the report dying on the first exception of a broken explainer; claims that never ask for an
    explainer are 'not involved' (their verdict is the paper's)."""
    out = {o.id: o for o in run_against(explainer_tags(exact=True)(_raising), ["prop2-specular", "lemma2"])}
    assert out["prop2-specular"].outcome == "error" and "RuntimeError: planted crash" in out["prop2-specular"].reason
    assert out["lemma2"].outcome == "not involved" and out["lemma2"].guarantee == "holds"


def _outcome(claim_id, holds_statement, holds_correction, outcome="checked"):
    steps = (checked(f"{claim_id}.st", claim_id, "statement", "exhaustive", "s", holds=holds_statement,
                     values={"n": 1}),
             checked(f"{claim_id}.c", claim_id, "correction", "exhaustive", "c", holds=holds_correction,
                     values={"n": 1}),
             checked(f"{claim_id}.p", claim_id, "proof", "exhaustive", "p", holds=True, values={"n": 1}))
    return ClaimOutcome(claim_id, outcome, ClaimResult(claim_id, "statement", "s", "c", None, steps, corrected="c"))


def test_breaks_and_keeps_follow_the_corrected_guarantee():
    """Catches a comparison that calls a guarantee broken when only the statement as written fails (it fails for
    the reference too), or kept when the correction step the reference passes fails."""
    reference = (_outcome("x", False, True), _outcome("y", False, True), _outcome("z", True, True))
    subject = (_outcome("x", False, True), _outcome("y", False, False),
               ClaimOutcome("z", "not applicable", reason="needs exact"))
    comparison = Comparison("planted", reference, subject)
    assert comparison.breaks == ("y",) and comparison.keeps == ("x",) and not comparison.ok
    assert [s.id for s in comparison.new_failures("y")] == ["y.c"]
    assert json.loads(comparison.to_json())["breaks"] == ["y"]
    assert "Guarantees this explainer breaks (1):" in comparison.to_text()


def test_an_inconclusive_guarantee_is_neither_kept_nor_broken_and_is_not_ok():
    """Catches a comparison that counts a test unable to reach its level as breaking the guarantee (a false
    finding against the explainer) or as keeping it (a pass no test earned)."""
    weak = checked("w.c", "w", "correction", "statistical", "c", holds=True, conclusive=False,
                   values={"false_alarm_probability": 0.05, "seed": 0, "smallest_attainable_p": 0.0625})
    proof = checked("w.p", "w", "proof", "exhaustive", "p", holds=True, values={"n": 1})
    subject = ClaimOutcome("w", "checked", ClaimResult("w", "statement", "s", "c", None, (weak, proof),
                                                       corrected="c"))
    comparison = Comparison("planted", (_outcome("w", False, True),), (subject,))
    assert (comparison.breaks, comparison.keeps, comparison.inconclusive) == ((), (), ("w",))
    assert not comparison.ok and "Inconclusive on this explainer" in comparison.to_text()


def test_command_line_prints_json_and_exits_1_on_an_error():
    """Catches ``--explainer`` printing a Python dict, or exiting 0 when a claim could not be checked."""
    run = subprocess.run([sys.executable, "-m", "proofs_checks", "--explainer", "tests.kit.test_kit:raising",
                          "--only", "claims", "--claims", "prop2-specular", "lemma2", "--json"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    parsed = json.loads(run.stdout)
    assert run.returncode == 1 and parsed["ok"] is False and parsed["kit"] is None
    assert parsed["claims"]["errors"] == ["prop2-specular"]
    rows = {c["id"]: c for c in parsed["claims"]["claims"]}
    assert rows["lemma2"]["explainer"]["outcome"] == "not involved"
    assert rows["prop2-specular"]["reference"]["guarantee"] == "argued"


def test_no_claim_builds_fred_directly():
    """Catches a claim calling ``fred.Fred`` (or importing it) instead of ``proofs_checks.subject.explainer.explainer``: that
    claim would check the reference whatever ``--explainer`` names."""
    import ast

    sources = sorted((ROOT / "proofs_checks" / "claims").rglob("*.py")) + sorted(
        (ROOT / "proofs_checks" / "cases").glob("*.py"))
    offenders = []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "fred" and any(a.name == "Fred" for a in node.names):
                offenders.append(f"{path.name}:{node.lineno} imports Fred")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Fred":
                offenders.append(f"{path.name}:{node.lineno} calls Fred")
    assert not offenders, offenders
