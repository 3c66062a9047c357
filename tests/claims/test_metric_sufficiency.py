"""Claim metric-sufficiency (proofs_checks/claims/metrics/metric_sufficiency.py, verdict "fails" on the headline reading
'formula': line 559 says a low Sufficiency means the explanation does not summarize the document, the reverse of
Sufficiency = f(xi) - f(e) (line 557) and of the tables' arrows and underlines; the 'plain' reading (score = how well
e alone keeps the prediction, or 'low' a slip for 'high') holds trivially; corrected statement: holds).
"""

from __future__ import annotations

import itertools
import re
import textwrap
from fractions import Fraction

import numpy as np
import pytest

from fred.evaluation.metrics import comprehensiveness, sufficiency
from proofs_checks.claims.metrics import metric_sufficiency as m
from proofs_checks.paper.tables import METRICS, SECTION4, TABLES, UNDERLINED
from proofs_checks.verdicts.quotes import paper_path
from tests._helpers import needs_authors_checkout, without_authors_checkout
from tests.claims._released_loop import reply, use_reply

CLAIM = "metric-sufficiency"
needs_tex = pytest.mark.skipif(paper_path() is None, reason="the paper's LaTeX source is absent")
needs_checkout = needs_authors_checkout


@pytest.fixture(scope="module")
def result():
    """The claim without the released code (the CI setting)."""
    return without_authors_checkout(m.check)


def test_steps_readings_and_verdicts(result):
    """Pins every step, both readings and the verdicts. Catches the Sufficiency sentence reported as holding on
    the headline reading, the Comprehensiveness sentence (which agrees with its formula) reported as failing, the
    plain reading left out or promoted to the headline, and a released-code step typed as holding when nothing
    ran."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == {
        f"{CLAIM}.st1-comprehensiveness": ("statement", "symbolic", "holds", None),
        f"{CLAIM}.st2-sufficiency-counterexample": ("statement", "counterexample", "fails", "formula"),
        f"{CLAIM}.st3-plain-reading": ("statement", "exhaustive", "holds", "plain"),
        f"{CLAIM}.st4-released-code": ("statement", "argument", "argued", "formula"),
        f"{CLAIM}.p1-direction": ("proof", "symbolic", "holds", None),
        f"{CLAIM}.c1-corrected-direction": ("correction", "exhaustive", "holds", None),
        f"{CLAIM}.c2-tables": ("correction", "exhaustive", "holds", None),
    }
    assert {r.id: (r.role, result.reading_status(r.id)) for r in result.readings} == {
        "formula": ("headline", "fails"), "plain": ("alternative", "holds")}
    assert (result.kind, result.status, result.corrected_status) == ("statement", "fails", "holds")


def test_the_headline_says_the_sufficiency_sentence_fails_and_the_comprehensiveness_one_holds(result):
    """Issue 40 item 5: lines 558 and 559 are two sentences; the Comprehensiveness one agrees with its formula, the
    Sufficiency one does not ('good food'). Catches a headline that gives the Comprehensiveness sentence no credit, or
    a part decided without the released-code step (argued without the checkout: 'holds (argued)')."""
    comp = "a high Comprehensiveness: e influential (line 558)"
    suff = "a low Sufficiency: e does not summarize the document (line 559)"
    assert {s.id.split(".")[1]: s.part for s in result.steps if s.part} == {
        "st1-comprehensiveness": comp, "st2-sufficiency-counterexample": suff}
    released = next(s for s in result.steps if s.id.endswith("st4-released-code")).status
    comp_verdict = "holds (argued)" if released == "argued" else "holds"
    assert result.verdict == f"fails in part: {comp} {comp_verdict}; {suff} fails"


def test_the_headline_reading_is_chosen_by_lines_556_to_558_and_589(result):
    """Regression (R2G review): the headline quotes "Thus," (line 556), the formula (line 557, not 556), the
    parallel Comprehensiveness sentence (558) and the arrow (589). Catches a headline without its reasons or a
    formula attributed to the line of "Thus,"."""
    assert [q.line for q in result.headline.why] == [556, 557, 558, 589]
    assert [q.line for q in m.SOURCE if r"\text{Sufficiency}" in q.text] == [557]


def test_the_plain_reading_by_hand():
    """Independently of the claim: with the plain score f(e), on 'good food' the low-scored explanation is [1]
    (f = 3/10, it loses the class) and the high-scored one is [0] (f = 9/10): the sentence fits. On every pair of
    the search a lower f(e) with f(e) >= f(xi) would need f(e') > f(e) >= 9/10, impossible when f(e') <= 1/2.
    Catches a plain-reading step that scores the explanations with Sufficiency (it would find the counterexample)."""
    f = {0: m.confidence(["good", "UNK"]), 1: m.confidence(["UNK", "food"])}
    assert min(f, key=f.get) == 1 and f[1] <= Fraction(1, 2) < f[0]
    first, found = m.search()
    assert found["plain_breaks"] == [] and first is not None and found["pairs_checked"] == 312


def _bag_of_words(texts):
    return np.array([0.9 if "good" in t.split() else 0.3 for t in texts])


def test_counterexample_with_this_projects_metrics(result):
    """The counterexample recomputed with fred.evaluation.metrics (an independent implementation, in floats): on
    'good food', keeping 'good' gives Sufficiency 0 and keeps the confidence 0.9; keeping 'food' gives 0.6 and drops
    it to 0.3 < 1/2. Removing 'good' lowers the confidence by 0.6 (high Comprehensiveness, influential). Catches
    a counterexample whose numbers the claim's own arithmetic invented, or a case outside the hypotheses."""
    cx = result.counterexample
    assert (cx["document"], cx["low_sufficiency_explanation"], cx["high_sufficiency_explanation"]) == (
        "good food", [0], [1])
    tokens = cx["document"].split()
    low = sufficiency(_bag_of_words, tokens, cx["low_sufficiency_explanation"])
    high = sufficiency(_bag_of_words, tokens, cx["high_sufficiency_explanation"])
    assert low == pytest.approx(float(Fraction(cx["its_sufficiency"])), abs=1e-12) == 0
    assert high == pytest.approx(float(Fraction(cx["its_sufficiency_prime"])), abs=1e-12) == pytest.approx(0.6)
    assert _bag_of_words(["UNK food"])[0] < 0.5 < _bag_of_words(["good UNK"])[0] == _bag_of_words(["good food"])[0]
    assert comprehensiveness(_bag_of_words, tokens, [0]) == pytest.approx(0.6, abs=1e-12)
    assert cx["satisfies_hypotheses"] is True and all(cx["hypotheses"].values())


def test_the_counterexample_is_minimal():
    """A one-token document has a single non-empty explanation (itself), so no two scores to compare: by brute
    force over both one-token documents. Catches a 'minimal' that a shorter document would beat."""
    assert [c for r in range(1, 2) for c in itertools.combinations(range(1), r)] == [(0,)]
    for word in m.VOCABULARY:
        assert m.sufficiency([word], {0}) == 0


def test_the_search_can_come_back_empty(monkeypatch):
    """With a classifier that ignores the words (constant 9/10) every explanation has Sufficiency 0 and the search
    finds nothing. Catches a search that reports a counterexample whatever the model."""
    monkeypatch.setattr(m, "confidence", lambda tokens: Fraction(9, 10))
    first, found = m.search()
    assert first is None and not found["corrected_breaks"]


def test_underlines_follow_the_signed_arrow():
    """Independently of the claim: in each section-4 table the underlined Sufficiency is the smallest signed mean,
    and the reading 'closest to 0 is best' would pick another explainer in exactly yelp_forest_5 (anchor -0.049
    against fred -0.142) and imdb_distilbert_5 (shap 0.000 against fred -0.002). Catches an arrow read as |value|."""
    moved = []
    for label in SECTION4:
        suff = {e: TABLES[label].mean(e, "sufficiency") for e in TABLES[label].rows}
        assert set(UNDERLINED[label]["sufficiency"]) == {e for e, v in suff.items() if v == min(suff.values())}
        if min(suff, key=lambda e: abs(suff[e])) not in UNDERLINED[label]["sufficiency"]:
            moved.append(label)
    assert moved == ["exp-tab:yelp_forest_5", "exp-tab:imdb_distilbert_5"]


@needs_tex
def test_underlines_are_the_printed_ones():
    """UNDERLINED (paper_experiments) against the source: every \\underline of a table row, by label, metric and
    explainer, and no other. Catches a transcribed underline the tables do not print."""
    parsed, label = {}, None
    for line in paper_path().read_text().splitlines():
        found = re.search(r"\\label\{(exp-tab:[^}]+)\}", line)
        label = found.group(1) if found else label
        row = re.match(r"^(fred|fredpos|lime|shap|anchor) & (.*)\\\\", line)
        if row and label:
            for metric, cell in zip(METRICS, row.group(2).split("&")):
                if r"\underline" in cell:
                    parsed.setdefault(label, {}).setdefault(metric, []).append(row.group(1))
    assert {lab: {k: tuple(v) for k, v in d.items()} for lab, d in parsed.items()} == UNDERLINED


def test_appendix_tables_underline_nothing():
    """The 28 appendix tables print no underline (UNDERLINED, checked against the source above, has the six
    section-4 tables only). Catches a c2 note that says so while an appendix table is underlined."""
    assert set(UNDERLINED) == set(SECTION4) and len(TABLES) - len(SECTION4) == 28


# ------------------------------------------------------------------ the released code, run as an outside program
_FAKE_METRICS = '''
def compute_sufficiency(example, tokens, confidence, explanation, explainer, exp, model, repetitions, k):
    kept = [t if {keep} else "UNK" for i, t in enumerate(tokens)]
    return confidence - model.predict_proba([" ".join(kept)])[0, 1]


def compute_comprehensiveness(example, tokens, confidence, explanation, explainer, exp, model, repetitions, k):
    removed = ["UNK" if i in explanation else t for i, t in enumerate(tokens)]
    return confidence - model.predict_proba([" ".join(removed)])[0, 1]
'''


@pytest.mark.parametrize("keep, agrees", [("i in explanation", True), ("i not in explanation", False)])
def test_the_released_step_on_stand_in_metrics(tmp_path, monkeypatch, keep, agrees):
    """Step st4 on a folder laid out like the released repository, with this test's own metric functions: one that
    keeps e passes, one that keeps the complement of e (Comprehensiveness's masking) fails. Catches a probe, or a
    reading of its answer, that reports agreement whatever the released function scores."""
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "metrics.py").write_text(textwrap.dedent(_FAKE_METRICS).format(keep=keep))
    use_reply(monkeypatch, tmp_path, reply())  # the evaluation loop's part: the hand rows (test_released_evaluation)
    step = m.released_code()
    assert (step.evidence, step.status) == ("exhaustive", "holds" if agrees else "fails")
    assert len(step.values["rows"]) == len(m.released_cases()) == 59


@needs_checkout
def test_the_released_code_scores_the_formula():
    """With the authors' checkout: their compute_sufficiency queries 'good UNK' for e = [0] and returns 0, and
    'UNK food' for e = [1] and returns 0.6, as line 557 with line 571's masking says; step st4 holds and the verdicts
    do not move. Catches a st4 that stays argued when the released code can be run."""
    result = m.check()
    step = next(s for s in result.steps if s.id.endswith("st4-released-code"))
    assert (step.evidence, step.status) == ("exhaustive", "holds")
    rows = {tuple(r["e"]): r for r in step.values["rows"] if r["tokens"] == ["good", "food"]}
    assert rows[(0,)]["sufficiency"] == 0 and rows[(1,)]["sufficiency"] == pytest.approx(0.6, abs=1e-12)
    assert (result.status, result.corrected_status) == ("fails", "holds")


def test_without_the_checkout_st4_says_not_run_here(result):
    """Without $FRED_AUTHORS_CHECKOUT, st4 says 'Not run here' and names the variable, and promises the evaluation
    loop's rows, Anchor's included. Catches a step that runs nothing and says nothing of why."""
    note = next(s for s in result.steps if s.id.endswith("st4-released-code")).note
    assert note.startswith("Not run here") and "$FRED_AUTHORS_CHECKOUT" in note and "Anchor" in note


def test_a_loop_scoring_the_whole_anchor_fails_st4(monkeypatch, tmp_path):
    """If the evaluation loop's Anchor row scored the whole anchor [0, 1] (Sufficiency 1/4 by hand) where its
    explanation is the anchor cut to k = 1 (1/2), st4 would fail even with right metric functions. Catches a step
    that leaves the loop's rows out of its verdict."""
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "metrics.py").write_text(textwrap.dedent(_FAKE_METRICS).format(keep="i in explanation"))
    use_reply(monkeypatch, tmp_path, reply((2, "Anchor", "sufficiency", Fraction(1, 4))))
    step = m.released_code()
    assert step.status == "fails" and all(r["agrees"] for r in step.values["rows"])


@needs_checkout
def test_the_released_loop_scores_anchor_rows_by_the_formula():
    """With the authors' checkout: the released evaluation loop's rows, Anchor's included, carry f(xi) - f(e alone):
    by hand on 'good nice food' (1 - 1/4 per masked token), the anchor [0, 1] cut to k = 1 gives 1 - 1/2 = 1/2 (the
    whole anchor would give 1/4), and the note says so. Catches an st4 that ignores the Anchor rows or reports the
    whole anchor's value."""
    step = next(s for s in m.check().steps if s.id.endswith("st4-released-code"))
    assert step.status == "holds"
    anchor = step.values["evaluation_loop"]["cases"][2]["rows"]["Anchor"]
    assert anchor["sufficiency"] == pytest.approx(0.5, abs=1e-12) and anchor["whole_anchor"]["sufficiency"] == "1/4"
    assert "anchor [0, 1], k = 1: Sufficiency 0.5" in step.note
