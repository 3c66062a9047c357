"""Claim ``baseline-anchors``: anchor-exp's returned anchors against their exact precision, recomputed here without
the claim's code path: scikit-learn pipelines fitted afresh predict every UNK perturbation, and the intervals are
scipy's beta quantiles."""

from __future__ import annotations

import ast
import inspect
import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

import proofs_checks.paper.baselines as setting
from fred_constants import DELTA
from proofs_checks.claims.baselines import baseline_anchors
from proofs_checks.paper.baselines import CORPUS, EVAL_EXTRA, missing
from tests._helpers import claim_step, clopper_pearson

CLAIM = "baseline-anchors"
#: The tests that rerun or read anchor-exp's runs; the absent-package and import tests run everywhere.
needs_packages = pytest.mark.skipif(missing("anchor-exp") is not None or missing("spacy") is not None,
                                reason="anchor-exp and spaCy (the eval extra) are needed to rerun the package")


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(CLAIM)


def _step(result, step_id):
    return claim_step(result, baseline_anchors.CLAIM, step_id)


@pytest.fixture(scope="module")
def pipelines():
    """The two models refitted as plain scikit-learn pipelines (C = 10, as the setting says), never via analytic."""
    texts, labels = zip(*CORPUS)
    return {"definition-1": make_pipeline(TfidfVectorizer(norm=None), LogisticRegression(C=10.0)).fit(texts, labels),
            "evaluation-l2": make_pipeline(TfidfVectorizer(), LogisticRegression(C=10.0)).fit(texts, labels)}


def _brute_precision(pipeline, document: str, anchor) -> Fraction:
    """Share of the perturbations keeping ``anchor`` (each other word kept or 'UNK') predicted as the document."""
    tokens = document.split()
    free = [i for i in range(len(tokens)) if i not in set(anchor)]
    texts = []
    for choice in itertools.product((False, True), repeat=len(free)):
        words = list(tokens)
        for i, masked in zip(free, choice):
            if masked:
                words[i] = "UNK"
        texts.append(" ".join(words))
    predictions = pipeline.predict(texts)
    return Fraction(int(np.sum(predictions == pipeline.predict([document])[0])), len(texts))


@pytest.fixture(scope="module")
def brute_runs(result, pipelines):
    """Every run of the claim with its exact precision recomputed by brute force."""
    table = _step(result, "s-accepted").values
    cache, out = {}, []
    for case, seed, anchor, reported, precision in table["runs"]:
        model, document = table["cases"][case]
        key = (model, document, tuple(anchor))
        if key not in cache:
            cache[key] = _brute_precision(pipelines[model], document, anchor)
        out.append({"model": model, "document": document, "seed": seed, "anchor": anchor, "reported": reported,
                    "claimed": Fraction(precision), "brute": cache[key]})
    return out


@needs_packages
def test_exact_precision_of_every_run_by_brute_force(brute_runs, result):
    """Catches an exact precision computed on the wrong patterns (anchor bits read as perturbed ones, the mask
    token not out of vocabulary, a model read wrongly from scikit-learn): each run's precision is recounted from
    freshly fitted pipelines over every perturbation that keeps the anchor."""
    assert len(brute_runs) == 2 * sum(baseline_anchors.runs_for(d) for d in baseline_anchors.FAMILY_DOCUMENTS)
    wrong = [r for r in brute_runs if r["claimed"] != r["brute"]]
    assert not wrong, wrong[:3]


def _per_call_outcome(meeting: int, calls: int, cases: int) -> str:
    """A case's decision written afresh with scipy's exact binomial test: Ribeiro et al.'s per-call probability
    0.9 rejected (one-sided, at DELTA / 2 per case and Bonferroni over ``cases``) when too few calls meet the level,
    confirmed when too many do, out of reach when no outcome of ``calls`` calls could reject it."""
    level = DELTA / (2 * cases)
    if stats.binomtest(meeting, calls, 0.9, alternative="less").pvalue < level:
        return "violated"
    if stats.binomtest(meeting, calls, 0.9, alternative="greater").pvalue < level:
        return "confirmed"
    return "not rejected" if 0.1**calls < level else "cannot reach the level"


def _cases(brute_runs, level):
    """Per case (model, document), in the order of the runs: whether each call meets ``level`` (brute force)."""
    per_case = {}
    for r in brute_runs:
        per_case.setdefault((r["model"], r["document"]), []).append(r["brute"] >= level)
    return per_case


@needs_packages
def test_per_call_decisions_recomputed_with_binomtest(brute_runs, result):
    """Catches pooling runs across documents (a pooled share hides a document whose calls fail), a per-case level
    without the correction over the 22 cases, the headline judged at threshold - epsilon_stop (0.90) in place of
    the threshold 0.95, a non-rejection reported as 'holds', and a case out of the test's reach counted as
    evidence: each case's calls meeting the level are recounted from the brute-force precisions, its decision
    recomputed with scipy.stats.binomtest, and the step's status follows from them (fails on a violated case,
    holds only when every case confirms, inconclusive otherwise)."""
    for step_id, level in (("s-definition", Fraction("0.95")),
                           ("s-stopping-rule", Fraction("0.95") - Fraction("0.05"))):
        step = _step(result, step_id)
        per_case = _cases(brute_runs, level)
        assert step.values["level"] == float(level) and step.values["promised_probability"] == 0.9
        expected = {k: (sum(v), len(v), _per_call_outcome(sum(v), len(v), len(per_case)))
                    for k, v in per_case.items()}
        got = {(c["model"], c["document"]): (c["meeting"], c["calls"], c["outcome"]) for c in step.values["per_case"]}
        assert got == expected, step_id
        outcomes = [o for *_, o in expected.values()]
        status = ("fails" if "violated" in outcomes else
                  "holds" if set(outcomes) == {"confirmed"} else "inconclusive")
        assert step.status == status, step_id
        if status == "fails":
            assert result.reading_status(step.reading) == "fails"


def _planted(cases: dict) -> list[dict]:
    """Runs of a planted family: document -> the exact precisions of its calls (one model)."""
    return [{"model": "planted", "document": document, "b": len(document.split()), "seed": i, "anchor": (0,),
             "words": [document.split()[0]], "reported_precision": 1.0, "precision": precision,
             "smallest_meeting_size": 1, "setting": {"use_unk_distribution": True}}
            for document, precisions in cases.items() for i, precision in enumerate(precisions)]


def _planted_step(rows, level=Fraction("0.95")):
    common = {"false_alarm_probability": DELTA, "seed": 0, "case_count": len({r["document"] for r in rows})}
    return baseline_anchors.per_call_step("s-definition", "definition", level, "tau = threshold", rows,
                                          Fraction("0.1"), common, None)


def test_pooling_does_not_hide_a_document_whose_calls_fail():
    """Catches pooling runs across documents: 21 documents whose 10 calls all meet tau and one whose 10 calls all
    miss it. Pooled, 10 misses of 220 calls have a Clopper-Pearson interval (scipy's binomtest) containing delta =
    0.1, so a pooled test would not reject; per call, that one document violates the definition and the step
    fails."""
    rows = _planted({**{f"good document {i}": ["1"] * 10 for i in range(21)}, "bad document": ["9/10"] * 10})
    low, high = clopper_pearson(10, 220, DELTA)
    assert low < 0.1 < high  # the pooled view cannot see it
    step = _planted_step(rows)
    assert step.status == "fails" and step.values["outcomes"]["violated"] == 1
    assert [c["document"] for c in step.values["per_case"] if c["outcome"] == "violated"] == ["bad document"]
    assert "containing delta" in step.note


def test_per_case_level_is_corrected_over_the_cases():
    """Catches a per-case test at the suite's delta without the correction over the cases: a document with 2 of its
    10 calls meeting tau has one-sided p-value 3.7e-7 (scipy's binomtest), below DELTA / 2 = 5e-7 but not below
    DELTA / (2 x 22) = 2.3e-8: alone it is violated, among 22 documents it is not rejected."""
    p_value = stats.binomtest(2, 10, 0.9, alternative="less").pvalue
    assert DELTA / (2 * 22) < p_value < DELTA / 2
    document = {"a planted document": ["1/2"] * 8 + ["1"] * 2}
    assert _planted_step(_planted(document)).status == "fails"
    among = _planted_step(_planted({**document, **{f"good document {i}": ["1"] * 10 for i in range(21)}}))
    assert among.status == "inconclusive" and among.values["outcomes"]["violated"] == 0


def test_headline_level_is_the_threshold_not_the_stopping_slack():
    """Catches using threshold - epsilon_stop as the level: calls whose anchors have exact precision 0.92 (>= 0.90,
    < 0.95) violate the definition at tau = 0.95 and not at 0.90 (10 calls, one document)."""
    rows = _planted({"a planted document": ["23/25"] * 10})
    assert _planted_step(rows).status == "fails"
    assert _planted_step(rows, Fraction("0.90")).status == "inconclusive"


def test_a_non_rejection_is_not_holds_and_an_unreachable_case_is_not_evidence():
    """Catches a non-rejection reported as 'holds' and a case whose calls cannot reach the level counted as
    evidence: 10 calls all meeting tau are not rejected, but 10 calls can never confirm 0.9 (scipy: the one-sided
    p-value of 10 of 10 is 0.9^10, far above 5e-7), so the step is inconclusive; 5 calls all missing cannot reject
    (0.1^5 = 1e-5 > 5e-7) and are 'cannot reach the level', inconclusive, not 'fails'; 150 calls all meeting tau
    confirm it (0.9^150 < 5e-7) and the step holds."""
    assert stats.binomtest(10, 10, 0.9, alternative="greater").pvalue > DELTA / 2
    met = _planted_step(_planted({"a planted document": ["1"] * 10}))
    assert met.status == "inconclusive" and met.values["per_case"][0]["outcome"] == "not rejected"
    unreachable = _planted_step(_planted({"a planted document": ["1/2"] * 5}))
    assert unreachable.status == "inconclusive"
    assert unreachable.values["per_case"][0]["outcome"] == "cannot reach the level"
    assert stats.binomtest(150, 150, 0.9, alternative="greater").pvalue < DELTA / 2
    assert _planted_step(_planted({"a planted document": ["1"] * 150})).status == "holds"


def _declared_seeds(seed: int) -> dict:
    """Each case's seeds drawn afresh from default_rng(seed): case after case (models, then documents), each its
    runs and one unused slot."""
    documents = baseline_anchors.FAMILY_DOCUMENTS
    size = 2 * sum(baseline_anchors.runs_for(d) + 1 for d in documents)
    draws = iter(np.random.default_rng(seed).integers(0, 2**32, size=size).tolist())
    out = {}
    for model in ("definition-1", "evaluation-l2"):
        for document in documents:
            out[(model, document)] = [next(draws) for _ in range(baseline_anchors.runs_for(document))]
            next(draws)
    return out


@needs_packages
def test_definition_counterexample_is_minimal_and_inside_the_hypotheses(brute_runs, result):
    """Catches a counterexample that is not the smallest violating case (fewer words, then the family's order), a
    seed list chosen by outcome rather than a prefix of the case's declared seeds, a prefix that is not the
    shortest rejecting one at DELTA / (22 cases x the case's 24 calls), precisions other than the brute-force ones,
    and one outside the hypotheses (the package must have reported success on every call): recomputed from the
    brute-force precisions with scipy's binomtest, the seeds drawn afresh from default_rng."""
    step = _step(result, "s-definition")
    per_case = _cases(brute_runs, Fraction("0.95"))
    violated = [k for k, v in per_case.items() if _per_call_outcome(sum(v), len(v), len(per_case)) == "violated"]
    example = result.counterexample
    if not violated:
        assert example is None and step.status != "fails"
        return
    order = list(per_case)
    key = min(violated, key=lambda k: (len(k[1].split()), order.index(k)))
    assert (example["model"], example["document"]) == key
    calls = per_case[key]
    paid = DELTA / (2 * len(per_case) * len(calls))
    prefixes = [n for n in range(1, len(calls) + 1)
                if stats.binomtest(sum(calls[:n]), n, 0.9, alternative="less").pvalue < paid]
    assert example["calls"] == prefixes[0] and example["prefix_choice_paid"]
    assert example["seeds"] == _declared_seeds(step.values["seed"])[key][:example["calls"]]
    runs = [r for r in brute_runs if (r["model"], r["document"]) == key][:example["calls"]]
    assert [r["seed"] for r in runs] == example["seeds"]
    assert [Fraction(p) for p in example["precisions"]] == [r["brute"] for r in runs]
    assert example["calls_meeting_tau"] == sum(calls[:example["calls"]])
    assert example["p_value"] == pytest.approx(
        stats.binomtest(example["calls_meeting_tau"], example["calls"], 0.9, alternative="less").pvalue, rel=1e-9)
    assert example["satisfies_hypotheses"] and min(example["reported_precisions"]) >= 0.95
    assert step.status == "fails" and result.status == "fails" == result.reading_status("definition")


@needs_packages
def test_pooled_view_is_the_corrected_statement_only(brute_runs, result):
    """Catches the pooled share deciding a per-call reading, or worded as a per-call promise: it decides only the
    correction step (at threshold - epsilon_stop, its interval recomputed with scipy's binomtest), whose note says
    it is an average over the cases; the per-call steps carry it as 'pooled_does_not_decide'. On the committed
    seed the headline's pooled share at 0.95 (interval containing 0.1) would not have rejected while a case
    violates the definition."""
    pooled = _step(result, "s-definition").values["pooled_does_not_decide"]
    misses = sum(r["brute"] < Fraction("0.95") for r in brute_runs)
    assert pooled["misses"] == misses
    assert pooled["interval"] == pytest.approx(list(clopper_pearson(misses, len(brute_runs), DELTA)), rel=1e-6)
    if result.counterexample is None:
        assert result.corrected is None and not [s for s in result.steps if s.role == "correction"]
        return
    step = _step(result, "c-pooled-stopping-level")
    misses = sum(r["brute"] < Fraction("0.9") for r in brute_runs)
    low, high = clopper_pearson(misses, len(brute_runs), DELTA)
    assert (step.values["misses"], step.values["runs"]) == (misses, len(brute_runs))
    assert step.values["interval"] == pytest.approx([low, high], rel=1e-6, abs=1e-12)
    assert step.status == ("fails" if low > 0.1 else "holds" if high <= 0.1 else "inconclusive")
    assert "not a per-call promise" in step.note and step.role == "correction"


@needs_packages
def test_provable_counterexample_is_minimal_and_changes_the_prediction(brute_runs, result, pipelines):
    """Catches a 'provable' verdict that ignores runs below precision 1, a counterexample that is not the smallest
    (fewer tokens, then fewer anchor words, then the family's order) or whose perturbation does not change the
    prediction, and one outside the hypotheses (the package must have reported success)."""
    step = _step(result, "s-provable")
    order = {tuple(c): i for i, c in enumerate(_step(result, "s-accepted").values["cases"])}
    failing = [(len(r["document"].split()), len(r["anchor"]), order[(r["model"], r["document"])], i)
               for i, r in enumerate(brute_runs) if r["brute"] < 1]
    assert step.values["runs_below_precision_1"] == len(failing)
    if not failing:
        assert step.status == "holds"
        return
    # the claim's counterexample is the headline's (a document and its seeds); the stronger reading's is in its step
    assert step.status == "fails" and result.reading_status("provable") == "fails"
    assert result.counterexample is None or "seeds" in result.counterexample
    smallest = brute_runs[min(failing)[3]]
    example = step.values
    assert (example["model"], example["document"], example["seed"], example["anchor"]) == (
        smallest["model"], smallest["document"], smallest["seed"], smallest["anchor"])
    pipeline = pipelines[example["model"]]
    text = example["a_perturbation_that_changes_the_prediction"]
    kept = [w for i, w in enumerate(text.split()) if i in example["anchor"]]
    assert kept == example["words"]
    assert pipeline.predict([text])[0] != pipeline.predict([example["document"]])[0]
    assert example["satisfies_hypotheses"] and example["reported_precision"] >= 0.95


@needs_packages
def test_runs_are_what_the_evaluation_adapter_returns(result, pipelines):
    """Catches the claim calling anchor-exp otherwise than the evaluation does (other constructor arguments,
    parameters or seeding, labels other than the fitted model's predict): AnchorAdapter.explain on the
    scikit-learn pipeline, with a run's seed, returns the run's anchor, for the first run of each model on the
    counterexample's document."""
    from fred.evaluation.explainers import AnchorAdapter

    table = _step(result, "s-accepted").values
    document = (result.counterexample or {"document": baseline_anchors.FAMILY_DOCUMENTS[0]})["document"]
    for model, pipeline in pipelines.items():
        case = table["cases"].index([model, document])
        _, seed, anchor, _, _ = next(run for run in table["runs"] if run[0] == case)
        attribution = AnchorAdapter(pipeline.predict).explain(document, seed)
        assert list(attribution.ids) == sorted(anchor), (model, seed)


def _source_function(module, name):
    (fn,) = [n for n in ast.walk(ast.parse(inspect.getsource(module))) if isinstance(n, ast.FunctionDef)
             and n.name == name]
    return fn


def _defaults(module, name):
    fn = _source_function(module, name)
    names = [a.arg for a in fn.args.args][-len(fn.args.defaults):]
    return {k: ast.literal_eval(v) for k, v in zip(names, fn.args.defaults)}


@needs_packages
def test_parameters_are_the_installed_defaults(result):
    """Catches a level read from the wrong default (the package's tau = 0.15, KL-LUCB's epsilon, taken for Ribeiro et
    al.'s tau, which is the package's threshold; tau = 0.15 taken for epsilon_stop; another delta) and
    the beam size read as explain_instance's beam_size = 4, which it does not pass on to anchor_beam: the defaults
    and the keywords of explain_instance's call to anchor_beam are read here from the installed source by parsing
    it; the beam size run is anchor_beam's own default."""
    from anchor import anchor_base, anchor_text

    text, beam = _defaults(anchor_text, "explain_instance"), _defaults(anchor_base, "anchor_beam")
    (call,) = [n for n in ast.walk(_source_function(anchor_text, "explain_instance"))
               if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "anchor_beam"]
    passed = {k.arg for k in call.keywords}
    params = _step(result, "s-definition").values["parameters"]
    assert (params["threshold"], params["delta"], params["tau"]) == (text["threshold"], text["delta"], text["tau"])
    assert "beam_size" not in passed and params["beam_size_forwarded"] is False
    assert (params["beam_size"], params["explain_instance_beam_size"]) == (beam["beam_size"], text["beam_size"])
    assert params["beam_size"] == 1
    assert params["epsilon_stop"] == beam["epsilon_stop"]
    assert _step(result, "s-definition").values["level"] == text["threshold"]
    assert _step(result, "s-stopping-rule").values["level"] == pytest.approx(text["threshold"] - beam["epsilon_stop"])


@needs_packages
def test_beam_size_run_is_recorded_in_a_run(monkeypatch, result):
    """Catches the beam size read as 4 (explain_instance's default) when the package runs 1: anchor_beam's bound
    arguments and every KL-LUCB choice are recorded in a run of explain_instance as the evaluation calls it, on a
    4-word document whose only anchor is the whole document (so every size is searched): beam_size is 1, one
    candidate is chosen at each of the 4 sizes, and the step's values say the same."""
    import spacy
    from anchor.anchor_base import AnchorBaseBeam
    from anchor.anchor_text import AnchorText

    beam, lucb, seen, chosen = AnchorBaseBeam.anchor_beam, AnchorBaseBeam.lucb, [], []

    def recording_beam(*args, **kwargs):
        bound = inspect.signature(beam).bind(*args, **kwargs)
        bound.apply_defaults()
        seen.append(bound.arguments["beam_size"])
        return beam(*args, **kwargs)

    def recording_lucb(*args, **kwargs):
        out = list(lucb(*args, **kwargs))
        chosen.append(len(out))
        return out

    monkeypatch.setattr(AnchorBaseBeam, "anchor_beam", staticmethod(recording_beam))
    monkeypatch.setattr(AnchorBaseBeam, "lucb", staticmethod(recording_lucb))
    explainer = AnchorText(spacy.blank("en"), ["negative", "positive"], use_unk_distribution=True)
    saved = np.random.get_state()
    try:
        np.random.seed(0)
        explainer.explain_instance("a b c d", lambda texts: np.array(
            [int("UNK" not in t.split()) for t in texts]))
    finally:
        np.random.set_state(saved)
    assert seen == [1] and chosen == [1, 1, 1, 1]
    assert _step(result, "s-sequential").values["parameters"]["beam_size"] == seen[0]


@needs_packages
def test_numpy_global_state_is_restored(monkeypatch):
    """Catches global seeding left behind: anchor-exp draws from numpy's global generator, which the claim seeds
    for each run; after its runs (here on a one-document family, outside the cache) the state is as before."""
    monkeypatch.setattr(baseline_anchors, "FAMILY_DOCUMENTS", ("good food great service",))
    monkeypatch.setattr(baseline_anchors, "RUNS_PER_CASE", 1)
    saved = np.random.get_state()
    try:
        np.random.seed(12345)
        before = np.random.get_state()[1].copy()
        data = baseline_anchors.runs.__wrapped__(987654321)  # uncached: the small family must not enter the cache
        assert len(data["runs"]) == 2
        assert np.array_equal(np.random.get_state()[1], before)
    finally:
        np.random.set_state(saved)  # the test's own seeding must not leak into the tests run after it


def test_absent_package_leaves_the_package_steps_inconclusive(monkeypatch):
    """Catches a plain install (no anchor-exp) that crashes, or reports a verdict on steps that ran on no sample:
    the package steps are inconclusive and name the install command, the exact step still holds."""
    real = setting.find_spec
    monkeypatch.setattr(setting, "find_spec", lambda name: None if name == "anchor" else real(name))
    result = baseline_anchors.check()
    package_steps = [s for s in result.steps if s.id.split(".")[-1] in (
        "s-definition", "s-stopping-rule", "s-provable", "s-accepted", "s-sequential")]
    assert len(package_steps) == 5 and {s.status for s in package_steps} == {"inconclusive"}
    assert all(s.values["installed"] is False and EVAL_EXTRA in s.note for s in package_steps)
    assert _step(result, "s-exact-family").status == "holds" and _step(result, "s-sampler").status == "holds"
    assert result.status == "inconclusive" and result.counterexample is None and result.corrected is None
    assert not [s for s in result.steps if s.role == "correction"]


def test_module_imports_no_package_at_top_level():
    """Catches a top-level import of anchor-exp or spaCy, which would break the claim index on a plain install."""
    tree = ast.parse(inspect.getsource(baseline_anchors))
    top = {alias.name.split(".")[0] for node in tree.body if isinstance(node, ast.Import) for alias in node.names}
    top |= {node.module.split(".")[0] for node in tree.body if isinstance(node, ast.ImportFrom) and node.module}
    assert not top & {"anchor", "spacy"}


def test_sampler_law_by_enumerating_subsets(result):
    """Catches a wrong sampler identity (a set of changed rows whose probability is not 2^-n, e.g. the Binomial
    weight not divided by the number of subsets): the two-stage law (k ~ Binomial(n, 1/2), then each k-subset of
    the rows equally likely) is built here from itertools' subsets and checked to be the product of fair coins,
    each row's marginal 1/2."""
    for n in range(1, 9):
        law = {}
        for k in range(n + 1):
            subsets = list(itertools.combinations(range(n), k))
            for subset in subsets:
                law[frozenset(subset)] = Fraction(stats.binom.pmf(k, n, 0.5)).limit_denominator(2**n) / len(subsets)
        assert len(law) == 2**n and set(law.values()) == {Fraction(1, 2**n)}
        assert all(sum(v for s, v in law.items() if row in s) == Fraction(1, 2) for row in range(n))
    step = _step(result, "s-sampler")
    assert step.status == "holds" and step.values["symbolic"] and step.values["enumerated_ok"]


@needs_packages
def test_sampler_draws_are_the_ones_argued(monkeypatch):
    """Catches the argument s-sampler-source reading other code than the installed sampler: with numpy's draws
    recorded, every word outside the anchor gets one Binomial(num_samples, 0.5) count and one choice of that many
    rows without replacement, and the anchor's words none."""
    import spacy
    from anchor.anchor_text import AnchorText

    calls = []
    binomial, choice = np.random.binomial, np.random.choice
    monkeypatch.setattr(np.random, "binomial", lambda n, q: calls.append(("binomial", n, q)) or binomial(n, q))
    monkeypatch.setattr(np.random, "choice", lambda n, size, replace=True: calls.append(
        ("choice", n, size, replace)) or choice(n, size, replace=replace))
    explainer = AnchorText(spacy.blank("en"), ["negative", "positive"], use_unk_distribution=True)
    *_, sample_fn = explainer.get_sample_fn("a b c d", lambda texts: np.zeros(len(texts), dtype=int))
    calls.clear()
    sample_fn([1, 3], 10)
    assert [c[:3] if c[0] == "binomial" else (c[0], c[1], c[3]) for c in calls] == [
        ("binomial", 10, 0.5), ("choice", 10, False)] * 2


def _sequential_by_hand(p: float, b: int, start: int, beam_size: int, params: dict) -> float:
    """The stopping test's acceptance written afresh: a dict of agreeing-row counts, scipy's binomial weights,
    started from ``start`` rows, beta from the beam size given here (not the claim's parameters)."""
    from anchor.anchor_base import AnchorBaseBeam as Beam

    tau, stop, batch = params["threshold"], params["epsilon_stop"], params["batch_size"]
    beta = np.log((1 + (beam_size - 1) * b) / params["delta"])
    weights = stats.binom.pmf(np.arange(batch + 1), batch, p)
    counts, n, accepted = {k: stats.binom.pmf(k, start, p) for k in range(start + 1)}, start, 0.0
    while counts and n <= 3000:
        nxt = {}
        for k, mass in counts.items():
            mean, level = k / n, beta / n
            low, up = Beam.dlow_bernoulli(mean, level), Beam.dup_bernoulli(mean, level)
            if (mean >= tau and low < tau - stop) or (mean < tau and up >= tau + stop):
                for j in range(batch + 1):
                    nxt[k + j] = nxt.get(k + j, 0.0) + mass * weights[j]
            elif mean >= tau and low > tau - stop:
                accepted += mass
        counts, n = {k: m for k, m in nxt.items() if m > 1e-15}, n + batch
    return accepted


@needs_packages
def test_sequential_acceptance_recomputed_and_verdict_unproved(result):
    """Catches a wrong Markov chain of the stopping test (a batch's weights, the continue or accept condition,
    the start), beta computed with beam_size 4 (explain_instance's default, not passed on) in place of anchor_beam's
    1, a union bound over tests that cannot miss (the size-b whole document has precision 1), or a verdict that
    does not follow: the acceptance at precision 0.90 is recomputed by a separately written chain, with the beam
    size parsed here from the installed source, from one batch for every b and from every scanned start; the
    union bound over the b - 1 tests that can miss, and every start against exp(-beta) = delta, decide the step;
    a failing proof step with a holding (pooled) corrected statement makes the correction 'unproved'."""
    from anchor import anchor_base

    beam_size = _defaults(anchor_base, "anchor_beam")["beam_size"]
    step = _step(result, "s-sequential")
    params = step.values["parameters"]
    for row in step.values["rows"]:
        accept = _sequential_by_hand(0.9, row["b"], params["batch_size"], beam_size, params)
        assert row["acceptance"] == pytest.approx(accept, rel=1e-9, abs=1e-15), row["b"]
        assert row["tests_that_can_miss"] == row["b"] - 1
        assert row["exceeds_delta"] == ((row["b"] - 1) * accept > params["delta"])
    starts = step.values["starts"]
    by_hand = {n: _sequential_by_hand(0.9, starts["b"], n, beam_size, params)
               for n in range(1, len(starts["acceptance_by_start"]) + 1)}
    assert starts["acceptance_by_start"] == pytest.approx({str(n): a for n, a in by_hand.items()}, rel=1e-9,
                                                          abs=1e-15)
    assert starts["per_test_level"] == pytest.approx(params["delta"])  # exp(-log(1 / delta)) at beam_size 1
    assert starts["starts_above_level"] == [n for n, a in by_hand.items() if a > params["delta"]]
    over = any(r["exceeds_delta"] for r in step.values["rows"]) or bool(starts["starts_above_level"])
    assert step.status == ("fails" if over else "holds")
    pooled = [s for s in result.steps if s.role == "correction"]
    if over and pooled and pooled[0].status == "holds":  # the corrected statement holds on the family, unproved
        assert result.corrected_status == "unproved"


def test_sequential_step_within_its_bounds_is_reported(result):
    """Catches the s-sequential branch where nothing exceeds the argument's bounds crashing the report (it once
    asked for an 'inconclusive' exhaustive step, which the rule forbids): on the same rows with no b and no start
    over the level, the step is built and holds, and its note leaves the other gaps to s-kl-lucb."""
    from proofs_checks.claims.baselines import anchor_exp_law

    values = _step(result, "s-sequential").values
    rows = [{**row, "exceeds_delta": False} for row in values["rows"]]
    starts = {**values["starts"], "starts_above_level": []}
    step = anchor_exp_law.sequential_step(baseline_anchors.CLAIM, rows, starts, values["parameters"],
                                          values["beam_size_source"])
    assert step.status == "holds" and "s-kl-lucb" in step.note


def test_slack_reports_how_far_the_misses_fall():
    """Catches the size of the miss computed on the wrong calls or at the wrong floor: a planted family whose calls
    have exact precisions 1, 15/16, 29/32 and 1 (by hand: two below tau = 0.95, 15/16 = 0.9375 and 29/32 = 0.90625,
    both >= 0.90) and, once 7/8 = 0.875 is added, one call below threshold - epsilon_stop."""
    rows = _planted({"a b c": ["1", "15/16", "29/32", "1"]})
    seen = baseline_anchors.slack(rows, Fraction("0.95"), Fraction("0.9"))
    assert seen["below_level_precisions"] == {"29/32": 1, "15/16": 1} and seen["every_call_at_least_floor"]
    assert seen["lowest_precision"] == "29/32" and seen["calls"] == 4
    worse = baseline_anchors.slack(_planted({"a b c": ["1", "7/8"]}), Fraction("0.95"), Fraction("0.9"))
    assert worse["below_level_precisions"] == {"7/8": 1} and not worse["every_call_at_least_floor"]


@needs_packages
def test_definition_note_leads_with_the_prefix_test_and_the_small_miss(brute_runs, result):
    """Catches the s-definition note leading with the case's 5/24 interval (a run count set after a trial run, not
    paid for) instead of the prefix test paid by the 22 x 24 union bound, and the miss's size left out or computed
    off the brute-force precisions: the distinct exact precisions below 0.95 over all calls (recounted from the
    brute-force enumeration) are the step's, each between 0.90 and 0.95, every call >= 0.90, and the note and the
    conditions name them and epsilon_stop."""
    step = _step(result, "s-definition")
    if result.counterexample is None:
        return
    assert step.note.startswith("Violated, by the prefix test (paying for the choice of the prefix and of the run "
                                "count: delta / (22 cases x 24 calls))")
    below: dict[str, int] = {}
    for r in brute_runs:
        if r["brute"] < Fraction("0.95"):
            below[str(r["brute"])] = below.get(str(r["brute"]), 0) + 1
    seen = step.values["slack"]
    assert seen["below_level_precisions"] == dict(sorted(below.items(), key=lambda kv: Fraction(kv[0])))
    assert all(Fraction("0.9") <= Fraction(v) < Fraction("0.95") for v in below)
    assert min(r["brute"] for r in brute_runs) >= Fraction("0.9") and seen["every_call_at_least_floor"]
    for text in (step.note, result.conditions):
        assert "The miss is small" in text and "epsilon_stop" in text
        assert all(v in text for v in below)
