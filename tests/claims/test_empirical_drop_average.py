"""Claim empirical-drop-average (proofs_checks/claims/algorithm1/empirical_drop_average.py; verdict "holds" on the
headline reading 'algorithm-drops', the alternative 'section2-drops' fails): the steps pinned, the averages by hand,
the reference explainer's importances recomputed with numpy from a run of fred.Fred made here, and the checkers fed
planted wrong inputs."""

from __future__ import annotations

from fractions import Fraction as F
from types import SimpleNamespace

import numpy as np
import pytest

from analytic import table_classifier
from fred import Fred
from proofs_checks.claims.algorithm1 import empirical_drop_average as claim
from tests._helpers import step_ending

EXPECTED = {
    "empirical-drop-average.s1-average-identity": ("proof", "symbolic", "holds", None),
    "empirical-drop-average.s2-algorithm-drops": ("statement", "exhaustive", "holds", "algorithm-drops"),
    "empirical-drop-average.s3-section2-drops": ("statement", "counterexample", "fails", "section2-drops"),
    "empirical-drop-average.s4-reference-explainer": ("statement", "exhaustive", "holds", "algorithm-drops"),
    "empirical-drop-average.s5-average-identity-any-n": ("proof", "symbolic", "holds", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)



def test_every_step_and_the_verdicts_are_pinned(result):
    """Catches a step whose outcome changed, a step added or dropped, or the headline taken from line 246's drops
    rather than Algorithm 1's (line 408, the d(x) that line 412 averages)."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.verdict) == ("statement", "holds", "holds")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("algorithm-drops", "headline", "holds"), ("section2-drops", "alternative", "fails")]


def test_the_averages_by_hand():
    """b = 2, table f by code (0, 1/2, 1/4, 1) so E[f] = 7/16 at p = 1/2; sample codes (1, 3, 2, 3): f(x) = (1/2, 1,
    1/4, 1), fhat = 11/16. For c = {0} (codes 1, 3, 3 perturb it): Eq. (3) = 11/16 - 5/6 = -7/48; the average of
    line 408's drops is the same; that of line 246's drops is 7/16 - 5/6 = -19/48, i.e. Eq. (3) + (7/16 - 11/16).
    Catches an average taken over the wrong rows, or line 246's drops measured from fhat."""
    rows = claim._averages({"b": 2, "table": [F(0), F(1, 2), F(1, 4), F(1)], "codes": [1, 3, 2, 3]})
    first = rows[0]  # candidate code 1 = {0}
    assert (first["eq3"], first["line408"], first["line246"]) == (F(-7, 48), F(-7, 48), F(-19, 48))
    assert first["offset"] == F(7, 16) - F(11, 16)


def test_a_sample_of_every_pattern_once_has_no_offset():
    """With the 2^b patterns each sampled once at p = 1/2, fhat = E[f], so both drops give Eq. (3) for every
    candidate. Catches an offset computed with the wrong pattern weights (a planted case where the two agree)."""
    table = [F(k, 7) for k in (3, 0, 5, 1, 6, 2, 4, 7)]
    rows = claim._averages({"b": 3, "table": table, "codes": list(range(8))})
    assert len(rows) == 7 and all(r["offset"] == 0 and r["line246"] == r["eq3"] == r["line408"] for r in rows)


def test_the_reference_explainers_importances_are_eq3_on_its_own_sample():
    """A run of fred.Fred made here (another table and seed): each importance s_i is mean f - mean of f over the
    rows perturbing i (numpy), not E[f] - that mean. Catches an explainer that averages line 246's drops, or one
    that takes the mean over the rows where i is kept."""
    table = np.array([0.9, 0.2, 0.6, 0.1, 0.8, 0.3, 0.5, 0.0])
    tokens = ["a", "b", "c"]
    e = Fred(table_classifier(tokens, table, n_classes=2), random_state=7).explain("a b c", label=1, n_samples=25)
    f, z = e.sample_scores[:, 1], e.sample_perturbed
    expected = [f.mean() - f[z[:, i]].mean() for i in range(3)]
    assert np.allclose(e.importances, expected, rtol=0, atol=1e-12)
    assert abs(table.mean() - f.mean()) > 1e-3  # line 246's drops would have moved every score by this


def test_an_explainer_averaging_line_246_drops_is_caught(monkeypatch):
    """s4 must be able to fail: an explanation whose importances are shifted by E[f] - fhat (what line 246's drops
    give) is refused. Catches an s4 that compares the explainer with itself."""
    explanation, table = claim._explainer_run()
    f = np.asarray(explanation.sample_scores)[:, 1]
    shift = float(sum(table, F(0)) / len(table)) - f.mean()
    fake = SimpleNamespace(sample_perturbed=explanation.sample_perturbed, sample_scores=explanation.sample_scores,
                           importances=np.asarray(explanation.importances) + shift, best_ids=explanation.best_ids,
                           drop=explanation.drop)
    monkeypatch.setattr(claim, "_explainer_run", lambda: (fake, table))
    assert claim.reference_explainer().status == "fails"


def test_the_smallest_section2_case_by_hand(result):
    """b = 1, f = (0, 1), one sample with the token perturbed: fhat = 1, so Eq. (3) = 0; E[f] = 1/2, so line 246's
    drop of the sample is -1/2. The 0/1 table before it, (0, 0), gives 0 both ways. Catches a counterexample that is
    not the smallest or is outside the hypotheses."""
    values = step_ending(result, "s3-section2-drops").values
    assert (values["table_by_code"], values["eq3"], values["average_of_line246_drops"]) == ([0, 1], "0", "-1/2")
    assert values["satisfies_hypotheses"] is True and values["offset_is_E_f_minus_fhat_on_every_pair"] is True


def test_the_any_n_step_against_fractions_beyond_its_finite_check(result):
    """s5 claims the identity for any n; s1 enumerates n <= 6 only. Here n = 11 in Fractions (random values, every
    third row perturbing c): line 408's average is Eq. (3) and line 246's is Eq. (3) + (mu - fhat). Catches an s5
    whose residuals are not 0 (a wrong sum or the mean taken over n rather than n_c), and a 'holds' on a
    non-zero residual."""
    values = step_ending(result, "s5-average-identity-any-n").values
    assert set(values.values()) == {"0"}
    rng = np.random.default_rng(5)
    f = [F(int(v), 97) for v in rng.integers(0, 98, size=11)]
    rows, mu = range(0, 11, 3), F(1, 3)
    fhat = sum(f, F(0)) / 11
    eq3 = fhat - sum((f[i] for i in rows), F(0)) / len(rows)
    assert sum((fhat - f[i] for i in rows), F(0)) / len(rows) == eq3
    assert sum((mu - f[i] for i in rows), F(0)) / len(rows) == eq3 + (mu - fhat) != eq3


def test_the_section2_reading_is_called_the_papers_notational_clash(result):
    """The alternative reading is not a straw man: the paper defines d twice (lines 246 and 408) and line 335
    follows line 334's d(x_j). Catches a note that drops the reason (a reviewer read the failing reading as
    invented)."""
    reading = next(r for r in result.readings if r.id == "section2-drops")
    note = step_ending(result, "s3-section2-drops").note
    for text in (reading.meaning, note):
        assert "line 246" in text and "line 408" in text and "line 334" in text and "notational clash" in text
