"""The authors' released evaluation loop on small exact cases (proofs_checks/claims/metrics/released_evaluation.py),
shared by metric-sufficiency st4, metric-aucmorf c1 and metric-aucmorf-proportion s1/s4: the expected rows against
a hand computation (tests/claims/_released_loop.py), the comparison against planted answers, and, with the
authors' checkout, the released loop itself against the hand rows.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs_checks.claims.metrics import released_evaluation as r
from tests._helpers import needs_authors_checkout, without_authors_checkout
from tests.claims._released_loop import HAND, ROWS, reply, use_reply

METRICS = ("proportion", "sufficiency", "comprehensiveness", "aucmorf")


def test_the_expected_rows_are_the_hand_rows():
    """Every row's proportion, Sufficiency, Comprehensiveness and AUC-MoRF, exactly, against the hand table. Catches
    Anchor's e taken as the whole anchor (the released loop cuts it to k: case 3 would give 1/4, not 1/2), Anchor's
    AUC-MoRF on the cut anchor (19/24, not 2/3), LIME/SHAP not cut to FRED-pos's size, a wrong padding to D', or
    SHAP's e+ without its negatively scored token (2/3 where the released SHAP class masks all three, 5/8)."""
    assert len(r.CASES) == len(HAND)
    for (fred_pos, anchor, scores), hand in zip(r.CASES, HAND):
        exact = r.expected_rows(fred_pos, anchor, scores)
        assert {n: {m: exact[n][m] for m in METRICS} for n in ROWS} == hand
    assert r.expected_rows([0], [0, 1])["Anchor"]["whole_anchor"] == {"proportion": Fraction(2, 3),
                                                                      "sufficiency": Fraction(1, 4)}
    assert r.expected_rows([0], [0], r.SIGNED_SCORES)["SHAP"]["positive_only"]["aucmorf"] == Fraction(2, 3)


def test_without_the_checkout_nothing_runs():
    """Without $FRED_AUTHORS_CHECKOUT the module answers None (the steps then say 'Not run here'). Catches a run
    that would need the released code in the CI setting."""
    assert without_authors_checkout(r.released_evaluation) is None


@pytest.mark.parametrize("plant", [(2, "Anchor", "aucmorf", Fraction(19, 24)),
                                   (3, "SHAP", "aucmorf", Fraction(2, 3)),
                                   (2, "Anchor", "sufficiency", Fraction(1, 4)),
                                   (1, "LIME", "proportion", Fraction(1, 3))])
def test_a_planted_wrong_row_is_refused(monkeypatch, tmp_path, plant):
    """An answer equal to the hand rows but for one value (Anchor's AUC-MoRF on the cut anchor; Anchor's Sufficiency
    of the whole anchor; LIME not cut to k) agrees everywhere but there. Catches a comparison that reports agreement
    whatever the loop returns, or one that looks at the wrong row."""
    use_reply(monkeypatch, tmp_path, reply(plant))
    loop = r.released_evaluation()
    case, name, metric, _ = plant
    wrong = [(i, n, m) for i, c in enumerate(loop["cases"]) for n in ROWS for m in METRICS
             if not c["rows"][n][f"{m}_agrees"]]
    assert wrong == [(case, name, metric)]
    assert not r.agree(loop, (metric,)) and r.agree(loop, tuple(m for m in METRICS if m != metric))


def test_the_hand_answer_agrees(monkeypatch, tmp_path):
    """The hand rows themselves, as an answer, agree in every row and metric. Catches a tolerance or key mismatch
    that would refuse a right answer."""
    use_reply(monkeypatch, tmp_path, reply())
    assert r.agree(r.released_evaluation(), METRICS)


@needs_authors_checkout
def test_the_released_loop_writes_the_hand_rows():
    """With the authors' checkout: the released experiments/evaluation.py, run as an outside program, writes the hand
    rows (within 1e-12), and it ran the checkout's own files. Catches a probe whose stand-ins the released classes
    read wrongly (an Anchor row on other tokens, a k not taken from FRED-pos), or a changed released loop."""
    r._released_evaluation.cache_clear()
    loop = r.released_evaluation()
    for case, hand in zip(loop["cases"], HAND):
        for name in ROWS:
            for metric in METRICS:
                assert case["rows"][name][metric] == pytest.approx(float(hand[name][metric]), abs=1e-12)
    assert any(f.endswith("experiments/evaluation.py") for f in loop["files"])
    assert any(f.endswith("explainers/anchor_explainer.py") for f in loop["files"])


@pytest.mark.parametrize("command", ["evaluation", "vectorizers"])
def test_the_probe_refuses_a_folder_without_the_released_files(tmp_path, command):
    """The new probe commands on an empty folder raise FileNotFoundError naming the missing files. Catches a probe
    that answers (vacuously) where there is no released code."""
    from proofs_checks.subject.authors_probe import probe

    with pytest.raises(FileNotFoundError, match="is not a checkout"):
        probe(command, checkout=str(tmp_path))
