"""Claim baseline-lime (proofs_checks/claims/baselines/baseline_lime.py, ours, verdict holds): the lime package, with its own
defaults (bow=True, the headline reading, documents of at most 10 distinct words) and as the evaluation calls it
(bow=False), converges to LIME's exact limit; the stronger reading 'defaults-any-length' fails at d = 11 words. The
limit which on Definition 1's TF-IDF linear score is each feature's own contribution (m_j a_j per word, a_i per
position). Each test recomputes what a step asserts without the project's LIME code: LIME written out by hand
(tests/claims/_lime_by_hand.py), weighted least squares over all feature patterns, binomial tails from math.comb,
the order-statistic band from its definition, predict_proba from scikit-learn itself.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from analytic import table_from_classifier
from analytic.lime_text import lime_kernel
from fred_constants.paper import DELTA
from proofs_checks.cases import lime_runs
from proofs_checks.claims.baselines import baseline_lime
from proofs_checks.paper import baselines as baseline_setting
from proofs_checks.paper.baselines import (
    CORPUS,
    DOCUMENT,
    DOCUMENTS,
    EVAL_EXTRA,
    fitted_l2_model,
    fitted_model,
    two_columns,
)
from tests.claims._lime_by_hand import lime_by_hand, limit_by_hand

CLAIM = "baseline-lime"
STATEMENT_STEPS = ("s1-converges-definition-1", "s2-converges-l2", "s3-converges-predict-proba",
                   "s4-converges-defaults")


@pytest.fixture(scope="module")
def result(reference_runs):
    pytest.importorskip("lime")  # without it the statement steps are inconclusive (test_absent_package_...)
    return reference_runs.result(CLAIM)


def _steps(result) -> dict:
    return {s.id.split(".", 1)[1]: s for s in result.steps}


def _tail(successes: int, trials: int) -> float:
    """P(Binomial(trials, 1/2) >= successes), summed exactly."""
    return sum(math.comb(trials, j) for j in range(successes, trials + 1)) / 2**trials


def _sigmoid_table(tokens):
    l2, _ = fitted_l2_model()
    return 1.0 / (1.0 + np.exp(-table_from_classifier(l2, tokens, mask_token="UNKWORDZ")))


def test_verdict_follows_the_steps(result):
    """Catches a verdict typed in rather than computed, a sign test read in the wrong direction, a band test that
    passes an interval outside its band, or a false-alarm budget over DELTA: every computed step holds, the claim is ours
    with the 'defaults' reading as headline; each statement step holds exactly when every rung's decrease count
    has a binomial tail (math.comb) within its share of delta and every [min, max] interval lies within
    m = fraction x max|limit| of beta*_n (recomputed here); the band's 2^(1-R) per interval, counted over every
    feature of every run, and the sign tests' shares stay within DELTA."""
    steps = _steps(result)
    assert result.kind == "baseline" and result.counterexample is None and result.own is True
    assert {r.id: r.role for r in result.readings} == {"defaults": "headline", "evaluation": "alternative",
                                                        "defaults-any-length": "stronger"}
    # every computed step holds; the general-d step (p1b) is an argument, so the verdict is 'argued', not 'holds'
    assert {s.status for s in result.steps if s.reading != "defaults-any-length"} == {"holds", "argued"}
    assert [s.id for s in result.steps if s.status == "argued"] == [f"{baseline_lime.CLAIM}.p1b-any-d"]
    assert result.status == "argued" and result.reading_status("defaults-any-length") == "fails"
    assert {steps[name].reading for name in STATEMENT_STEPS} == {"evaluation", "defaults"}
    total_features = 0
    for name in STATEMENT_STEPS:
        v = steps[name].values
        assert v["false_alarm_probability"] == DELTA and v["versions"]["lime"] == "0.2.0.1"
        band = v["median_band"]
        repeats, d = band["repeats"], len(band["lower"])
        total_features += d
        assert repeats >= 30 and band["miss_probability"] == 2.0 ** (1 - repeats)
        assert d * 2.0 ** (1 - repeats) + 2 * v["per_rung_delta"] <= DELTA * (1 + 1e-12)
        for rung in v["sign_tests"]:
            assert rung["trials"] >= 20 and 0.5 ** rung["trials"] <= rung["delta"]
            assert math.isclose(rung["p_no_decrease"], _tail(rung["decreases"], rung["trials"]), rel_tol=1e-9)
            assert rung["p_no_decrease"] <= rung["delta"] == v["per_rung_delta"]
        margin = v["margin_fraction"] * max(abs(x) for x in v["limit"])
        assert math.isclose(band["margin"], margin, rel_tol=1e-12)
        assert all(c - margin <= lo <= hi <= c + margin
                   for lo, hi, c in zip(band["lower"], band["upper"], band["beta_star_n"]))
        errors = v["median_error_to_limit"]
        assert errors == sorted(errors, reverse=True), errors
        assert_allclose(v["error_ratio_per_rung"], np.array(errors[:-1]) / np.array(errors[1:]))
    assert steps["s1-converges-definition-1"].values["claim_band_intervals"] == total_features
    assert total_features * 2.0 ** (1 - 30) <= DELTA


def _returned(text: str, n_samples: int, seed: int) -> set[str]:
    """The words lime, called with its defaults (only the seed and n set), returns a class-1 coefficient for."""
    from lime.lime_text import LimeTextExplainer

    exp = LimeTextExplainer(random_state=seed).explain_instance(text, two_columns(fitted_model().predict),
                                                                num_samples=n_samples)
    return {exp.domain_mapper.indexed_string.word(j) for j, _ in exp.as_map()[1]}


def test_any_length_counterexample_recomputed(result):
    """Catches a fabricated or non-minimal counterexample to 'defaults-any-length' (B1 of review 2): calling lime
    here, its defaults weight every word of the 10-word document and only 10 of the 11 distinct words of the
    counterexample (the word the step names is the one left out, at num_samples = 5000); the omitted word's m_j a_j,
    recomputed as the model's drop f(x) - f(x without it), is far from 0; the sweep says d = 11 is the first d
    that drops a word; the case satisfies the reading's hypotheses."""
    step = _steps(result)["s5-defaults-any-length"]
    v = step.values
    assert step.status == "fails" and step.reading == "defaults-any-length" and step.evidence == "counterexample"
    assert v["satisfies_hypotheses"] and all(v["hypotheses"].values())
    words = v["text"].split()
    assert len(set(words)) == len(words) == v["d"] == 11 and v["num_samples"] == 5000
    assert [r["d"] for r in v["sweep"] if r["unweighted"]] == [11] and v["smallest_d_dropping_a_word"] == 11
    assert _returned(" ".join(words[:10]), v["sweep_samples"], v["seed"]) == set(words[:10])
    omitted = set(words) - _returned(v["text"], v["num_samples"], v["seed"])
    assert len(omitted) == 1 and sorted(omitted) == v["omitted"]
    f = fitted_model().predict
    for word in omitted:
        drop = float(f([v["text"]])[0] - f([" ".join(t for t in words if t != word)])[0])
        assert abs(drop) > 0.01 and math.isclose(drop, v["omitted_m_j_a_j"][word], rel_tol=1e-9, abs_tol=1e-12)


def test_exact_fit_errors_fall_tenfold(result):
    """Catches the statement misreading the exact-fit case (M3 of the review): on Definition 1's linear score the
    error is the ridge bias alone, so it must fall about 10x per 10x n (O(1/n)), between 7 and 13 here, and the
    package must sit far closer to beta*_n than to the limit at n = 5000."""
    steps = _steps(result)
    for name in ("s1-converges-definition-1", "s4-converges-defaults"):
        v = steps[name].values
        assert all(7 < r < 13 for r in v["error_ratio_per_rung"]), v["error_ratio_per_rung"]
        assert v["median_error_to_beta_star_n"][-1] < 0.2 * v["median_error_to_limit"][-1]


def test_limits_in_the_steps_are_weighted_least_squares(result):
    """Catches a wrong exact limit (a wrong sampling law, kernel, model, grouping of words or probability column
    in lime_runs.exact_side): the limits and the n = 5000 centres the statement steps use equal weighted least
    squares over all feature patterns computed here, on the decision function, on sigma of it (predict_proba) and
    over words; on Definition 1's model they are a_i per position and m_j a_j per word."""
    steps = _steps(result)
    model = fitted_model()
    tokens = DOCUMENT.split()
    table = table_from_classifier(model.predict, tokens, mask_token="UNKWORDZ")
    l2, _ = fitted_l2_model()
    l2_table = table_from_classifier(l2, tokens, mask_token="UNKWORDZ")
    text = baseline_lime.DEFAULTS_DOCUMENT
    words_tokens = text.split()
    words = list(dict.fromkeys(words_tokens))
    words_table = table_from_classifier(model.predict, words_tokens, mask_token="UNKWORDZ")
    cases = {"s1-converges-definition-1": (table, None), "s2-converges-l2": (l2_table, None),
             "s3-converges-predict-proba": (_sigmoid_table(tokens), None),
             "s4-converges-defaults": (words_table, words_tokens)}
    for name, (tab, groups) in cases.items():
        v = steps[name].values
        assert_allclose(v["limit"], limit_by_hand(tab, words=groups), atol=1e-10, err_msg=name)
        assert_allclose(v["median_band"]["beta_star_n"], limit_by_hand(tab, n_samples=5000, words=groups),
                        atol=1e-10, err_msg=name)
    assert_allclose(limit_by_hand(table), model.position_weights(tokens), atol=1e-10)
    per_word = np.array(model.position_weights(words)) * [words_tokens.count(w) for w in words]
    assert words_tokens.count("bad") == 2
    assert_allclose(steps["s4-converges-defaults"].values["limit"], per_word, atol=1e-10)


def test_documents_steps_match_brute_force(result):
    """Catches the exhaustive proof steps passing on tables they did not compute: for every document, the by-hand
    limit over positions equals a_i and the by-hand limit over words equals m_j a_j (the per-word closed form),
    on documents with repeated words too; the steps list every document."""
    model = fitted_model()
    steps = _steps(result)
    assert [r["text"] for r in steps["p3-documents"].values["documents"]] == list(DOCUMENTS)
    rows = steps["p4-words"].values["documents"]
    assert [r["text"] for r in rows] == [*DOCUMENTS, *baseline_lime.BOW_EXTRA]
    assert sum(len(set(t.split())) < len(t.split()) for t in (r["text"] for r in rows)) >= 3
    for text in (*DOCUMENTS, *baseline_lime.BOW_EXTRA):
        tokens = text.split()
        words = list(dict.fromkeys(tokens))
        table = table_from_classifier(model.predict, tokens, mask_token="UNKWORDZ")
        assert_allclose(limit_by_hand(table), model.position_weights(tokens), atol=1e-9, err_msg=text)
        per_word = np.array(model.position_weights(words)) * [tokens.count(w) for w in words]
        assert_allclose(limit_by_hand(table, words=tokens), per_word, atol=1e-9, err_msg=text)


@pytest.mark.parametrize("text, n, seed, setting", [
    (DOCUMENT, 300, 3, "evaluation"), ("slow service but good food", 120, 8, "evaluation"),
    (baseline_lime.DEFAULTS_DOCUMENT, 200, 5, "defaults"), ("good food good service good staff", 90, 2, "defaults"),
])
def test_package_is_called_as_lime_by_hand(text, n, seed, setting):
    """Catches lime_runs calling the package otherwise than stated (bow=True where the evaluation has bow=False or
    the reverse, another class, features misaligned with positions or first-occurrence words, another kernel):
    its coefficients equal LIME written out by hand on the same RandomState draws, with repeated words for the
    defaults (b = 7 uses lime's highest_weights selection, b = 5 its forward selection: both keep every feature)."""
    pytest.importorskip("lime")
    model = fitted_model()
    got = lime_runs.package_coefficients(two_columns(model.predict), text, n, seed, setting)
    assert_allclose(got, lime_by_hand(model.predict, text, n, seed, bow=setting == "defaults"), atol=1e-9)


def test_predict_proba_is_the_evaluations():
    """Catches the predict_proba run explaining another function (the decision function, the wrong column, a
    sigmoid of the wrong sign): lime_runs' predict for 'l2-proba' equals scikit-learn's own predict_proba of
    TfidfVectorizer() + LogisticRegression(C=10) fitted on the corpus here."""
    texts, labels = zip(*CORPUS)
    vectorizer = TfidfVectorizer()
    model = LogisticRegression(C=baseline_setting.C_REGULARISATION).fit(vectorizer.fit_transform(texts), labels)
    probe = [DOCUMENT, "the UNKWORDZ was good UNKWORDZ service UNKWORDZ", "bad place"]
    predict = lime_runs.exact_side(lime_runs.PROBA, DOCUMENT, ())[0]
    assert_allclose(predict(probe), model.predict_proba(vectorizer.transform(probe)), atol=1e-9)


def test_median_band_decides_by_its_definition():
    """Catches a band test that calls 'holds' an interval poking out of its band, 'fails' an interval straddling
    its edge, or decides on covering beta*_n itself: intervals inside, straddling and wholly outside the band,
    and one inside the band that excludes the centre (still holds)."""
    runs = np.array([[0.0, 1.00], [0.1, 1.02], [0.05, 1.01]])
    inside = lime_runs.median_band(runs, [0.05, 1.0], margin=0.1, n=10)
    assert inside.holds and not inside.fails and inside.covers_centre == [True, True]
    assert inside.miss_probability == 0.25
    off_centre = lime_runs.median_band(runs, [0.05, 0.99], margin=0.1, n=10)
    assert off_centre.holds and off_centre.covers_centre == [True, False]
    straddle = lime_runs.median_band(runs, [0.05, 0.95], margin=0.06, n=10)
    assert not straddle.holds and not straddle.fails
    outside = lime_runs.median_band(runs, [0.05, 0.5], margin=0.1, n=10)
    assert outside.fails and not outside.holds


def test_sign_tests_direction_and_level():
    """Catches a sign test counting the wrong direction or claiming a level it cannot reach: errors that all
    shrink give 'improves' with P = 2^-R; all growing gives 'worsens'; R = 19 cannot reach 1e-6."""
    shrink = np.vstack([np.linspace(1, 2, 30), np.linspace(0.1, 0.2, 30)])
    (down,) = lime_runs.sign_tests(shrink, (10, 100), DELTA)
    assert down.improves and not down.worsens and down.reaches_level and down.p_no_decrease == _tail(30, 30)
    (up,) = lime_runs.sign_tests(shrink[::-1], (10, 100), DELTA)
    assert up.worsens and not up.improves
    (short,) = lime_runs.sign_tests(shrink[:, :19], (10, 100), DELTA)
    assert not short.reaches_level and short.p_no_decrease == 0.5**19


def test_top_k_agreement_counts_sets():
    """Catches top-k agreement comparing ordered lists or the wrong k: two runs, one with the limit's order and
    one swapping positions 1 and 2 (top-1 and top-3 sets equal, top-2 sets differ: {0, 1} against {0, 2})."""
    limit = np.array([3.0, 2.0, 1.0, 0.0])
    runs = np.array([[3.0, 2.0, 1.0, 0.0], [3.0, 1.0, 2.0, 0.0]])
    assert lime_runs.top_k_agreement(runs, limit) == {1: 1.0, 2: 0.5, 3: 1.0}


def test_absent_package_is_inconclusive(monkeypatch):
    """Catches a plain install (no lime) crashing the claim or counting as evidence: each convergence step is
    inconclusive, says the package is not installed and names the install command, keeps its reading, and ran
    no sample."""
    real = baseline_setting.find_spec
    monkeypatch.setattr(baseline_setting, "find_spec", lambda name: None if name == "lime" else real(name))
    monkeypatch.setattr(baseline_lime, "lime_convergence", lambda *a, **k: pytest.fail("ran the package"))
    monkeypatch.setattr(baseline_lime, "any_length_case", lambda *a, **k: pytest.fail("ran the package"))
    steps = [baseline_lime.convergence_step(step, model, setting, text, seed, "note", {}, reading)
             for step, setting, text, model, seed, reading in baseline_lime.RUNS]
    steps.append(baseline_lime.any_length_step())
    assert steps[-1].reading == "defaults-any-length"
    for got, reading in zip(steps, [*(run[-1] for run in baseline_lime.RUNS), "defaults-any-length"]):
        assert got.status == "inconclusive" and "lime is not installed" in got.note and EVAL_EXTRA in got.note
        assert got.values["installed"] is False and got.values["package"] == "lime" and got.reading == reading


def test_any_length_step_without_a_dropped_word_is_reported(result, monkeypatch):
    """Catches the any-length step crashing the report when the package weights every word (a lime release with
    another num_features or selection): it once asked for an 'inconclusive' counterexample step, which the rule
    forbids. With the sweep and the case replaced by ones where no word is dropped, the step is built and holds."""
    values = _steps(result)["s5-defaults-any-length"].values
    sweep = [{**row, "unweighted": []} for row in values["sweep"]]
    monkeypatch.setattr(baseline_lime, "any_length_case", lambda *a: (sweep, {**values, "omitted": []}))
    step = baseline_lime.any_length_step()
    assert step.status == "holds" and step.reading == "defaults-any-length"


@pytest.mark.parametrize("d, n_samples", [(2, None), (4, None), (7, None), (7, 5000), (8, 50)])
def test_solve_tolerance_is_derived_from_lime_s_own_gram(d, n_samples):
    """Catches the closed-form tolerance built on a wrong normal-equation matrix (e.g. E[pi z_j^2] taken as the
    pair moment, or row 0 and the ridge penalty left out at finite n): the Gram matrix is rebuilt here pattern by
    pattern from LIME's law (a pattern keeping k < d features has probability 1/(d C(d, k)), weight pi_k), and the
    tolerance must be 2 (2^d + d + 1) u kappa of that matrix."""
    gram = np.zeros((d + 1, d + 1))
    for kept in itertools.product((0, 1), repeat=d):
        k = sum(kept)
        if k == d:
            continue
        x = np.array([1.0, *kept])
        weight = float(lime_kernel(np.array([k], float), d)[0]) / (d * math.comb(d, k))
        gram += weight * np.outer(x, x)
    if n_samples is not None:
        gram = (n_samples - 1) * gram + np.ones((d + 1, d + 1)) + np.diag([0.0] + [1.0] * d)
    expected = 2 * (2**d + d + 1) * np.finfo(float).eps * np.linalg.cond(gram)
    assert lime_runs.solve_tolerance(d, n_samples, 1.0) == pytest.approx(expected, rel=1e-6)
