"""The conformance kit: the reference passes every check, outcomes are recorded (never raised), tags decide what
is applicable, and the command line prints real JSON."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fred import Fred
from fred_constants import EPS, MAX_LEN, P
from proofs_checks import (
    CheckOutcome,
    ExplainerTags,
    NotApplicable,
    check_explainer,
    explainer_tags,
    fred_factory,
    get_tags,
    parametrize_with_checks,
)
from proofs_checks.kit import CHECKS
from proofs_checks.kit.checks import harness
from proofs_checks.kit.tags import CAPABILITIES, DECLARED_SEARCHES


class Raises:
    """An explainer whose explain always raises."""

    def __init__(self, classifier_fn, exact=False):
        pass

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None):
        raise RuntimeError("boom inside explain")


@explainer_tags(exact=True)
def raising(classifier_fn, exact=False):
    return Raises(classifier_fn)


@explainer_tags(exact=True)
def broken_factory(classifier_fn, exact=False):
    raise ZeroDivisionError("the factory itself fails")


def test_the_kit_has_at_least_25_documented_checks():
    """Catches a check lost from the registry, an undocumented check, or a capability name the tags do not know."""
    names = [c.__name__ for c in CHECKS]
    assert len(names) >= 25 and len(set(names)) == len(names)
    for check in CHECKS:
        assert check.__name__.startswith("check_") and len(inspect.getdoc(check)) > 60, check.__name__
        assert set(check.needs) <= set(CAPABILITIES), check.__name__


def test_checks_run_part_by_part_whatever_the_import_order(monkeypatch):
    """Catches a registry ordered by the import order of the check modules (the package's __init__ imports them
    alphabetically, drops before sampling): checks registered out of order come out in the order of PARTS, each
    part in definition order, and the kit's CHECKS go through every part in that order."""

    def check_of(part: str, name: str):
        def check(make_explainer):
            return None

        check.__name__, check.__module__ = name, f"proofs_checks.kit.checks.{part}"
        return check

    monkeypatch.setattr(harness, "CHECKS", [])
    for part, name in [("interface", "i1"), ("sampling", "s1"), ("interface", "i2"), ("drops", "d1")]:
        harness.check_needing()(check_of(part, name))
    assert [c.__name__ for c in harness.CHECKS] == ["s1", "d1", "i1", "i2"]
    parts = [harness.PARTS.index(c.__module__.rsplit(".", 1)[-1]) for c in CHECKS]
    assert parts == sorted(parts) and set(parts) == set(range(len(harness.PARTS)))


def test_reference_explainer_passes_every_check():
    """The kit must not flag the reference (exact mode): every check applies and passes."""
    report = check_explainer(fred_factory)
    assert [o.status for o in report.outcomes] == ["passed"] * len(CHECKS), str(report)


def test_an_explainer_raising_inside_explain_gives_error_outcomes_not_a_crash(monkeypatch):
    """check_explainer never raises: an exception inside explain is an "error" outcome carrying its message.
    Without shrinking (2.7 s of re-raising on simpler inputs, the same error): the command-line test below runs
    this explainer with it."""
    monkeypatch.setattr(harness, "SHRINK_FAILURES", False)
    report = check_explainer(raising)
    assert {o.status for o in report.outcomes} == {"error"}, str(report)
    assert all("RuntimeError: boom inside explain" in o.message for o in report.outcomes)
    assert not report.ok


def test_a_failing_factory_gives_error_outcomes(monkeypatch):
    """An exception in the factory itself is recorded per check, not raised (without shrinking, as above)."""
    monkeypatch.setattr(harness, "SHRINK_FAILURES", False)
    report = check_explainer(broken_factory)
    assert {o.status for o in report.outcomes} == {"error"}
    assert "ZeroDivisionError: the factory itself fails" in report.outcomes[0].message


def test_xfailed_outcome_keeps_the_real_message_beside_the_declared_reason():
    """A declared failure is "xfailed" with both the declared reason and what actually happened; a declared
    failure that passes is "xpassed" (not ok); tags and the argument both declare."""
    tagged = explainer_tags(ExplainerTags(exact=True, expected_failures={
        "check_invalid_p_is_refused": "raises RuntimeError by design"}))(lambda clf, exact=False: Raises(clf))
    # Only the two declared checks: every check's error outcome on an explainer raising inside explain is
    # test_an_explainer_raising_inside_explain_gives_error_outcomes_not_a_crash's.
    report = check_explainer(tagged, expected_failures={"check_selection_solves_eq2": "not yet"},
                             checks=["check_invalid_p_is_refused", "check_selection_solves_eq2"])
    outcome = {o.name: o for o in report.outcomes}
    assert outcome["check_invalid_p_is_refused"].status == "xfailed"
    assert outcome["check_invalid_p_is_refused"].reason == "raises RuntimeError by design"
    assert "boom inside explain" in outcome["check_invalid_p_is_refused"].message
    assert outcome["check_selection_solves_eq2"].status == "xfailed"

    report = check_explainer(fred_factory, expected_failures={"check_max_len_is_respected": "wrongly declared"},
                             checks=["check_max_len_is_respected"])
    assert report.outcomes == (CheckOutcome("check_max_len_is_respected", "xpassed",
                                            "declared as an expected failure but passed", "wrongly declared"),)
    assert not report.ok


def test_missing_capabilities_make_checks_not_applicable_with_the_reason():
    """A check needing a capability the tags do not declare is "skipped" with the capability named, never run."""
    calls = []

    @explainer_tags(exact=False, importances=False, found=False, settable_n_samples=False)
    def factory(classifier_fn, exact=False):
        calls.append(exact)
        return Fred(classifier_fn, random_state=0)

    report = check_explainer(factory, checks=["check_importances_are_exact_drops", "check_found_matches_the_threshold",
                                              "check_n_samples_is_honoured"])
    assert {o.name: o.message.split("(tags.")[1] for o in report.outcomes if o.status == "skipped"} == {
        "check_importances_are_exact_drops": "importances=False)", "check_found_matches_the_threshold": "found=False)",
        "check_n_samples_is_honoured": "settable_n_samples=False)"}
    assert calls == []


def test_tags_refuse_wrong_values_and_default_to_the_papers_variants():
    """Catches tags accepting a misspelt baseline or a non-bool capability, and a changed default."""
    with pytest.raises(ValueError, match="baseline"):
        ExplainerTags(baseline="median")
    with pytest.raises(ValueError, match="search"):
        ExplainerTags(search="greedy")
    with pytest.raises(TypeError, match="exact"):
        ExplainerTags(exact=1)
    with pytest.raises(TypeError, match="expected_failures"):
        ExplainerTags(expected_failures={"check_x": 3})
    assert get_tags(lambda clf, exact=False: None) == ExplainerTags()
    assert (ExplainerTags().baseline, ExplainerTags().search, ExplainerTags().exact) == ("mean", "exhaustive", False)
    with pytest.raises(NotApplicable, match="exact mode"):
        ExplainerTags().require("exact")
    assert get_tags(fred_factory).exact and get_tags(fred_factory).fred_options


def test_tags_declare_algorithm1_or_a_beam():
    """Catches a reordering or an extension of fred_constants.STRATEGIES (whose first two the tags accept) changing
    what a factory may declare: Algorithm 1's exhaustive search or a beam."""
    assert DECLARED_SEARCHES == ("exhaustive", "beam")


def test_fred_factory_passes_freds_options_and_seed_through():
    """The claim report builds variants through the factory: options and random_state must reach Fred."""
    explainer = fred_factory(lambda texts: None, exact=True, search="beam", baseline="original", random_state=3)
    assert (explainer.search, explainer.baseline, explainer.random_state, explainer.sampler.name) == (
        "beam", "original", 3, "exact")


def test_reproducibility_check_catches_an_explainer_advancing_its_generator():
    """A Fred whose random_state is a Generator (advanced by each call) but whose tags keep seeded=True fails the
    reproducibility check: the second call draws other rows."""
    make = explainer_tags(exact=True)(lambda clf, exact=False: Fred(clf, random_state=np.random.default_rng(0)))
    (outcome,) = check_explainer(make, checks=["check_same_seed_same_explanation"]).outcomes
    assert outcome.status == "failed" and "a second call of the same explainer" in outcome.message


def test_unknown_check_names_are_refused():
    """A typo in ``checks=`` must not silently run nothing."""
    with pytest.raises(ValueError, match="check_nope"):
        check_explainer(fred_factory, checks=["check_nope"])


def test_report_json_round_trips_and_the_command_line_prints_json():
    """--json printed a Python dict before: it must be JSON that json.loads reads back, with the exit status."""
    report = check_explainer(fred_factory, checks=["check_max_len_is_respected", "check_invalid_p_is_refused"])
    assert json.loads(report.to_json()) == report.to_dict()
    assert report.to_dict()["tags"]["exact"] is True
    run = subprocess.run([sys.executable, "-m", "proofs_checks", "--explainer", "tests.kit.test_kit:raising",
                          "--only", "kit", "--json"], capture_output=True, text=True, timeout=300,
                         cwd=Path(__file__).parents[2])
    parsed = json.loads(run.stdout)
    assert run.returncode == 1 and parsed["ok"] is False and parsed["claims"] is None
    assert parsed["kit"]["counts"]["error"] == len(CHECKS) and parsed["kit"]["explainer"] == "raising"
    assert all("boom inside explain" in check["detail"] for check in parsed["kit"]["checks"])


@parametrize_with_checks([fred_factory])
def test_parametrize_with_checks_on_the_reference(explainer, check):
    """The pytest entry point: one item per check, each passing on the reference."""
    check(explainer)


def test_parametrize_with_checks_marks_declared_failures_as_strict_xfails():
    """Declared failures become strict xfail marks with the declared reason; other checks carry no mark."""
    tagged = explainer_tags(ExplainerTags(exact=True, expected_failures={"check_regression_output": "no 1-d"}))(
        lambda clf, exact=False: None)
    decorator = parametrize_with_checks([tagged])
    params = decorator.args[1]
    marked = {p.values[1].__name__: p.marks for p in params if p.marks}
    assert list(marked) == ["check_regression_output"]
    (mark,) = marked["check_regression_output"]
    assert mark.name == "xfail" and mark.kwargs == {"strict": True, "reason": "no 1-d"}
    assert len(params) == len(CHECKS)
