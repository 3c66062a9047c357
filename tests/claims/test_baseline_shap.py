"""Tests of claim baseline-shap: SHAP's "exhaustive search over all possible token subsets" on small documents.

Each test recomputes what a step asserts by an independent route: Owen values by their definition (orderings that
keep every subtree together) and Shapley values by all b! orderings, not the referee's recursion and subset
formula; the masks of the partition recursion by a walk written here; the committed robustness read with the csv
module straight from the files; the full tree's evaluations, and the fewest any tree needs, by this file's own
count; own contributions from b + 1 model outputs; re-runs past the budget with a model written here.
"""

from __future__ import annotations

import csv
import itertools
import math
from fractions import Fraction
from importlib.util import find_spec

import numpy as np
import pytest

from fred.evaluation.config import results_dir
from proofs_checks.claims.baselines import baseline_shap
from proofs_checks.paper import baselines as baseline_setting
from proofs_checks.paper.baselines import EVAL_EXTRA, fitted_model
from tests._helpers import claim_step

CLAIM = "baseline-shap"
needs_shap = pytest.mark.skipif(find_spec("shap") is None, reason="shap (the eval extra) is not installed")


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(CLAIM)


def step(result, name):
    return claim_step(result, CLAIM, name)


def game(f, tokens) -> dict:
    """v(S) for every kept set S, as an exact Fraction of the float output: f of the text with the positions
    outside S replaced by the mask word (one call)."""
    b = len(tokens)
    sets = [frozenset(i for i in range(b) if code >> i & 1) for code in range(2**b)]
    outputs = f([" ".join(t if i in kept else "UNK" for i, t in enumerate(tokens)) for kept in sets])
    return dict(zip(sets, (Fraction(float(x)) for x in outputs)))


def groups_of(tree, b):
    """Position sets of the internal nodes of a linkage (row r is node b + r)."""
    sets = [frozenset([i]) for i in range(b)]
    for left, right in tree:
        sets.append(sets[left] | sets[right])
    return sets[b:]


def by_orderings(v: dict, b: int, groups=()):
    """Mean marginal contribution over the orderings keeping each group consecutive: Shapley with no groups,
    Owen with the tree's groups (the definitions, by brute force over the b! orderings), in Fractions."""
    totals, count = [Fraction(0)] * b, 0
    for order in itertools.permutations(range(b)):
        rank = {i: r for r, i in enumerate(order)}
        if any(max(rank[i] for i in g) - min(rank[i] for i in g) + 1 != len(g) for g in groups):
            continue
        count += 1
        kept = frozenset()
        for i in order:
            totals[i] += v[kept | {i}] - v[kept]
            kept = kept | {i}
    return np.array([float(t / count) for t in totals])


MODEL = fitted_model()


def proba(texts):
    return 1.0 / (1.0 + np.exp(-MODEL.predict(list(texts))))


@needs_shap
def test_shap_values_are_owen_values_by_their_definition(result):
    """Catches s1 passing against a wrong referee: on the family's 7-token document under the predict_proba, shap's
    values (as the step recorded them) equal the Owen values computed from their definition, and differ from the
    Shapley values."""
    (case,) = [c for c in step(result, "s1-exact-owen").values["cases"]
               if c["model"] == "predict_proba" and c["document"] == "the food was good but service slow"]
    tokens = case["document"].split()
    v, b = game(proba, tokens), len(tokens)
    owen = by_orderings(v, b, groups_of(case["tree"], b))
    assert np.max(np.abs(np.array(case["shap_values"]) - owen)) <= case["tolerance"]
    assert np.max(np.abs(owen - by_orderings(v, b))) > 1e-3


@needs_shap
def test_additive_values_are_each_tokens_own_contribution(result):
    """Catches s1 and s8 comparing with the wrong closed form: under Definition 1's decision function shap's values
    (family documents and the b = 26 one) equal each position's own contribution f(all) - f(all but i), computed
    here from b + 1 model outputs."""
    runs = [c for c in step(result, "s1-exact-owen").values["cases"] if c["model"] == "decision function"]
    assert {c["document"] for c in step(result, "s8-additive-equals-closed-form").values["cases"]} == {
        c["document"] for c in runs} and max(c["b"] for c in runs) == 26
    for run in runs:
        tokens = run["document"].split()
        texts = [" ".join("UNK" if j == i else t for j, t in enumerate(tokens)) for i in range(-1, len(tokens))]
        outputs = MODEL.predict(texts)
        own = outputs[0] - outputs[1:]
        assert np.max(np.abs(np.array(run["shap_values"]) - own)) <= 4 * run["tolerance"], run["document"]


def partition_masks(tree, b):
    """The kept sets the partition recursion evaluates over the whole tree: all, none, and for each internal node
    in each context its two children added to the context (as codes of masked positions)."""
    groups = [frozenset([i]) for i in range(b)]
    children = {}
    for left, right in tree:
        children[len(groups)] = (left, right)
        groups.append(groups[left] | groups[right])
    kept, stack = {frozenset(), frozenset(range(b))}, [(len(groups) - 1, frozenset())]
    while stack:
        node, context = stack.pop()
        if node not in children:
            continue
        left, right = children[node]
        kept |= {context | groups[left], context | groups[right]}
        stack += [(left, context), (right, context), (left, context | groups[right]), (right, context | groups[left])]
    return sorted(sum(1 << i for i in range(b) if i not in s) for s in kept)


@needs_shap
def test_not_every_subset_counterexample_is_the_recursions_masks(result):
    """Catches s7 counting the model's inputs wrongly: the masks shap sent on the counterexample are exactly those
    of the partition recursion over its tree, fewer than 2^b, and every smaller prefix evaluated all 2^b."""
    values = step(result, "s7-not-every-subset").values
    found = values["found"]
    assert found["masks"] == partition_masks(found["tree"], found["b"])
    assert len(found["masks"]) < 2 ** found["b"] and found["satisfies_hypotheses"] and values["minimal"]
    assert found["b"] == 4 and all(c["b"] < 4 and not c["breaks"] for c in values["checked"])
    # every binary tree of 2 or 3 positions evaluates all 2^b subsets: no counterexample has fewer tokens
    for b, trees in ((2, [[[0, 1]]]), (3, [[[0, 1], [3, 2]], [[1, 2], [0, 3]], [[0, 2], [3, 1]]])):
        assert all(len(partition_masks(tree, b)) == 2**b for tree in trees)
    assert all(values["small_trees"].values()) and len(values["small_trees"]) == 3
    assert result.counterexample["masks"] == found["masks"] and result.counterexample["b"] == 4


@needs_shap
def test_owen_is_not_shapley_counterexample_by_brute_force(result):
    """Catches s9 reporting a gap that is not there (or the wrong minimal b): on the found prefix shap's recorded
    values are the Owen values and differ from the Shapley values, both by their definitions; at b = 2 no document
    can differ (the root's split is the two-player Shapley value)."""
    found = step(result, "s9-owen-is-not-shapley").values["found"]
    tokens = found["document"].split()
    shap_values, v, b = np.array(found["shap_values"]), game(proba, tokens), len(tokens)
    owen = by_orderings(v, b, groups_of(found["tree"], b))
    assert np.max(np.abs(shap_values - owen)) <= found["tolerance"]
    assert np.max(np.abs(shap_values - by_orderings(v, b))) > 100 * found["tolerance"]
    assert found["b"] == 3 and found["satisfies_hypotheses"]


def test_committed_robustness_read_from_the_files(result):
    """Catches s3 reading the wrong column, file set or bound: from the committed CSVs, every SHAP row of at most
    26 tokens with re-runs has robustness 1, and the shortest row below 1 has 27 tokens."""
    short, below = [], []
    for path in sorted(p for p in results_dir().glob("*.csv") if p.with_suffix(".run.json").is_file()):
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                if row["explainer"] != "shap" or row["robustness"] in ("", "nan"):
                    continue
                n, r = int(row["n_tokens"]), float(row["robustness"])
                if n <= 26:
                    short.append(r)
                if r < 1:
                    below.append(n)
    values = step(result, "s3-committed-robustness").values
    assert short and all(r == 1.0 for r in short) and values["small_rows_below_1"] == []
    assert min(below) == values["fewest_tokens_below_1"] == 27 and len(below) == values["rows_below_1"]


def tree_evaluations(text: str) -> int:
    """Full-tree evaluations of the evaluation's masker tree of ``text``: 2 + 2 sum 2^depth over its internal
    nodes, depths by this file's own walk down the linkage."""
    import shap

    masker = shap.maskers.Text(r"\s+", mask_token="UNK ", collapse_mask_token=False)
    b = len(text.split())
    tree, depth_of = masker.clustering(text)[:, :2].astype(int), {2 * b - 2: 0}
    for node in range(2 * b - 2, b - 1, -1):  # parents come after their children
        for child in tree[node - b]:
            depth_of[child] = depth_of[node] + 1
    return 2 + sum(2 * 2 ** depth_of[node] for node in range(b, 2 * b - 1))


@needs_shap
def test_small_ends_at_26_tokens():
    """Catches s5's boundary off by one: the masker's tree of a connector-free document needs, by this file's own
    count of the recursion's masks, at most 500 evaluations at b = 26 and more at b = 27 (where the committed
    robustness first drops)."""
    assert tree_evaluations(" ".join(f"w{i}" for i in range(26))) <= 500
    assert tree_evaluations(" ".join(f"w{i}" for i in range(27))) > 500


@needs_shap
def test_standalone_punctuation_passes_the_budget_attached_does_not(result):
    """Catches s5 and the corrected statement missing (or mistyping) the punctuation case: by this file's own count
    on the masker's tree, 26 tokens ending in a stand-alone '.' need more than 500 evaluations, the number the
    claim recorded and prints, while the same words with ',' attached to one need no more than without it."""
    values = step(result, "s5-small-documents").values
    punct, attached = values["punctuated"], values["attached"]
    words = [f"w{i}" for i in range(26)]
    assert punct["document"] == " ".join(words[:-1] + ["."]) and punct["b"] == 26
    assert tree_evaluations(punct["document"]) == punct["full_tree_evaluations"] > 500
    assert attached["b"] == 26 and "," in attached["document"] and " , " not in attached["document"]
    assert tree_evaluations(attached["document"]) == attached["full_tree_evaluations"] == tree_evaluations(
        " ".join(words)) <= 500
    assert f"'w0 ... w24 .' (b = 26) needs {punct['full_tree_evaluations']}" in result.corrected
    assert step(result, "s5-small-documents").status == "holds"


@needs_shap
def test_default_masker_also_misses_subsets(result):
    """Catches the 'fails' verdict resting on the project's masker: with shap's default Text() masker the
    counterexample document reaches the model in fewer than 2^b texts, counted here with a model written here, and
    the recursion over that masker's own tree (this file's walk) gives the same number of masks."""
    import shap

    seen = []

    def model(texts):
        seen.extend(str(t) for t in texts)
        return np.zeros((len(texts), 2))

    default = step(result, "s7-not-every-subset").values["default_masker"]
    masker = shap.maskers.Text()
    saved = np.random.get_state()
    try:
        shap.Explainer(model, masker)([default["document"]], silent=True)
    finally:
        np.random.set_state(saved)
    b = len(masker.clustering(default["document"])) + 1
    tree = masker.clustering(default["document"])[:, :2].astype(int)
    assert default["document"] == result.counterexample["document"] and b == default["b"] == 4
    assert len(seen) == default["model_inputs"] == len(partition_masks(tree, b)) < 2**b


def even_split_evaluations(b: int) -> int:
    """Evaluations of the tree that splits every node as evenly as possible: the sum over internal nodes of
    2^depth, counted by walking the tree (this file's own count)."""
    total, frontier = 0, [(b, 0)]
    while frontier:
        size, depth = frontier.pop()
        if size > 1:
            total += 2**depth
            frontier += [(size // 2, depth + 1), (size - size // 2, depth + 1)]
    return 2 + 2 * total


@needs_shap
def test_no_tree_of_more_than_26_tokens_fits_the_budget(result):
    """Catches s5's "no document longer than 26 tokens is small" resting on a wrong minimum: the fewest evaluations
    any tree needs (the claim's recursion over root splits) equal the even-split tree's, by this file's count; the
    masker's connector-free tree attains them; the minimum passes 500 at b = 27; a 21-token text with connectors
    is past the budget."""
    values = step(result, "s5-small-documents").values
    fewest = {int(b): n for b, n in values["fewest_any_tree"].items()}
    assert fewest == {b: even_split_evaluations(b) for b in fewest}
    assert even_split_evaluations(26) <= 500 < even_split_evaluations(27)
    assert values["largest_small_any_tree"] == values["largest_small_b"] == 26
    assert values["connected"]["b"] < 26 and values["connected"]["full_tree_evaluations"] > 500


@needs_shap
def test_past_the_budget_reruns_differ_only_at_ties(result):
    """Catches s11 claiming determinism it did not see (or ties that are not ties): at b = 27 past the budget, two
    re-runs under different global seeds made 500 evaluations and are bitwise identical, here, with a model
    written here; and every top-k the claim saw differ on the repeated-word document is cut inside one word."""
    import shap

    weights = {f"w{i}": 0.5 * np.sin(1.0 + i) for i in range(40)}
    masker = shap.maskers.Text(r"\s+", mask_token="UNK ", collapse_mask_token=False)
    calls = []

    def model(texts):
        calls.extend(texts)
        s = np.array([sum(weights.get(w, 0.0) for w in str(t).split()) for t in texts])
        return np.column_stack([-s, s])

    explainer, text, seen = shap.Explainer(model, masker), " ".join(f"w{i}" for i in range(27)), []
    saved = np.random.get_state()
    try:
        for seed in (11, 12):
            np.random.seed(seed)
            calls.clear()
            seen.append(explainer([text], silent=True).values[0][:, 1])
            assert len(calls) == 500
    finally:
        np.random.set_state(saved)
    assert np.array_equal(*seen)
    cases = step(result, "s11-past-budget").values["cases"]
    assert step(result, "s11-past-budget").status == "holds"
    (tied,) = [c for c in cases if not c["distinct_words"]]
    words = tied["document"].split()
    order = sorted(weights[w] for w in words)[::-1]
    assert tied["explanations_differing"] and all(
        order[f["k"] - 1] == order[f["k"]] for f in tied["explanations_differing"])


def test_verdicts_follow_the_steps(result):
    """Catches a verdict not computed from the steps: the headline ('all-subsets') fails on its minimal
    counterexample, the Shapley reading fails, the precise statement holds (argued: s6 is the package's source
    read), and every step ran (shap installed) or is inconclusive (absent); the corrected text carries the
    computed bound."""
    statuses = {r.id: result.reading_status(r.id) for r in result.readings}
    if find_spec("shap") is None:
        assert set(statuses.values()) == {"inconclusive"}
        return
    assert result.headline.id == "all-subsets"
    # the Shapley reading is not stronger: on additive models it holds without every subset (s8)
    assert {r.id: r.role for r in result.readings} == {"all-subsets": "headline", "shapley": "alternative"}
    assert statuses == {"all-subsets": "fails", "shapley": "fails"}
    assert result.status == "fails" and result.corrected_status == "argued" and result.kind == "baseline"
    assert step(result, "s2-reruns-agree").values["untied_flips"] == []
    largest = step(result, "s5-small-documents").values["largest_small_b"]
    assert f"at most {largest} whitespace tokens" in result.corrected
    assert "for a deterministic model" in result.corrected and "stand-alone punctuation" in result.corrected
    assert f"{result.counterexample['distinct_masks']} of {result.counterexample['subsets']}" in result.conditions


def test_absent_shap_makes_the_package_steps_inconclusive(monkeypatch):
    """Catches a claim that breaks, or claims a verdict, without shap: with the package reported absent every step
    that needs it is inconclusive, says installed=False and names the install command, and the exact proof step
    (every neighbour-joining tree up to 6 positions) still runs and holds."""
    real = baseline_setting.find_spec
    monkeypatch.setattr(baseline_setting, "find_spec", lambda name: None if name == "shap" else real(name))
    absent = baseline_shap.check()
    assert absent.status == absent.corrected_status == "inconclusive"
    *needing, exact = absent.steps
    assert needing and all(s.status == "inconclusive" and s.values == {"package": "shap", "installed": False,
                                                                       "conclusive": False}
                           and EVAL_EXTRA in s.note for s in needing)
    assert exact.id.endswith("s10-additive-owen-shapley") and exact.status == "holds"
    # the binary bracketings of b positions in order: the Catalan number C(b - 1)
    assert exact.values["trees"] == sum(math.comb(2 * (b - 1), b - 1) // b for b in range(2, 7))
