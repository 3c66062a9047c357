"""The claims against a factory: a guarantee the reference keeps that cannot be checked on the factory is reported
as "not checked", with the reason and what to declare, and makes the exit status 1; the text has a legend (issue
28, item 6)."""

from __future__ import annotations

import functools
import json
from types import SimpleNamespace

import numpy as np
import pytest

import proofs_checks.__main__ as cli
from fred import Fred
from proofs_checks import NotApplicable, explainer_tags, fred_factory
from proofs_checks.comparison import ClaimOutcome, Comparison, remedy, run_against, subject_runs
from proofs_checks.subject.explainer import checking, explainer
from proofs_checks.verdicts.results import ClaimResult, checked

CLAIM = "counterfactuals-linear"  # its statistical steps need independent replicates (random_state)


@explainer_tags(exact=False)
def readme_snippet(classifier_fn, exact=False):
    """What the README's snippet leads a researcher to write: Monte Carlo, seeded, no random_state."""
    return Fred(classifier_fn, random_state=0)


class BestIdsOnly:
    """An explainer whose explanations carry only the kit's required field."""

    def __init__(self, classifier_fn, exact=False):
        pass

    def explain(self, text, label=None, p=0.5, eps=0.15, max_len=10, n_samples=None):
        return SimpleNamespace(best_ids=(0,))


only_best_ids = explainer_tags(importances=False, found=False)(BestIdsOnly)


def _held(claim_id: str) -> ClaimOutcome:
    """The reference's run of a claim whose guarantee holds (one statement and one proof step, both holding)."""
    steps = tuple(checked(f"{claim_id}-{role}", claim_id, role, "exhaustive", "held", holds=True, values={"case": 1})
                  for role in ("statement", "proof"))
    return ClaimOutcome(claim_id, "checked", ClaimResult(claim_id, "statement", "s", "c", None, steps))


def test_a_guarantee_the_reference_keeps_and_the_factory_cannot_check_is_not_checked_and_not_ok():
    """Catches the README's factory (no random_state) passing with most claims "not applicable": the reference's
    kept guarantee is "not checked" on it, the comparison is not ok (exit status 1), and the text and JSON give the
    reason and what to declare (a random_state keyword)."""
    (subject,) = run_against(readme_snippet, [CLAIM])
    assert subject.outcome == "not applicable" and "random_state" in subject.reason
    comparison = Comparison("readme_snippet", (_held(CLAIM),), (subject,))
    assert [s.id for s in comparison.not_checked] == [CLAIM] and not comparison.ok
    assert not comparison.breaks and not comparison.keeps
    text = comparison.to_text()
    assert f"  not checked, not applicable: {subject.reason}" in text.splitlines()[3]  # its row of the table
    section = text.split("not checked on this explainer (1):")[1]
    assert f"{CLAIM}: not applicable: {subject.reason}" in section
    assert "to check it: accept a random_state keyword" in section
    (entry,) = json.loads(comparison.to_json())["not_checked"]
    assert (entry["id"], entry["reason"]) == (CLAIM, subject.reason) and "random_state" in entry["to_check_it"]


def test_a_claim_no_guarantee_of_the_reference_rests_on_is_not_counted_as_not_checked():
    """Catches every "not applicable" turning into a failure: a claim the reference does not keep (it fails for
    the reference too) and the subject cannot run leaves the comparison ok."""
    steps = (checked("s", CLAIM, "statement", "exhaustive", "fails", holds=False, values={"case": 1}),)
    failing = ClaimOutcome(CLAIM, "checked", ClaimResult(CLAIM, "statement", "s", "c", None, steps))
    comparison = Comparison("x", (failing,), (ClaimOutcome(CLAIM, "not applicable", reason="tags.exact=False"),))
    assert comparison.not_checked == () and comparison.ok


def test_the_command_exits_1_when_a_guarantee_is_not_checked_and_prints_the_legend(capsys, monkeypatch):
    """Catches the exit status ignoring unchecked guarantees (0 while the README promises 1) and a text output
    without its legend ("fails; corrected: argued", "not involved", "kept", "broken", "not checked")."""
    (subject,) = run_against(readme_snippet, [CLAIM])
    monkeypatch.setattr(cli, "compare", lambda factory, ids: Comparison("readme_snippet", (_held(CLAIM),), (subject,)))
    assert cli.main(["--explainer", "tests.kit.test_friction_comparison:readme_snippet", "--only", "claims"]) == 1
    legend = capsys.readouterr().out.split("Legend (claims):")[1]
    for word in ("fails; corrected: argued", "not involved", "not applicable", "kept", "broken", "not checked"):
        assert f"  {word}: " in legend, word


def _reasons() -> dict[str, str]:
    """The reasons the claims' machinery gives, each from the code path a claim's step takes."""
    def clf(texts):  # a constant model suffices: no step runs
        return np.full((len(texts), 2), 0.5)

    reasons = {}
    for factory, what, ask in ((readme_snippet, "exact", lambda: explainer(clf, exact=True)),
                               (readme_snippet, "random_state", lambda: explainer(clf, random_state=1)),
                               (readme_snippet, "fred_options", lambda: explainer(clf, search="beam")),
                               (only_best_ids, "drop", lambda: explainer(clf).explain("a b", label=1).drop)):
        with checking(factory), pytest.raises(NotApplicable) as why:
            ask()
        reasons[what] = str(why.value)
    return reasons


def test_every_reason_a_claim_gives_comes_with_what_to_declare():
    """Catches a reworded "not applicable" reason no longer mapped to its remedy (the report would then say only
    "see the reason"): each reason the claims' machinery gives names what to declare or offer."""
    reasons = _reasons()
    assert "exact=True" in remedy(reasons["exact"]) and "fred_options=True" in remedy(reasons["fred_options"])
    assert "random_state keyword" in remedy(reasons["random_state"]) and "drop attribute" in remedy(reasons["drop"])


def test_a_claim_not_involving_the_reference_is_not_run_again():
    """Catches the comparison running a claim twice when the reference run shows it never asks for an explainer
    (the baseline claims alone cost the kit-and-claims run some 45 s a time), and the converse: a claim that asks
    for one not being run on the factory. 'lemma2' never asks, 'prop2-specular' does: the factory is called for
    the second only, and the first's subject outcome is the reference's."""
    calls = []

    @functools.wraps(fred_factory)  # the reference's tags (its attributes), so that nothing is not applicable
    def counting_factory(classifier_fn, **kwargs):
        calls.append(kwargs)
        return fred_factory(classifier_fn, **kwargs)

    reference = run_against(fred_factory, ["lemma2", "prop2-specular"])
    assert [r.outcome for r in reference] == ["not involved", "checked"]
    subject = subject_runs(counting_factory, reference)
    assert subject[0] is reference[0] and subject[1].outcome == "checked" and calls
