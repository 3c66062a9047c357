"""The kit's report is readable: short failure messages with the full detail beside them, a legend, and a misspelt
``expected_failures`` key refused (issue 28, item 6)."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from fred import Fred
from proofs_checks import ExplainerTags, check_explainer, explainer_tags, fred_factory, parametrize_with_checks
from proofs_checks.kit import CHECKS, get_tags, run_check
from proofs_checks.kit.black_boxes import LINEAR, BlackBox
from proofs_checks.kit.checks.harness import CheckRun

#: The issue's bound on a failure message ("at most about 400 characters").
SHORT = 400


class Normalised:
    """A researcher's modification: importances divided by the sum of their absolute values."""

    def __init__(self, inner):
        self.inner = inner

    def explain(self, text, **kwargs):
        exp = self.inner.explain(text, **kwargs)
        scores = np.asarray(exp.importances, dtype=float)
        return dataclasses.replace(exp, importances=scores / np.abs(scores).sum())


@explainer_tags(exact=True)
def normalised(classifier_fn, exact=False):
    return Normalised(Fred(classifier_fn, sampler="exact" if exact else "mask", random_state=0))


def test_a_failure_message_is_short_and_names_its_example_and_the_detail_keeps_everything():
    """Catches a message that runs long (835 characters on the 6-token linear model before) or that loses its
    example when shortened: the message fits in 400 characters on one line and still names the document, p and
    the tolerance; the detail keeps every importance the check printed."""
    (outcome,) = check_explainer(normalised, checks=["check_importances_are_exact_drops"]).outcomes
    assert outcome.status == "failed"
    assert len(outcome.message) <= SHORT and "\n" not in outcome.message, outcome.message
    assert f"text={LINEAR.text!r}" in outcome.message and "p=0.2" in outcome.message
    assert "tolerance" in outcome.message
    importances = re.search(r"importances \[([^\]]*)\]", outcome.detail)[1]
    assert len(importances.split(",")) == LINEAR.b
    assert outcome.to_dict()["detail"] == outcome.detail


def _failure_on_a_ten_token_table(make_explainer):
    """A check failing on an arbitrary f of 10 tokens, whose run prints its 2^10 values (6,000 characters)."""
    rng = np.random.default_rng(0)
    box = BlackBox("table", tuple(f"w{i}" for i in range(10)), rng.random(2**10))
    run = CheckRun(make_explainer, get_tags(make_explainer), box, exact=True, p=0.5, eps=0.15, max_len=3)
    raise AssertionError(f"selected {tuple(run.best_ids)} for the test; {run.where()}")


def test_a_failure_on_a_long_table_keeps_the_document_and_the_run_in_400_characters():
    """Catches the 3,000-character message (a table of 2^b values printed in full, or cut off before the run's p,
    eps and tolerance): the message is at most 400 characters, keeps the document and the run's end, and the detail
    keeps all 1,024 values."""
    outcome = run_check(_failure_on_a_ten_token_table, fred_factory)
    assert outcome.status == "failed" and len(outcome.detail) > 3000
    assert len(outcome.message) <= SHORT, outcome.message
    assert outcome.message.startswith("selected (") and "text='w0 w1 w2 w3 w4 w5 w6 w7 w8 w9'" in outcome.message
    assert outcome.message.endswith(outcome.detail[-60:])
    table = re.search(r"table=\[([^\]]*)\]", outcome.detail)[1]
    assert len(table.split(",")) == 2**10


def _three_long_failures(make_explainer):
    """A check failing as hypothesis reports several distinct failures: a group of long assertions."""
    raise ExceptionGroup("distinct failures", [AssertionError(f"failure {k}: " + "x" * 3000) for k in range(3)])


def test_several_long_failures_give_one_short_message_and_every_failure_in_the_detail():
    """Catches a message joining every failure of a hypothesis group (9,000 characters here): the message is the
    first failure, shortened, saying how many more there are; the detail keeps all three in full."""
    outcome = run_check(_three_long_failures, fred_factory)
    assert outcome.status == "failed" and len(outcome.message) <= SHORT
    assert outcome.message.startswith("failure 0: xxx") and "+2 other failures" in outcome.message
    for k in range(3):
        assert f"failure {k}: " + "x" * 3000 in outcome.detail


def test_the_text_report_has_a_legend_of_the_statuses_it_shows():
    """Catches a report whose words ("skipped", "error", ...) the reader must guess: each status in the report is
    explained in its legend, and one absent from it is not."""

    @explainer_tags(exact=True, importances=False)
    def no_importances(classifier_fn, exact=False):
        return Fred(classifier_fn, sampler="exact" if exact else "mask", random_state=0)

    text = str(check_explainer(no_importances, checks=["check_importances_are_exact_drops",
                                                       "check_invalid_eps_is_refused"]))
    legend = text.split("Legend (kit):")[1]
    assert re.search(r"skipped +not applicable", legend) and re.search(r"passed +the property holds", legend)
    assert "xpassed" not in legend and "--json" in legend


def test_a_misspelt_expected_failures_key_is_refused_with_the_valid_names():
    """Catches a misspelt check name in expected_failures being silently ignored (the check then fails unexpected
    or, worse, a declared failure is never declared): check_explainer and parametrize_with_checks raise ValueError
    naming the key, the closest check and the valid names, from the tags or the argument."""
    typo = "check_invalid_p_is_refsed"
    tagged = explainer_tags(ExplainerTags(exact=True, expected_failures={typo: "p is clamped"}))(
        lambda classifier_fn, exact=False: fred_factory(classifier_fn, exact=exact))
    for call in (lambda: check_explainer(tagged), lambda: parametrize_with_checks([tagged]),
                 lambda: check_explainer(fred_factory, expected_failures={typo: "p is clamped"})):
        with pytest.raises(ValueError) as raised:
            call()
        message = str(raised.value)
        assert repr(typo) in message and "did you mean 'check_invalid_p_is_refused'" in message
        assert all(check.__name__ in message for check in CHECKS)


def test_run_check_with_a_misspelt_key_is_an_error_even_for_a_declared_check():
    """run_check never raises, so a misspelt expected_failures key is an "error" outcome, also for a check the same
    mapping names correctly. Catches the declared check reported "xfailed" (an OK status) with the ValueError as its
    message, which hid the typo from a caller of run_check."""
    check = CHECKS[0]
    outcome = run_check(check, fred_factory, {check.__name__: "declared", "check_typo_name": "oops"})
    assert outcome.status == "error" and "check_typo_name" in outcome.message, outcome
