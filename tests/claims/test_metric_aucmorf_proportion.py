"""Claim metric-aucmorf-proportion (proofs_checks/claims/metrics/metric_aucmorf_proportion.py): "AUC-MoRF is independent of
[the proportion]" holds (argued) on the headline reading (the rows of the importance-based explainers; the
definition takes no e, and the released code's independence is run only with the authors' checkout); it fails on
the stronger reading that takes in Anchors' rows, whose AUC-MoRF masks the anchor itself, and on the reading of e+ as
the positive part of e.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from fred.evaluation.metrics import aucmorf, aucmorf_authors
from proofs_checks.claims.metrics import metric_aucmorf_proportion as m
from tests._helpers import needs_authors_checkout
from tests.claims._released_loop import AUCMORF_ANCHOR, reply, use_reply

CLAIM = "metric-aucmorf-proportion"
needs_checkout = needs_authors_checkout


@pytest.fixture
def result(monkeypatch):
    """The claim without the released code (the CI setting)."""
    monkeypatch.delenv("FRED_AUTHORS_CHECKOUT", raising=False)
    return m.check()


def test_steps_readings_and_verdicts(result):
    """Pins every step, the three readings and the verdicts. Catches the Anchor failure promoted to the headline
    (the note is made of the metric defined 'for the importance-based explanations'), a released-code step typed
    as holding when nothing ran, a definitional step dressed as a computation (R2G review: p1 is argued), and a
    headline counterexample reported while the headline holds."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        f"{CLAIM}.s1-released-code": ("statement", "argument", "argued", "importance"),
        f"{CLAIM}.p1-function-of-e-plus": ("proof", "argument", "argued", "importance"),
        f"{CLAIM}.s2-anchor-size": ("statement", "counterexample", "fails", "every-row"),
        f"{CLAIM}.s3-positive-part": ("statement", "counterexample", "fails", "positive-part"),
        f"{CLAIM}.s4-released-anchor-rows": ("statement", "argument", "argued", "every-row"),
    }
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "importance": ("headline", "argued"), "every-row": ("stronger", "fails"),
        "positive-part": ("alternative", "fails")}
    assert result.status == "argued" and result.counterexample is None


def test_the_headline_states_the_anchor_exception_and_cites_line_1169(result):
    """Regression (R2G review): the statement and the headline reading name the Anchor exception (line 1170), and
    the headline quotes line 1169. Catches a bare 'holds' that readers would carry over to Anchor's aucmorf."""
    assert "Anchor rows" in result.statement and "line 1170" in result.statement
    assert "Anchor rows are the exception" in result.headline.meaning
    assert 1169 in [q.line for q in result.headline.why]


def _scorer(texts):
    """1 - 1/4 per masked token: the symmetric classifier of the counterexample."""
    return np.array([1 - 0.25 * t.split().count("UNK") for t in texts])


def test_anchor_counterexample_by_hand_and_with_this_projects_metrics(result):
    """The two anchors of the two-token document, by hand: printed sum 0 and ((3/4 + 1/2)/2)/2 = 5/16; area
    (1 + 3/4)/2 = 7/8 and (7/8 + 5/8)/2 = 3/4; released quantity (7/8 + 3/4)/2 = 13/16 and 3/4; and with
    fred.evaluation.metrics (aucmorf is NaN where the printed sum degenerates, D = 1). Catches a counterexample
    whose values the claim's own formulas invented, or one outside the hypotheses."""
    cx = next(s for s in result.steps if s.id.endswith("s2-anchor-size")).values
    assert (cx["n_tokens"], cx["anchors"]) == (2, [[0], [0, 1]])
    assert cx["values"] == {"printed": ["0", "5/16"], "area": ["7/8", "3/4"], "released": ["13/16", "3/4"]}
    tokens = ["w0", "w1"]
    assert np.isnan(aucmorf(_scorer, tokens, [0])) and aucmorf(_scorer, tokens, [0, 1]) == pytest.approx(5 / 16)
    assert aucmorf_authors(_scorer, tokens, [0]) == pytest.approx(13 / 16)
    assert aucmorf_authors(_scorer, tokens, [0, 1]) == pytest.approx(3 / 4)
    assert cx["satisfies_hypotheses"] is True and all(cx["hypotheses"].values())


def test_the_counterexamples_are_minimal():
    """A one-token document has one non-empty anchor (and one size of e), so no two sizes to compare. Catches a
    'minimal' claim that a one-token case would beat."""
    assert {len(c) for r in range(1, 2) for c in itertools.combinations(range(1), r)} == {1}
    first, searched = m.size_search()
    assert first["n_tokens"] == 2 and searched["searched_up_to"] == m.MAX_TOKENS


def test_positive_part_counterexample_by_hand(result):
    """The positive-part reading on the same document: each token's occlusion drop is 1 - 3/4 = 1/4 > 0, so LIME or
    SHAP rank [0, 1], e = [0] for k = 1 and [0, 1] for k = 2, both wholly positive, and AUC-MoRF masks e+ = e: the
    hand values of the anchor test. The record satisfies the hypotheses; with a token scored 0 it would not.
    Catches a positive-part case whose e+ is not the positive part of a first-k explanation."""
    step = next(s for s in result.steps if s.id.endswith("s3-positive-part"))
    assert (step.values["k"], step.values["e_plus"], step.values["importance"]) == ([1, 2], [[0], [0, 1]],
                                                                                    ["1/4", "1/4"])
    assert step.values["values"]["printed"] == ["0", "5/16"] and step.values["satisfies_hypotheses"] is True

    def flat_second(masked):
        return Fraction(1) - Fraction(1, 4) * len(masked - {1})  # masking token 1 changes nothing: scored 0

    record = m.positive_part_hypotheses(2, flat_second, [[0], [0, 1]])
    assert record["hypotheses"]["explanations_positively_scored"] is False


def test_the_released_step_can_fail(monkeypatch, tmp_path):
    """If the released function returned different values for different explanation sizes, step s1 would fail.
    Catches a step that reports 'unchanged' without comparing the runs."""
    rows = [{"n_tokens": 3, "ranking": [0, 1], "released": v, "explanation_size": s} for s, v in ((1, 0.5), (2, 0.6))]
    monkeypatch.setattr(m, "released_against_formula", lambda cases, sizes: {"files": [], "rows": rows})
    use_reply(monkeypatch, tmp_path, reply())  # the evaluation loop's rows: the hand ones, which keep AUC-MoRF
    assert m.released_code().status == "fails"


@needs_checkout
def test_the_released_function_ignores_the_explanation():
    """With the authors' checkout: their compute_aucmorf gives one value per curve whatever explanation and k it
    receives, so step s1 holds; the headline stays argued (its proof, the definition, is argued). Catches a step
    that stays argued when the released code can run."""
    result = m.check()
    step = result.steps[0]
    assert (step.evidence, step.status, step.values["moved"]) == ("exhaustive", "holds", [])
    assert len(step.values["rows"]) > len({(r["n_tokens"], tuple(r["ranking"])) for r in step.values["rows"]})
    assert result.reading_status("importance") == "argued"
    assert Fraction(step.values["rows"][0]["exact"]) == Fraction(5, 4)


def test_without_the_checkout_the_released_steps_say_not_run_here(result):
    """Without $FRED_AUTHORS_CHECKOUT, s1 and s4 say 'Not run here' and name the variable. Catches a step that runs
    nothing and says nothing of why."""
    for step in result.steps:
        if step.id.endswith(("s1-released-code", "s4-released-anchor-rows")):
            assert step.note.startswith("Not run here") and "$FRED_AUTHORS_CHECKOUT" in step.note, step.id


def test_a_loop_whose_importance_rows_move_fails_s1(monkeypatch, tmp_path):
    """If the loop's LIME row had another AUC-MoRF when FRED-pos's explanation grows (k = 2), s1 would fail even
    though compute_aucmorf alone ignores the explanation. Catches an s1 that leaves the loop's rows out."""
    rows = [{"n_tokens": 3, "ranking": [0, 1], "released": 0.5, "explanation_size": s} for s in (1, 2)]
    monkeypatch.setattr(m, "released_against_formula", lambda cases, sizes: {"files": [], "rows": rows})
    use_reply(monkeypatch, tmp_path, reply((1, "LIME", "aucmorf", Fraction(2, 3))))
    assert m.released_code().status == "fails"


def test_a_loop_whose_anchor_rows_keep_aucmorf_lets_s4_hold(monkeypatch, tmp_path):
    """Planted: the loop's Anchor row with the 2-token anchor gives the 1-token anchor's AUC-MoRF (19/24): then s4
    holds (the step can come out either way). Catches an s4 typed as failing."""
    use_reply(monkeypatch, tmp_path, reply((1, "Anchor", "aucmorf", AUCMORF_ANCHOR[1])))
    step = m.released_anchor_rows()
    assert step.status == "holds" and step.values["rows"]["aucmorf_moved"] is False


@needs_checkout
def test_the_released_loop_anchor_rows_follow_the_anchor():
    """With the authors' checkout: the released loop's Anchor rows for anchors [0] and [0, 1] have proportions 1/3
    and 2/3 and AUC-MoRF 19/24 and 2/3 (by hand, tests/claims/_released_loop.py), so s4 fails inside the
    hypotheses, while its FRED-pos, LIME and SHAP rows keep 5/8 as their proportion goes 1/3 -> 2/3 (s1 holds).
    Catches Anchor rows still excluded rather than computed, or a proportion not cut to k."""
    result = m.check()
    s1 = next(s for s in result.steps if s.id.endswith("s1-released-code"))
    s4 = next(s for s in result.steps if s.id.endswith("s4-released-anchor-rows"))
    assert (s1.status, s4.status, s4.evidence) == ("holds", "fails", "exhaustive")
    pair = s4.values["rows"]
    assert pair["proportion"] == pytest.approx([1 / 3, 2 / 3], abs=1e-12)
    assert pair["aucmorf"] == pytest.approx([19 / 24, 2 / 3], abs=1e-12)
    assert s4.values["satisfies_hypotheses"] is True and all(s4.values["hypotheses"].values())
    assert s4.values["anchor_cut_to_k"]["proportion"] == pytest.approx(1 / 3, abs=1e-12)
    for row in s1.values["loop_rows"]:
        assert row["aucmorf"] == pytest.approx([5 / 8, 5 / 8], abs=1e-12) and row["proportion_exact"] == ["1/3", "2/3"]
    assert (result.reading_status("importance"), result.reading_status("every-row")) == ("argued", "fails")
