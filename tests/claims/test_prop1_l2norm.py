"""Claim prop1-l2norm (proofs_checks/claims/propositions/prop1_l2norm.py, ours; verdict "does not extend"): Prop. 1 does
not carry over to L2-normalised TF-IDF, reproduced from the report's minimal achievable counterexample by an independent
computation (closed form in sympy, scikit-learn's vectorizer fitted here, a scan written here).

The model analytic.L2NormalisedLinearModel itself: tests/analytic/test_prop1_l2norm.py.
"""

from __future__ import annotations

import itertools
import math
import os

import numpy as np
import pytest
import sympy as sp
from numpy.testing import assert_allclose
from sklearn.feature_extraction.text import TfidfVectorizer

from analytic import L2NormalisedLinearModel, l2_table_sym
from fred import Fred
from proofs_checks.claims.propositions import prop1_l2norm as claim
from proofs_checks.subject.authors import CHECKOUT_ENV
from tests._helpers import needs_authors_checkout, without_authors_checkout

CORPUS = ["aa bb"] + ["bb"] * 6  # N = 7, N_aa = 1, N_bb = 7


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)  # the session's one run of the claim (tests/conftest.py)


def _idf_matches(vec, expected: dict) -> bool:
    return all(abs(vec.idf_[vec.vocabulary_[w]] - v) <= 1e-12 for w, v in expected.items())


def _closed_form(la, lb, va, vb):
    """(f(aa bb), E[f], drop of aa, drop of bb) at p = 1/2 on 'aa bb' with L2 normalisation, lambda_0 = 0: alone a
    word scores lambda_j (u / ||u|| = 1), so f(bb) = lb (aa removed), f(aa) = la, f() = 0."""
    f_ab = (la * va + lb * vb) / (sp.sqrt(va**2 + vb**2) if isinstance(va, sp.Basic) else math.hypot(va, vb))
    mean = (f_ab + la + lb + 0) / 4
    return f_ab, mean, mean - (lb + 0) / 2, mean - (la + 0) / 2


def test_prop1_l2norm_step_statuses_and_verdict(result):
    """Pins every step: the extension does not extend (a counterexample and the family); the paper's proof is
    right under Definition 1 and does not carry over (a paper-proof step that holds, never deciding); there is no
    corrected statement and no proof step. Catches a proof step worded or computed as a slip of the paper."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == {
        "prop1-l2norm.s1-proof-outside-definition1": ("paper-proof", "symbolic", "holds"),
        "prop1-l2norm.st1-counterexample": ("statement", "counterexample", "fails"),
        "prop1-l2norm.st2-family": ("statement", "exhaustive", "fails"),
        "prop1-l2norm.r1-released-models": (("statement", "exhaustive", "holds") if os.environ.get(CHECKOUT_ENV)
                                            else ("statement", "argument", "argued")),
    }
    assert (result.kind, result.ours, result.status, result.corrected_status, result.verdict) == (
        "extension", True, "fails", None, "does not extend")
    cx = result.counterexample
    assert (cx["corpus"], cx["document_frequency"], cx["lambda"], cx["fred_best"], cx["exact_solutions"]) == (
        CORPUS, {"aa": 1, "bb": 7}, {"aa": 0.5, "bb": 1.0}, ["bb"], [["bb"]])
    assert cx["satisfies_hypotheses"] is True and all(cx["hypotheses"].values())
    assert result.steps[1].values["satisfies_hypotheses"] is True


def test_the_counterexample_by_hand_in_exact_arithmetic(result):
    """N = 7 documents, 'aa' in 1 and 'bb' in all 7: Definition 1 gives v_aa = log(8/2) + 1 = 1 + log 4 and
    v_bb = log(8/8) + 1 = 1, as scikit-learn's default TfidfVectorizer fitted here. lambda = (1/2, 1): lambda_aa v_aa
    = (1 + log 4)/2 > 1 = lambda_bb v_bb (log 4 > 1) puts aa first. By hand, drop(aa) = E[f] - 1/2 and drop(bb) =
    E[f] - 1/4 with E[f] = (f(aa bb) + 3/2)/4; exactly (sympy), drop(aa) < (3/20) E[f] <= drop(bb): the only
    solution of Eq. (2) is {bb}, and FRED on the pipeline picks bb. Catches a counterexample whose idfs Definition 1
    cannot produce, or a tie or rounding taken for a reversal."""
    vec = TfidfVectorizer().fit(CORPUS)
    va, vb = 1 + sp.log(4), sp.Integer(1)
    assert vec.norm == "l2" and _idf_matches(vec, {"aa": float(va), "bb": 1.0})
    assert bool(sp.Rational(1, 2) * va > vb)
    f_ab, mean, drop_a, drop_b = _closed_form(sp.Rational(1, 2), sp.Integer(1), va, vb)
    threshold = sp.Rational(3, 20) * mean
    assert bool(drop_a < threshold) and bool(drop_b >= threshold)
    coef = np.array([0.5, 1.0])

    def pipeline(texts):
        return vec.transform(list(texts)).toarray() @ coef

    exp = Fred(pipeline, sampler="exact").explain("aa bb", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("bb",)
    assert_allclose(exp.importances, [float(drop_a), float(drop_b)], rtol=1e-12)
    assert_allclose(list(result.counterexample["exact_drops_float"].values())[:2], [float(drop_a), float(drop_b)],
                    rtol=1e-12)


def test_the_counterexample_is_minimal_by_a_closed_form_scan(result):
    """Every corpus of N < 7 documents (1 <= N_aa, N_bb <= N) and lambda pair of the claim's grid: with the closed
    form above and Definition 1's idfs, no case inside the hypotheses (distinct lambda_j v_j) has Eq. (2)'s every
    solution avoid the word of larger lambda_j v_j; at N = 7 the first such case is (N_aa, N_bb) = (1, 7), lambda =
    (1/2, 1). Catches a minimality claim that the claim's own scan (scikit-learn and analytic.exact_explain) gets
    wrong."""
    def breaks(n, n_a, n_b, la, lb):
        va, vb = math.log((n + 1) / (n_a + 1)) + 1, math.log((n + 1) / (n_b + 1)) + 1
        if abs(la * va - lb * vb) <= 1e-12:
            return False
        _, mean, drop_a, drop_b = _closed_form(la, lb, va, vb)
        threshold = 0.15 * mean
        solutions = [w for w, d in (("aa", drop_a), ("bb", drop_b)) if d >= threshold] or ["aa bb"]
        return ("aa" if la * va > lb * vb else "bb") not in solutions and solutions != ["aa bb"]

    cases = [(n, n_a, n_b, la, lb) for n in range(1, 8) for n_a, n_b in itertools.product(range(1, n + 1), repeat=2)
             for la, lb in itertools.product(claim.LAMBDAS, repeat=2)]
    first = next(c for c in cases if breaks(*c))
    assert first == (7, 1, 7, 0.5, 1.0)
    cx = result.counterexample
    assert (cx["corpus_size"], cx["document_frequency"]["aa"], cx["document_frequency"]["bb"],
            cx["lambda"]["aa"], cx["lambda"]["bb"]) == first


def test_the_unachievable_idf_of_the_old_counterexample_is_refused():
    """The report once gave lambda = (1/2, 1), v = (2, 1/2): v = 1/2 is no Definition-1 idf, since
    log((N + 1)/(N_j + 1)) >= 0 for N_j <= N makes every idf >= 1 (checked here for every N <= 30 on scikit-learn's
    fitted idfs). The hypotheses predicate must refuse that case and accept the new one. Catches a counterexample
    outside the statement's hypotheses (the fresh-context reviewer's finding)."""
    for n in range(1, 31):
        for n_j in range(1, n + 1):
            vec = TfidfVectorizer().fit(claim.definition1_corpus(n, {"aa": n_j, "bb": n}))
            assert vec.idf_.min() >= 1.0
    old = {"lambda": {"aa": 0.5, "bb": 1.0}, "idf": {"aa": 2.0, "bb": 0.5}, "norm": "l2", "f_original": 0.73,
           "p": 0.5, "eps": 0.15}
    record = claim.statement_hypotheses(old)
    assert record["satisfies_hypotheses"] is False
    assert (record["hypotheses"]["idf_at_least_one"], record["hypotheses"]["idf_from_a_corpus"]) == (False, False)
    new = {**old, "idf": {"aa": 1 + math.log(4), "bb": 1.0}, "corpus_size": 7,
           "document_frequency": {"aa": 1, "bb": 7}}
    assert claim.statement_hypotheses(new)["satisfies_hypotheses"] is True
    # the same idfs claimed for a corpus that does not produce them are refused
    assert claim.statement_hypotheses({**new, "document_frequency": {"aa": 2, "bb": 7}})["hypotheses"][
        "idf_from_a_corpus"] is False


def test_the_proof_is_additive_under_definition1_only(result):
    """By hand on the counterexample's words: under Definition 1 (no norm) drop(aa bb) - drop(aa) - drop(bb) = 0 (the
    paper's proof), and with L2 normalisation it is (lambda_aa + lambda_bb)/2 - E[f] = 3/8 - f(aa bb)/4. Catches a
    paper-proof step that calls the proof wrong (it is right under Definition 1) or misses the non-additivity."""
    step = result.steps[0]
    f_ab, _, _, _ = _closed_form(sp.Rational(1, 2), sp.Integer(1), 1 + sp.log(4), sp.Integer(1))
    assert step.values["residual_definition1"] == "0"
    assert step.values["residual_l2_float"] == pytest.approx(float(sp.Rational(3, 8) - f_ab / 4), rel=1e-12)


@pytest.mark.parametrize("tokens", [["a", "b"], ["a", "b", "a"], ["b", "UNK", "a"]])
def test_l2_table_sym_equals_the_model_on_every_mask_pattern(tokens):
    """analytic.prop1_l2norm.l2_table_sym (exact values used by the claim) against the float model on the 2^b
    masked texts built here, with the model's floats and with exact Definition-1 idfs. Catches a wrong code order
    (bit i = position i masked), a dropped normalisation, or exact idfs silently differing from the model's."""
    clf = L2NormalisedLinearModel({"a": 0.5, "b": -1.0}, {"a": 1 + math.log(3), "b": 1.0}, 0.25)
    b = len(tokens)
    texts = [" ".join("UNK" if code >> i & 1 else t for i, t in enumerate(tokens)) for code in range(2**b)]
    for exact_idf in (None, {"a": 1 + sp.log(3), "b": sp.Integer(1)}):
        exact = [float(sp.N(v, 30)) for v in l2_table_sym(clf, tokens, exact_idf=exact_idf)]
        assert_allclose(exact, clf(texts), rtol=1e-13, atol=1e-15)
    with pytest.raises(ValueError, match="does not round"):
        l2_table_sym(clf, tokens, exact_idf={"a": 1 + sp.log(2), "b": sp.Integer(1)})


def test_cached_exact_side_answers_its_own_case_and_copies():
    """Catches the cached explainer-independent record of a case (claim._exact_side) keyed without the corpus or
    lambda, or handed out so that a caller's change reaches the next claim run: two cases must give the uncached
    record of their own arguments (and differ), and a caller changing its record changes no later one."""
    first, second = (3, 1, 2, (("aa", 1.0), ("bb", 2.0))), (3, 2, 1, (("aa", 1.0), ("bb", 2.0)))
    answer = claim._exact_side(*first)
    assert claim._exact_side(*second) == claim._exact_side.__wrapped__(*second) != answer
    answer["idf"]["aa"] = -1.0
    answer["exact_solutions"].append(["changed"])
    assert claim._exact_side(*first) == claim._exact_side.__wrapped__(*first)


# ------------------------------------------------------------------ the released models' vectorizer
def _reply(norm: str = "'l2'", norms=(1.0, 1.0)) -> dict:
    """A probe answer for the three released models, each a TfidfVectorizer with the given norm (the other
    parameters scikit-learn's defaults) and row norms."""
    params = {k: repr(v) for k, v in TfidfVectorizer().get_params().items()} | {"norm": norm}
    return {"files": [], "models": {name: {"class": "TfidfVectorizer", "params": params,
                                           "row_l2_norms": list(norms)}
                                    for name in ("logistic_classifier", "tree_classifier", "forest_classifier")}}


@pytest.mark.parametrize("answer, ok", [(_reply(), True), (_reply("'l1'"), False), (_reply("None", (2.0, 1.5)), False)])
def test_the_vectorizer_step_refuses_another_norm(answer, ok):
    """r1's reading of the released models' vectorizers: 'l2' with unit rows passes; norm 'l1', or no norm (rows of
    norm 2 and 1.5), fails. Catches a step that holds whatever norm the released code uses."""
    assert claim._released_vectorizers(answer)[0] is ok


def test_scikit_learns_default_vectorizer_normalises_rows_by_hand():
    """The fact r1 relies on, computed here by hand: scikit-learn's TfidfVectorizer() with no argument gives rows whose
    sum of squares is 1 (numpy), and its norm parameter is 'l2'. Catches a scikit-learn whose default changed, which
    would make 'every parameter the default' mean something else."""
    rows = TfidfVectorizer().fit_transform([t for t, _ in claim.TRAINING]).toarray()
    assert np.allclose((rows ** 2).sum(axis=1), 1.0, atol=1e-12)
    assert TfidfVectorizer().get_params()["norm"] == "l2"


def test_without_the_checkout_r1_says_not_run_here_and_quotes_the_files():
    """Without $FRED_AUTHORS_CHECKOUT, r1 says 'Not run here', names the variable, and states the fact read from the
    released files with their paths. Catches a note silent on the released models' normalisation."""
    step = without_authors_checkout(claim.released_models)
    assert step.status == "argued" and step.note.startswith("Not run here") and "$FRED_AUTHORS_CHECKOUT" in step.note
    assert "models/logistic_classifier.py" in step.note and "TfidfVectorizer()" in step.note and "'l2'" in step.note


@needs_authors_checkout
def test_the_released_models_use_the_l2_vectorizer():
    """With the authors' checkout: the released logistic, tree and forest models, built and trained by their own code
    as an outside program, hold a TfidfVectorizer with every default parameter, norm 'l2', and rows of L2 norm 1.
    Catches an r1 that stays argued when the released code can run."""
    step = claim.released_models()
    assert (step.evidence, step.status) == ("exhaustive", "holds")
    assert set(step.values["models"]) == {"logistic_classifier", "tree_classifier", "forest_classifier"}
    for model in step.values["models"].values():
        assert model["params"]["norm"] == "'l2'" and model["default_parameters"]
        assert model["row_l2_norms"] == pytest.approx([1.0] * len(claim.TRAINING), abs=1e-12)
