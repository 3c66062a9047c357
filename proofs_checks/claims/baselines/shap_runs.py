"""shap's partition explainer as the evaluation calls it, and the facts of its trees the ``baseline-shap`` claim
checks it against: re-runs under several states of numpy's global generator (the only randomness shap reads: the
tie-breaks of its queue) and past the budget, the model's inputs under shap's default masker, float tolerances,
the masks its recursion evaluates, the fewest evaluations any binary tree needs, every tree of the Text masker's
kind (neighbour-joining), Owen = Shapley on additive games over such trees (exact, by linearity over a basis of
games), and SHAP's robustness in the committed evaluation runs.

shap is imported inside :class:`ShapRun` (an optional heavy dependency: a plain install lacks it); the tree
functions need no package.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np

from analytic.shapley import (
    PARTITION_MAX_EVALS,
    additive_shapley,
    owen_values,
    shapley_values,
)
from fred.evaluation.config import results_dir
from fred.evaluation.explainers import CLASS_NAMES, POSITIVE, top_k

from ...paper.baselines import two_columns

#: Re-runs of each document, each under its own state of numpy's global generator (shap's queue tie-breaks).
RERUNS = 5


class ShapRun:
    """shap called as the evaluation calls it, on ``two_columns(f)``, recording every text the model receives."""

    def __init__(self, f: Callable[[list[str]], np.ndarray]) -> None:
        import shap

        self.seen: list[str] = []
        self.masker = shap.maskers.Text(r"\s+", mask_token="UNK ", collapse_mask_token=False)
        self.explainer = shap.Explainer(self._model(f), self.masker, output_names=list(CLASS_NAMES))

    def _model(self, f):
        def recorded(texts):
            texts = [str(t) for t in texts]
            self.seen.extend(texts)
            return two_columns(f)(texts)
        return recorded

    def run(self, text: str, state: int, max_evals=None) -> tuple[np.ndarray, list[int]]:
        """Values of the positive class and the masks (codes: bits = masked positions) sent to the model, under the
        global generator's state ``state`` (restored after: shap reads the global generator, nothing else may)."""
        saved = np.random.get_state()
        np.random.seed(state)
        self.seen.clear()
        try:
            kwargs = {} if max_evals is None else {"max_evals": max_evals}
            values = self.explainer([text], silent=True, **kwargs).values[0][:, POSITIVE]
        finally:
            np.random.set_state(saved)
        codes = [sum(1 << i for i, t in enumerate(s.split()) if t == "UNK") for s in self.seen]
        return np.asarray(values, dtype=float), codes


def default_masker_inputs(f: Callable[[list[str]], np.ndarray], text: str) -> dict:
    """The texts the model receives when shap explains ``text`` as the evaluation calls it but with shap's default
    masker, ``shap.maskers.Text()`` (tokenizer r'\\W+', mask '...', collapse_mask_token 'auto': True for that
    tokenizer): their number bounds the subsets evaluated, whichever masks they are."""
    import shap

    seen: list[str] = []

    def recorded(texts):
        texts = [str(t) for t in texts]
        seen.extend(texts)
        return two_columns(f)(texts)

    masker, saved = shap.maskers.Text(), np.random.get_state()
    try:  # shap draws its tie-breaks from the global generator: leave it as found
        shap.Explainer(recorded, masker, output_names=list(CLASS_NAMES))([text], silent=True)
    finally:
        np.random.set_state(saved)
    return {"document": text, "masker": "shap.maskers.Text()", "b": len(masker.clustering(text)) + 1,
            "model_inputs": len(seen), "distinct_inputs": len(set(seen))}


def float_tolerance(evaluations: int, table) -> float:
    """Float accuracy of one computed value against its exact value on the float table: a leaf's value is a sum of
    at most ``evaluations`` terms w (v(A) - v(B)), weights powers of 1/2 summing to at most 1, each difference
    rounded once and the sum at most ``evaluations`` times: within (evaluations + 1) u 2 max|v|, u = eps / 2. Two
    computed values are within twice this of each other."""
    return (evaluations + 1) * float(np.finfo(float).eps) * float(np.max(np.abs(table)))


def gap_to(values, exact) -> float:
    """Largest |value - exact| (exact in Fractions), as a float."""
    return float(max(abs(Fraction(float(v)) - e) for v, e in zip(values, exact)))


def rerun_case(runner, text: str, exact_values, tol: float) -> dict:
    """shap's re-runs of ``text`` against its exact values (floats): spread, and the explanations (top k) that
    differ between re-runs, each marked whether the exact values tie at the k-th place exactly or within float
    error (2 ``tol``)."""
    runs = [runner.run(text, state) for state in range(RERUNS)]
    boundary = sorted(exact_values, reverse=True)
    flips = [{"k": k, "exact_tie": boundary[k - 1] - boundary[k] <= 2 * tol} for k in range(1, len(boundary))
             if len({top_k(values, k) for values, _ in runs}) > 1]
    return {"document": text, "b": len(exact_values), "runs": runs, "shap_values": runs[0][0], "tolerance": tol,
            "evaluations": [len(codes) for _, codes in runs], "distinct_masks": len(set(runs[0][1])),
            "rerun_spread": float(max(np.max(np.abs(v - runs[0][0])) for v, _ in runs)),
            "reruns_bitwise_identical": all(np.array_equal(v, runs[0][0]) for v, _ in runs),
            "explanations_differing": flips}


def past_budget(versions: dict, texts: list[str], weights: dict, label: str) -> dict:
    """Re-runs past the budget under the additive score ``weights`` (word -> weight; exact values: the weights) of
    ``texts``: those of distinct words (no ties of priority) must be bitwise identical, and the one with repeated
    words (exact ties) must differ, only at exact ties."""
    runner = ShapRun(lambda texts: np.array([sum(weights.get(w, 0.0) for w in t.split()) for t in texts]))
    cases = []
    for text in texts:
        exact = [weights[w] for w in text.split()]
        full = len(runner.run(text, 0, max_evals=10**9)[1])
        case = rerun_case(runner, text, exact, float_tolerance(full, [float(np.sum(np.abs(exact)))]))
        del case["runs"]
        cases.append(dict(case, full_tree_evaluations=full, past_budget=full > PARTITION_MAX_EVALS,
                          distinct_words=len(set(text.split())) == len(exact)))
    distinct = [c for c in cases if c["distinct_words"]]
    (tied,) = [c for c in cases if not c["distinct_words"]]
    return {"versions": versions, "model": label, "cases": cases,
            "holds": (all(c["past_budget"] and c["reruns_bitwise_identical"] for c in distinct)
                      and tied["past_budget"] and bool(tied["explanations_differing"])
                      and all(f["exact_tie"] for f in tied["explanations_differing"]))}


@cache
def _fewest_nodes_weight(b: int) -> int:
    """min over binary trees of b leaves of sum 2^depth over internal nodes (root depth 0): a tree is a root over
    two subtrees, each one level deeper (their sums double)."""
    return 0 if b == 1 else 1 + 2 * min(_fewest_nodes_weight(a) + _fewest_nodes_weight(b - a) for a in range(1, b))


def fewest_evaluations(b: int) -> int:
    """The fewest full-tree evaluations, 2 + 2 sum over the internal nodes of 2^depth, of any binary tree over b
    tokens."""
    return 2 + 2 * _fewest_nodes_weight(b)


def largest_small_any_tree(up_to: int) -> int:
    """The largest b <= ``up_to`` whose cheapest tree fits the default budget: no document longer is small, whatever
    its tree (the fewest evaluations grow with b)."""
    return max(b for b in range(2, up_to + 1) if fewest_evaluations(b) <= PARTITION_MAX_EVALS)


def recursion_masks(tree, b: int) -> set[int]:
    """Codes (bits = masked positions) of the sets the partition recursion evaluates over the whole tree: none and
    all kept, and at each internal node in each of its contexts its two children added to the context."""
    groups = [1 << i for i in range(b)]
    for left, right in tree:
        groups.append(groups[left] | groups[right])
    full, kept, stack = 2**b - 1, {0, 2**b - 1}, [(2 * b - 2, 0)]
    while stack:
        node, context = stack.pop()
        if node >= b:
            left, right = tree[node - b]
            kept |= {context | groups[left], context | groups[right]}
            stack += [(left, context), (right, context), (left, context | groups[right]),
                      (right, context | groups[left])]
    return {full ^ k for k in kept}


def adjacent_trees(b: int) -> list[list[tuple[int, int]]]:
    """Every binary tree over positions 0..b-1 whose nodes join neighbouring groups (the Text masker's kind of
    tree), once each, as linkage rows (row r makes node b + r)."""
    found: dict[frozenset, list] = {}

    def merge(groups: list, rows: list) -> None:
        if len(groups) == 1:
            found.setdefault(frozenset(members for _, members in rows), [pair for pair, _ in rows])
            return
        for j in range(len(groups) - 1):
            (left, a), (right, c) = groups[j], groups[j + 1]
            node = (b + len(rows), a | c)
            merge(groups[:j] + [node] + groups[j + 2:], rows + [((left, right), a | c)])

    merge([(i, frozenset([i])) for i in range(b)], [])
    return list(found.values())


def additive_basis(masker_trees: dict, adjacent_b: int) -> dict:
    """Owen = Shapley = the closed form on every additive game on these trees, by linearity: in Fractions, each
    basis game e_i (v = 1 iff i kept) gives the unit vector and the constant game gives 0. The trees: every
    neighbour-joining tree of b = 2..``adjacent_b`` positions (no package needed) and ``masker_trees`` (label -> tree)."""
    trees = [(f"adjacent tree {t} of b = {b}", b, tree) for b in range(2, adjacent_b + 1)
             for t, tree in enumerate(adjacent_trees(b))]
    trees += [(label, len(tree) + 1, tree) for label, tree in masker_trees.items()]
    wrong = []
    for label, b, tree in trees:
        codes = np.arange(2**b)
        games = [[Fraction(int(c >> i & 1 == 0)) for c in codes] for i in range(b)] + [[Fraction(1)] * 2**b]
        for i, game in enumerate(games):
            unit = additive_shapley([Fraction(int(j == i)) for j in range(b)])  # all 0 for the constant game
            if not owen_values(game, tree).values == shapley_values(game).values == unit:
                wrong.append({"tree": label, "game": "constant" if i == b else f"e_{i}"})
    return {"adjacent_trees_b": f"2..{adjacent_b}", "trees": len(trees), "masker_trees": sorted(masker_trees),
            "games_per_tree": "b basis games e_i and the constant game", "arithmetic": "Fractions",
            "violations": wrong}


def committed_runs() -> list:
    """The committed evaluation runs: each per-document CSV with its run record (``<stem>.run.json``) beside it;
    other CSVs in results/ are not runs."""
    return sorted(path for path in results_dir().glob("*.csv") if path.with_suffix(".run.json").is_file())


def committed_robustness(largest_small: int) -> dict:
    """SHAP's robustness on every committed row: rows of at most ``largest_small`` tokens, the others, the rows
    with no re-run (NaN: a run with k_robust = 0)."""
    per_file, small_below, below, no_rerun = {}, [], [], 0
    for path in committed_runs():
        with path.open(newline="") as handle:
            rows = [r for r in csv.DictReader(handle) if r.get("explainer") == "shap"]
        if not rows:
            continue
        scored = [(int(r["n_tokens"]), float(r["robustness"]), int(r["doc"])) for r in rows]
        no_rerun += sum(np.isnan(r) for _, r, _ in scored)
        scored = [s for s in scored if not np.isnan(s[1])]
        per_file[path.name] = {"rows": len(rows), "with_reruns": len(scored),
                               "robustness_below_1": sum(r < 1 for _, r, _ in scored)}
        for n, r, doc in scored:
            if r < 1:
                below.append({"file": path.name, "doc": doc, "n_tokens": n, "robustness": r})
                if n <= largest_small:
                    small_below.append(below[-1])
    return {"files": per_file, "rows_without_reruns": int(no_rerun), "largest_small_b": largest_small,
            "small_rows_below_1": small_below, "rows_below_1": len(below),
            "fewest_tokens_below_1": min((r["n_tokens"] for r in below), default=None)}
