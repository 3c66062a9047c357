"""tools/kit_mutation.py, the kit's mutation score (issue 38): what a run records and how the report counts it, and
that the published report and its written arguments belong to the subject as it is."""

from __future__ import annotations

import re

from tests._helpers import load_tool

kit_mutation = load_tool("kit_mutation")
ast_mutants = load_tool("ast_mutants")
SOURCE = kit_mutation.SUBJECT.read_text()
MUTANTS = ast_mutants.mutants(SOURCE)
KEYS = {m.key: m for m in MUTANTS}


def _row(m, exact: str, monte_carlo: str, reason: str | None = None) -> dict:
    def cell(state):
        return {"state": state, "check": "check_x" if state == "killed" else ""}

    return {"mutant": m, "modes": {"exact": cell(exact), "Monte Carlo": cell(monte_carlo)}, "reason": reason}


def test_every_argument_names_a_mutant_of_the_subject():
    """Catches a stale argument: an equivalent-mutant reason whose key no longer names a mutant of
    docs/examples/plain_fred.py (the subject was edited) or that gives no reason."""
    arguments = kit_mutation.load_equivalents()
    assert set(arguments) <= set(KEYS), sorted(set(arguments) - set(KEYS))
    assert all(len(reason.split()) >= 8 for reason in arguments.values())


def test_the_published_report_is_of_this_subject_and_complete():
    """Catches docs/kit_mutation.md left behind by an edit of the subject (its sha256 is the subject's), or published
    from a partial run."""
    report = (kit_mutation.ROOT / "docs" / "kit_mutation.md").read_text()
    assert f"sha256 `{kit_mutation.source_hash(SOURCE)}`" in report
    assert "Partial" not in report and f"{len(MUTANTS)} mutants" in report


def test_the_published_score_meets_the_target():
    """Catches a regression of the kit's power published without notice: every mode's score in the report is at least
    the target, and no non-equivalent mutant survives both modes."""
    report = (kit_mutation.ROOT / "docs" / "kit_mutation.md").read_text()
    scores = [float(s) for s in re.findall(r"\| (\d+\.\d)% \|", report)]
    assert len(scores) == 2 and min(scores) >= 100 * kit_mutation.TARGET, scores
    assert "## Survivors\n\nNone." in report


def test_counts_exclude_unreached_modes_and_argued_mutants():
    """Catches a score that counts a mutant in a mode that never runs its line, or an argued equivalent mutant as
    killed or survived: four mutants, one unreached in Monte Carlo mode, one argued."""
    a, b, c, d = MUTANTS[:4]
    rows = [_row(a, "killed", "killed"), _row(b, "killed", "not reached"), _row(c, "survived", "survived", "why"),
            _row(d, "survived", "timeout")]
    exact, monte_carlo = kit_mutation.counts(rows)
    assert exact[1:] == [4, 4, 1, "2 (0)", 1, 0, "66.7% **below target**"]
    assert monte_carlo[1:] == [4, 3, 1, "2 (1)", 0, 0, "100.0%"]


def test_report_lists_survivors_and_wrong_arguments():
    """Catches a survivor or an argued-yet-killed mutant missing from the report: each is listed with its key and
    diff, and an argued mutant that a check kills is reported as a wrong argument."""
    a, b, c = MUTANTS[:3]
    rows = [_row(a, "survived", "survived"), _row(b, "killed", "survived", "an argument"), _row(c, "killed", "killed")]
    text = kit_mutation.render(rows, SOURCE, 60.0, partial=False)
    survivors = text.split("## Survivors")[1].split("##")[0]
    assert a.key in survivors and a.diff in survivors and b.key not in survivors
    assert b.key in text.split("Argued equivalent, yet killed")[1].split("##")[0]
    assert "an argument" in text.split("## Equivalent mutants")[1]


def test_a_timeout_counts_in_both_modes():
    """Catches a timeout recorded as a survival: a worker ended by the watchdog kills the mutant in both modes."""
    outcomes = kit_mutation.timed_out(5)
    assert set(outcomes) == set(kit_mutation.MODES) and all(o["killed"] for o in outcomes.values())


def test_kill_names_the_first_failing_check_of_the_order():
    """Catches a kill attributed to the wrong check, or a survivor reported as killed: the ``>`` mutant fails the
    boundary check after passing the mask check, the subject itself passes both."""
    order = ["check_mask_token_is_unseen", "check_threshold_is_reached_at_equality"]
    strict = SOURCE.replace("if drop >= threshold:", "if drop > threshold:")
    assert strict != SOURCE
    for mode in kit_mutation.MODES:
        assert kit_mutation.kill(strict, mode, order)["check"] == "check_threshold_is_reached_at_equality"
        assert kit_mutation.kill(SOURCE, mode, order) == {"killed": False, "check": "", "status": "survived",
                                                           "message": ""}


def test_kill_leaves_shrinking_as_it_found_it():
    """Catches kill() leaving the kit's shrinking off for the caller's later checks (a test session's)."""
    from proofs_checks.kit.checks import harness

    before = harness.SHRINK_FAILURES
    kit_mutation.kill(SOURCE, "exact", ["check_invalid_p_is_refused"])
    assert harness.SHRINK_FAILURES is before


def test_results_of_another_kit_are_not_reused(tmp_path):
    """Catches a resumed run reusing outcomes recorded against another kit (its fingerprint differs)."""
    path = tmp_path / "results.jsonl"
    path.write_text('{"kit": "old", "source": "s1"}\n{"kit": "new", "source": "s2"}\n')
    assert set(kit_mutation.load_results(path, "new")) == {"s2"}
