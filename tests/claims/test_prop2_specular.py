"""Claim prop2-specular (proofs_checks/claims/propositions/prop2_specular.py, verdict holds (argued) on the headline
reading: the remark is vacuous for Prop. 2's f; the class-swap reading of line 451 holds; beyond the hypotheses this
project's extension does not extend, stated as the precise statement (argued) and checked by correction steps): every
step pinned, vacuity recomputed by an enumeration written here under the J convention prop2-shortcut uses, the minimal
case beyond the hypotheses recomputed with a word-presence model written here and an enumeration written here
(tests/_helpers.drops_by_enumeration), and the condition on the mask token shown to be needed."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from fred import Fred
from proofs_checks.claims.propositions import prop2_specular as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "prop2-specular.v1-vacuous": ("statement", "exhaustive", "holds", "within-hypotheses"),
    "prop2-specular.v2-vacuous": ("proof", "argument", "argued", "within-hypotheses"),
    "prop2-specular.m1-relabelled": ("statement", "exhaustive", "holds", "relabelled"),
    "prop2-specular.m2-relabelled": ("proof", "argument", "argued", "relabelled"),
    "prop2-specular.c1-degenerate": ("correction", "exhaustive", "holds", None),
    "prop2-specular.p1-constant": ("proof", "exhaustive", "holds", None),
    "prop2-specular.p2-why": ("proof", "argument", "argued", None),
    "prop2-specular.c2-positive-class": ("correction", "exhaustive", "holds", None),
    "prop2-specular.c3-predicted-class": ("correction", "exhaustive", "holds", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)  # the session's one run of the claim (tests/conftest.py)


def presence(words):
    """[1 - f, f] with f = 1 iff every word of ``words`` is a token of the text (written here, not ShortcutModel)."""
    def proba(texts):
        f = np.array([float(all(w in t.split() for w in words)) for t in texts])
        return np.column_stack([1 - f, f])
    return proba


def step(result, name):
    return next(s for s in result.steps if s.id == f"prop2-specular.{name}")


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, or a role, evidence or reading
    changed."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "proof-step", "argued", "argued", "holds (argued)")
    assert result.counterexample is None


def test_readings_and_their_verdicts(result):
    """The headline reads the remark inside Prop. 2's hypotheses (vacuous: holds) and the class-swap reading of line
    451 holds; the case beyond the hypotheses is no reading of the remark but this project's extension, in the
    precise statement and correction steps only. Catches a case outside the hypotheses reported as a reading of the
    paper's words that 'fails' (the second reviewer's finding), the extension presented as the paper's, and the
    remark called empty although the class-swap convention says something."""
    assert [(r.id, r.role) for r in result.readings] == [
        ("within-hypotheses", "headline"), ("relabelled", "alternative")]
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {
        "within-hypotheses": "argued", "relabelled": "argued"}
    assert all(s.role in ("correction", "proof") for s in result.steps if s.reading is None)
    assert result.corrected.startswith("Ours (an extension beyond Prop. 2's hypotheses, which does not extend)")
    assert "vacuous for Prop. 2's f" in result.conditions and "class-swap convention of line 451" in result.conditions
    assert "says nothing" not in result.conditions and "vacuous" in step(result, "v1-vacuous").note


def test_the_remark_is_vacuous_under_the_hypotheses(result):
    """Every document of at most 4 tokens over w1, w2, x and every J among {w1}, {w2}, {w1, w2} (listed in label
    order): Prop. 2's hypotheses read as in prop2-shortcut (J every distinct word of the document, m_1 < m_2 in J's
    order) hold on 15 pairs, the weaker 'J any subset of [d]' (same order) on 199; relabelling J to sort distinct
    multiplicities would give 218, and J every distinct word with any distinct multiplicities 22. In each reading
    f(xi) = 1, recomputed here with the presence model written here; the pairs with f(xi) = 0 exist (so the check can
    fail) and each has a word of J absent. Catches a count whose J convention is not the one stated (the second
    reviewer's finding on 218), or a hypotheses predicate that ignores 'J a subset of [d]'."""
    words = ("w1", "w2", "x")
    js = (("w1",), ("w2",), ("w1", "w2"))
    pairs = [(d, j) for b in range(1, 5) for d in itertools.product(words, repeat=b) for j in js]
    f_xi = {(d, j): presence(j)([" ".join(d)])[0, 1] for d, j in pairs}

    def counts(d, j):
        return [d.count(w) for w in j]

    increasing = {pair: all(a < b for a, b in zip(counts(*pair), counts(*pair)[1:])) for pair in pairs}
    distinct = {pair: len(set(counts(*pair))) == len(pair[1]) for pair in pairs}
    inside = [(d, j) for d, j in pairs if set(j) == set(d) and increasing[d, j]]
    subset = [(d, j) for d, j in pairs if set(j) <= set(d) and increasing[d, j]]
    assert (len(inside), len(subset)) == (15, 199)
    assert len([p for p in pairs if set(p[1]) <= set(p[0]) and distinct[p]]) == 218
    assert len([p for p in pairs if set(p[1]) == set(p[0]) and distinct[p]]) == 22
    assert all(f_xi[pair] == 1 for pair in subset)
    zero = [pair for pair in pairs if f_xi[pair] == 0]
    assert zero and all(not set(j) <= set(d) for d, j in zero)
    values = step(result, "v1-vacuous").values
    assert (values["pairs"], values["inside_hypotheses"], values["inside_weaker_subset_reading"],
            values["f_xi_zero_in_all"]) == (len(pairs), len(inside), len(subset), len(zero))
    assert values["f_xi_zero_inside"] == []


def test_both_prop2_claims_read_j_the_same_way():
    """prop2-shortcut and prop2-specular must apply the same hypotheses on J (line 530: k the number of unique
    words, so J = every distinct word, m_1 < ... < m_k): on prop2-shortcut's documents (with and without a word outside
    J, increasing and not), the specular predicate and the shortcut one agree condition by condition. Catches the two
    sections reading line 530 differently (the second reviewer's finding)."""
    from proofs_checks.claims.propositions import prop2_shortcut
    from proofs_checks.claims.propositions.shortcut_proofs import document
    for m, n_other in itertools.product(((1,), (2,), (1, 2), (2, 1), (2, 3), (2, 2)), (0, 1)):
        tokens, words = document(m, n_other)
        specular = claim.prop2_hypotheses(tokens, words)["hypotheses"]
        shortcut = prop2_shortcut.statement_hypotheses(m, F(1, 2), F(3, 20), n_other=n_other)["hypotheses"]
        assert {k: shortcut[k] for k in specular} == specular, (m, n_other)
        assert specular["J_every_distinct_word"] == (n_other == 0)
        assert specular["increasing_multiplicities"] == (list(m) == sorted(set(m)))


def test_the_minimal_case_beyond_the_hypotheses_by_hand(result):
    """'w1' with J = {w1, w2}: w2 is absent, so f = 0 on 'w1' and on 'UNK'; E[f] = 0 and the drop of {w1} is 0.
    Class 1: threshold 0 <= 0, {w1} is the solution and FRED says found with drop 0. Class 0 (predicted, 1 - f = 1):
    threshold 3/20 > 0 = drop, FRED says not found. It satisfies the extension's hypotheses (f(xi) = 0, mask token not
    in J) and not Prop. 2's (w2 is not a word of the document). Catches a report whose minimal case is not
    degenerate in both classes, a FRED that treats a zero threshold differently, or the case presented as inside
    Prop. 2's hypotheses."""
    values = step(result, "c1-degenerate").values
    cx = values["minimal"]
    assert (cx["document"], cx["J"], cx["f_by_pattern_code"]) == ("w1", ["w1", "w2"], ["0", "0"])
    assert cx["satisfies_hypotheses"] and cx["hypotheses"] == {
        "J_non_empty": True, "mask_token_not_in_J": True, "f_xi_zero": True}
    assert not cx["prop2_hypotheses"]["satisfies_hypotheses"]
    assert not cx["prop2_hypotheses"]["hypotheses"]["J_in_document"]
    assert values["with_a_nonzero_drop"] == 0 and values["outside_extension"] == []
    for label in (1, 0):
        mean, drops = drops_by_enumeration(lambda z: F(label == 0), 1, F(1, 2))
        assert drops == {(0,): 0} and mean == F(label == 0)
    positive = Fred(presence(["w1", "w2"]), sampler="exact").explain("w1", label=1, p=0.5, eps=0.15, max_len=1)
    assert (positive.found, positive.best, positive.drop, positive.threshold) == (True, ("w1",), 0.0, 0.0)
    predicted = Fred(presence(["w1", "w2"]), sampler="exact").explain("w1", p=0.5, eps=0.15, max_len=1)
    assert (predicted.label, predicted.found, predicted.threshold) == (0, False, pytest.approx(0.15, abs=1e-15))


def test_fred_returns_the_first_token_whatever_it_is():
    """'x w1 x' with J = {w2}: f = 0 everywhere, and explaining f FRED returns position 0, 'x', a word unrelated to
    J, with found = True. Catches a corrected statement that claims the answer is a word of J."""
    exp = Fred(presence(["w2"]), sampler="exact").explain("x w1 x", label=1, p=0.5, eps=0.15, max_len=3)
    assert (exp.found, exp.best_ids, exp.best) == (True, (0,), ("x",))


def test_a_mask_token_in_J_makes_the_case_non_degenerate():
    """J = {UNK}, document 'a': f('a') = 0 but f('UNK') = 1, so the predicted class 1 - f has E = 1/2 and the drop
    of {a} is 1/2 - 0 = 1/2 >= (3/20)(1/2): a real explanation. Catches a corrected statement without its
    condition (mask token not in J)."""
    exp = Fred(presence(["UNK"]), sampler="exact").explain("a", p=0.5, eps=0.15, max_len=1)
    assert (exp.label, exp.found, exp.best) == (0, True, ("a",))
    assert exp.drop == pytest.approx(0.5, abs=1e-15)


def test_relabelling_gives_the_same_explanation():
    """'w2 w1 w2' with J = {w1, w2} (m = (1, 2), inside the hypotheses): FRED on the mirrored model [f, 1 - f] explains
    its predicted class 0 with the same positions and drop as f's class 1 on [1 - f, f]. Catches a relabelled
    reading checked on the wrong column or label."""
    direct = Fred(presence(["w1", "w2"]), sampler="exact").explain("w2 w1 w2", label=1, p=0.5, eps=0.15, max_len=3)
    mirrored = Fred(lambda t: presence(["w1", "w2"])(t)[:, ::-1], sampler="exact").explain(
        "w2 w1 w2", p=0.5, eps=0.15, max_len=3)
    assert mirrored.label == 0 and (mirrored.best_ids, mirrored.drop) == (direct.best_ids, direct.drop)
    assert direct.best_ids == (1,)
