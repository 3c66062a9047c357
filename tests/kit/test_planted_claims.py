"""The claim report against each planted modification (``python -m proofs_checks --explainer``): a wrong change
breaks exactly the guarantees its entry lists, a correct one breaks none, and none errs.

Why the sets are what they are:

* 1 - p, the released threshold (declared or not) and an unconditioned drop change the drops, so every claim that
  compares FRED's exact choice or scores with the referee's breaks, and so does lemma1, which reads the drops each
  explainer reports (never recomputing them from the samples it exposes: tests/kit/test_planted_reported_drops.py);
  the threshold also moves the selection (lemma1-selection, algorithm1-beam, algorithm1-literal). A declared variant
  breaks the paper's guarantees all the same: claims check the paper, tags only explain the failure.
* LIME's sampler has no exact mode: only Lemma 1's statistical check can run on it, and it breaks it.
* Listing the selection by importance breaks the claims that read the selection as an ordered candidate.
* A mask that is a real word ("the") and ``>`` for Eq. (2)'s ``>=`` break claims comparing FRED's selection or
  drops with the referee's: the sets are those measured at the default seeds (issue 38), not derived.
* A width-4 beam, clipping p, an empty mean read as 0 and lowercasing break no claim: the claims' documents are
  short (the beam is exhaustive up to 4 tokens), valid p, lowercase tokens; the kit catches them (test_planted_*).

The ``minilm-*`` claims are left out: they run the checks of ``lemma1`` (``lemma1.monte_carlo``) and
``lemma1-selection`` (``selection_cases.measure``) on the transformer's tables, and those checks meet every planted
entry here already; running the transformer against 14 explainers would double the suite's time.

One test item per (claim, entry), so that pytest-xdist spreads the battery (a single item per entry ran every claim
and took up to two minutes). The items of one entry together assert what the whole comparison did:

* each item: the claim is among the entry's breaks iff it is listed in ``entry.claims_break``, and the entry's run
  of it does not err; for a correct entry also that it is inconclusive iff listed in ``entry.claims_inconclusive``
  with its reason (``Comparison.ok`` claim by claim);
* :func:`test_listed_claims_are_in_the_battery`: every listed claim has its items (so the per-claim "iff" adds up
  to ``set(comparison.breaks) == entry.claims_break``);
* :func:`test_correct_variant_keeps_a_guarantee`: ``comparison.keeps`` is not empty for a correct entry.

The reference FRED's run of a claim is computed once per test session and shared by the xdist workers
(``reference_runs``, tests/conftest.py; tests/claims/test_report.py reads the same runs): a worker that needs a
claim the other is running waits for it. The session puts each claim's items right after the claim's own test file
(tests/claims/test_<claim>.py, ``pytest_collection_modifyitems`` in tests/conftest.py), and xdist's ``worksteal``
scheduler (tests/conftest.py) hands each worker runs of consecutive items, so the worker that ran the reference, and
holds the claim's entry-independent caches (the claims' case families,
:func:`analytic.selection.selection_distribution`), mostly runs the entries too. (``xdist_group`` marks would pin a
claim to one worker, but only under ``--dist loadgroup``, which cannot move an item once assigned.)

A claim whose reference run is "not involved" never asked the subject for an explainer, and ``explainer`` is the
only way a claim reads the subject (:mod:`proofs_checks.subject.explainer`): its run is the same code for every factory, and
no comparison counts it as kept or broken. Its items compare the reference with one run against a factory that
cannot explain anything (no tags, raises when called; cached per claim): the same outcome and verdict show the claim
indeed does not depend on the explainer, instead of re-running it once per entry (these claims take about 4 s an
entry together).
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest

from proofs_checks.claim_index import CLAIMS
from proofs_checks.comparison import ClaimOutcome, Comparison, run_against
from proofs_checks.kit.planted import CATALOGUE
from proofs_checks.statistics.seeds import SEED_ENV
from tests.conftest import BATTERY, COLLECTED, ORDERED, REPORT_TEST

#: The battery's claims: not the ``minilm-*`` ones (they need the neural extra and the data) nor the ``baseline-*``
#: ones, which check LIME, SHAP and Anchors and never build an explainer (tests/claims/test_baseline_claims.py
#: checks that their modules cannot reach one).
IDS = [claim for claim in CLAIMS if not claim.startswith(("minilm-", "baseline-"))]
ENTRIES = {entry.name: entry for entry in CATALOGUE}
CORRECT = [entry for entry in CATALOGUE if entry.kind == "correct"]
#: Claims the reference checks in about a second; tried first when looking for a kept guarantee (order only).
QUICK = ("prop2-specular", "tfidf-oov", "lemma1", "importance-linear")


def _at_default_seeds(factory, claim_id: str) -> tuple[ClaimOutcome, ...]:
    """The claim run against ``factory`` at the default seeds (the pinned sets are those of the default seeds)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(SEED_ENV, raising=False)
        return run_against(factory, [claim_id])


@pytest.fixture(scope="module")
def reference(reference_runs):
    """The reference FRED's run of a claim at the default seeds, as ``run_against`` gives it (a 1-tuple)."""
    return lambda claim_id: (reference_runs.outcome(claim_id, default_seeds=True),)


def _unusable(classifier_fn, **kwargs):
    """A factory with no tags that fails if a claim asks it for an explainer."""
    raise AssertionError("a claim the reference runs without an explainer asked for one")


def _subject(entry_name: str, claim_id: str, reference: tuple[ClaimOutcome, ...]) -> tuple[ClaimOutcome, ...]:
    """The entry's run of the claim; for a claim not involving the explainer, the run against :func:`_unusable`."""
    if reference[0].outcome == "not involved":
        return _not_involving(claim_id)
    return _entry_run(entry_name, claim_id)


@functools.cache
def _entry_run(entry_name: str, claim_id: str) -> tuple[ClaimOutcome, ...]:
    return _at_default_seeds(ENTRIES[entry_name].factory, claim_id)


@functools.cache
def _not_involving(claim_id: str) -> tuple[ClaimOutcome, ...]:
    return _at_default_seeds(_unusable, claim_id)


@pytest.mark.slow
@pytest.mark.parametrize("claim_id, entry", [(claim_id, entry) for claim_id in IDS for entry in CATALOGUE],
                         ids=[f"{claim_id}-{entry.name}" for claim_id in IDS for entry in CATALOGUE])
def test_claims_broken_are_exactly_the_listed_ones(claim_id, entry, reference):
    """Catches a claim that no longer sees a planted bug (a guarantee a wrong FRED keeps), a correct variant reported
    as breaking a guarantee, and a claim that errs on an explainer instead of checking it or saying it is not
    applicable. At the default seeds (the pinned sets of statistical claims are those of the default seeds)."""
    ref = reference(claim_id)
    subject = _subject(entry.name, claim_id, ref)
    comparison = Comparison(entry.name, ref, subject)
    if ref[0].outcome == "not involved":
        assert (subject[0].outcome, subject[0].describe()) == ("not involved", ref[0].describe()), \
            comparison.to_text()
    assert (claim_id in comparison.breaks) == (claim_id in entry.claims_break), comparison.to_text()
    assert not comparison.errors, comparison.to_text()
    if entry.kind == "correct":  # ok also counts guarantees not checked; a known limit is listed with its reason
        assert (claim_id in comparison.inconclusive) == (claim_id in entry.claims_inconclusive), comparison.to_text()


@pytest.mark.parametrize("entry", CATALOGUE, ids=[e.name for e in CATALOGUE])
def test_listed_claims_are_in_the_battery(entry):
    """Catches an entry listing a claim the battery does not run (misspelt, renamed or a ``minilm-*`` claim): its
    items would never see it, where the whole comparison's set would differ."""
    listed = entry.claims_break | set(entry.claims_inconclusive)
    assert listed <= set(IDS), f"not run by the battery: {sorted(listed - set(IDS))}"


def test_the_session_runs_every_battery_item_after_its_claims_test_file(request):
    """The session's order (tests/conftest.py's ``pytest_collection_modifyitems``) holds the items collected, each
    once, a claim's battery items right after the last item of tests/claims/test_<claim>.py when that file was
    collected, and the report's test last. Catches the reordering dropping or repeating an item (the suite would
    check less than it says) and placing a claim's items away from the worker that holds its caches."""
    nodeids = request.config.stash[ORDERED]  # the hook's own output (--lf or --ff may reorder the session later)
    collected = request.config.stash[COLLECTED]
    prefix = BATTERY
    if not {f"{prefix}{c}-{e.name}]" for c in IDS for e in CATALOGUE} <= set(collected):
        pytest.skip("the session did not collect the whole battery (-k or a file selection)")
    assert sorted(nodeids) == sorted(collected)
    for claim_id in IDS:
        module = f"tests/claims/test_{claim_id.replace('-', '_')}.py::"
        positions = [i for i, n in enumerate(nodeids) if n.startswith(module)]
        if positions:
            items = nodeids[positions[-1] + 1: positions[-1] + 1 + len(CATALOGUE)]
            assert items == [f"{prefix}{claim_id}-{entry.name}]" for entry in CATALOGUE], claim_id
    report = [n for n in collected if n.startswith(REPORT_TEST)]
    assert nodeids[len(nodeids) - len(report):] == report


@pytest.mark.parametrize("args, dist, steals", [
    (["-n", "2"], "load", True), (["-n", "2", "--dist", "load"], "load", False),
    (["-n", "2", "--dist=load"], "load", False), (["-n", "2", "--dist", "loadgroup"], "loadgroup", False),
    ([], "no", False)])
def test_xdist_steals_work_unless_told_otherwise(args, dist, steals, monkeypatch):
    """``-n N`` alone gets the worksteal scheduler; a --dist given (even ``load``) is obeyed. Catches the suite
    ending with one worker idle behind a long queue (the default ``load``), and a user's --dist overridden."""
    import tests.conftest as session_config

    class Stealing:
        def __init__(self, config, log):
            self.config = config

    monkeypatch.setattr(session_config, "WorkStealingScheduling", Stealing)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    config = SimpleNamespace(invocation_params=SimpleNamespace(args=tuple(args)), getvalue=lambda name: dist,
                             getoption=lambda name, default=None: False)
    scheduler = session_config.pytest_xdist_make_scheduler(config, log=None)
    assert isinstance(scheduler, Stealing) if steals else scheduler is None


@pytest.mark.slow
@pytest.mark.parametrize("entry", CORRECT, ids=[e.name for e in CORRECT])
def test_correct_variant_keeps_a_guarantee(entry, reference):
    """Catches a correct variant that passes only because it keeps no guarantee at all (every claim not applicable
    to it): it must keep at least one. Stops at the first kept claim, quick claims first."""
    for claim_id in sorted(IDS, key=lambda c: QUICK.index(c) if c in QUICK else len(QUICK)):
        ref = reference(claim_id)
        if Comparison(entry.name, ref, _subject(entry.name, claim_id, ref)).keeps:
            return
    pytest.fail(f"{entry.name} keeps no guarantee of the claims {IDS}")
