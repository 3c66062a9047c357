"""The documents and measurements of the selection-consistency claims (``lemma1-selection``, ``minilm-selection``).

A :class:`SelectionCase` is a document with the explained class's f on its 2^b mask patterns. :func:`measure` runs
the subject's Fred(mask, n) against its Fred(exact) on it, and :func:`bound_test` asks whether the measured
agreement reaches :func:`analytic.selection.agreement_bound` at each (document, n), with a test that says when it
cannot decide. The documents: the family's ``logistic-raw`` models and decision trees fitted on its corpora
(:func:`family_cases`), those whose exact problem has positive margins (:func:`margin_cases`), a fitted tree
whose best candidate ties across sizes (:func:`tree_tie_case`), and two documents inside the hypotheses of the
paper's Props. 1 and 2 whose exact problems have zero margins (:func:`proposition_cases`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from analytic import (
    all_drops_rational,
    expected_prediction,
    linear_table_rational,
    table_classifier,
    table_from_classifier,
)
from analytic.exact_cache import exact_cache
from analytic.patterns import table_b
from analytic.referee import superset_sums
from analytic.selection import agreement_bound, exact_selection, selection_margins
from fred import sample_size
from fred_constants import ALPHA, EPS, EPS_EXACT, MASK_TOKEN, MAX_LEN, P_EXACT, P

from ..models.family import cases, training_corpus
from ..models.tabled_scores import TabledClassifier
from ..statistics.intervals import clopper_pearson
from ..subject.explainer import explainer
from ..verdicts.results import hypotheses

#: The paper's default n: Lemma 2 with alpha = 0.95 and l_max = 10 (lines 372-374, "n approx 3000").
PAPER_N = sample_size(ALPHA, P, MAX_LEN)
#: The synthetic tables' grid: f = c/40 + sum of a_i/40 over the kept positions, in [0, 1] for a_i <= 10, c <= 20
#: and b <= 2 (a class's confidence score, line 233 of the paper).
GRID_DENOMINATOR = 40
#: Documents with a positive margin measured per model (the first ones in the family's order).
CASES_PER_MODEL = 3
TREE_MIN_SAMPLES_LEAF = 5


@dataclass(frozen=True, eq=False)
class SelectionCase:
    """A document and the explained class's f over its 2^b mask patterns (codes as in analytic.referee)."""

    name: str
    tokens: tuple[str, ...]
    table: np.ndarray

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    @property
    def n_paper(self) -> int:
        """This implementation's default n (``fred.Fred``): Lemma 2's n for alpha = 0.95 and l_max = min(max_len,
        b), the candidates this document has. The paper's stated default takes l_max = 10 whatever b, i.e.
        :data:`PAPER_N` = 3067 rows."""
        return sample_size(ALPHA, P, min(MAX_LEN, len(self.tokens)))

    @property
    def ns(self) -> tuple[int, int, int]:
        """n_paper / 4, n_paper and 4 n_paper."""
        return max(1, round(self.n_paper / 4)), self.n_paper, 4 * self.n_paper

    def black_box(self):
        """Texts -> [1 - f, f], f looked up by mask pattern: the model's own values, without refitting or
        re-predicting (FRED explains column 1).

        The scores of ``analytic.table_classifier`` (text by text), asked once for the document's masked texts
        (:class:`~proofs_checks.models.tabled_scores.TabledClassifier`): the explainers ask for them thousands of times in
        :func:`measure`."""
        return TabledClassifier.on_document(
            self.tokens, table_classifier(self.tokens, self.table, mask_token=MASK_TOKEN, n_classes=2), MASK_TOKEN)

    def describe(self) -> dict:
        return {"case": self.name, "document": self.text, "b": len(self.tokens)}


@lru_cache(maxsize=None)
def fitted_tree(seed: int):
    """DecisionTreeClassifier(min_samples_leaf=5, random_state=0) fitted on the family's raw TF-IDF features of
    corpus ``seed`` (its ``logistic-raw`` vectorizer), as a classifier on texts."""
    vectorizer = next(c for c in cases("logistic-raw") if c.seed == seed).vectorizer
    docs, labels = training_corpus(seed)
    tree = DecisionTreeClassifier(min_samples_leaf=TREE_MIN_SAMPLES_LEAF, random_state=0)
    tree.fit(vectorizer.transform(docs), labels)
    return lambda texts: tree.predict_proba(vectorizer.transform(texts))


@lru_cache(maxsize=None)
def family_cases() -> tuple[SelectionCase, ...]:
    """Every document of the family with its ``logistic-raw`` model and with a fitted tree (explained class: the
    argmax on the document)."""
    out = []
    for model in ("logistic-raw", "tree"):
        for case in cases("logistic-raw"):
            clf = case.classifier_fn() if model == "logistic-raw" else fitted_tree(case.seed)
            out.append(SelectionCase(f"{model} (corpus seed {case.seed})", case.tokens,
                                     table_from_classifier(clf, list(case.tokens))))
    return tuple(out)


@lru_cache(maxsize=None)
def margin_cases() -> tuple[SelectionCase, ...]:
    """The first CASES_PER_MODEL documents of each model whose exact problem has a positive margin."""
    chosen = []
    for model in ("logistic-raw", "tree"):
        ok = [c for c in family_cases() if c.name.startswith(model) and selection_margins(
            c.table, P, EPS, MAX_LEN).margin > 0]
        chosen.extend(ok[:CASES_PER_MODEL])
    return tuple(chosen)


def tree_tie_case() -> SelectionCase:
    """A fitted tree with an exact tie: the tree of corpus seed 4 on "place awful staff". Nothing reaches the
    threshold, so FRED returns the best candidate over all sizes; 'awful' and 'awful staff' have the same drop (the
    tree ignores 'staff'), and the tie rule prefers the smaller size."""
    return next(c for c in family_cases() if c.name == "tree (corpus seed 4)" and c.text == "place awful staff")


def grid_table(t: tuple[int, ...]) -> list:
    """f = c/40 + sum of a_i/40 over the kept positions, for t = (a_1, ..., a_b, c) (rational, code order)."""
    return linear_table_rational([Fraction(a, GRID_DENOMINATOR) for a in t[:-1]], Fraction(t[-1], GRID_DENOMINATOR))


def synthetic_case(name: str, table) -> SelectionCase:
    """A grid table (rational) as a case on the document "a", "a b", ... (f in floats for FRED)."""
    tokens = ("a", "b", "c", "d")[: table_b(table)]
    return SelectionCase(name, tokens, np.array([float(f) for f in table]))


def tied_with_choice(case: SelectionCase) -> tuple[list, str]:
    """The candidates whose exact drop equals that of the exact choice, among those the search compares with it
    (its size, or every size when nothing is found), in rational arithmetic on the table's floats."""
    table, p, eps = [Fraction(f) for f in case.table], Fraction(str(P)), Fraction(str(EPS))
    _, drops = all_drops_rational(table, p)
    choice, found = exact_selection(table, p, eps, MAX_LEN)
    tied = [list(s) for s in drops if (len(s) == len(choice) or not found) and drops[s] == drops[choice]]
    return sorted(tied, key=lambda s: (len(s), s)), str(drops[choice])


@exact_cache(copy=True)  # no explainer: the same for every subject
def zero_margin_census() -> dict:
    """How many family documents have a zero margin, per model, and why: f constant on the document (every drop
    0; the empirical drops tie exactly too, so FRED still agrees), ties only between positions holding the same
    words (a repeated word: FRED's words still agree), or a real tie or threshold equality; and the fitted tree's
    tie of :func:`tree_tie_case` (exact)."""
    out: dict = {}
    for model in ("logistic-raw", "tree"):
        docs = [c for c in family_cases() if c.name.startswith(model)]
        constant = same_words = other = 0
        for c in docs:
            m = selection_margins(c.table, P, EPS, MAX_LEN)
            if m.margin > 0:
                continue
            words = sorted(c.tokens[i] for i in m.best_ids)
            rivals = [s for s, g in zip(m.candidates, m.gap) if g <= 0]
            on_threshold = any(g <= 0 for g in m.threshold_margin)
            if np.ptp(c.table) == 0:
                constant += 1
            elif not on_threshold and all(sorted(c.tokens[i] for i in s) == words for s in rivals):
                same_words += 1
            else:
                other += 1
        out[model] = {"documents": len(docs), "zero_margin": constant + same_words + other, "constant_f": constant,
                      "only_repeated_word_ties": same_words, "other": other}
    tree = tree_tie_case()
    tied, drop = tied_with_choice(tree)
    out["tree_tie"] = {**tree.describe(), "tied_candidates": tied, "tied_drop": drop}
    return out


def exact_zero_margins(tokens: Sequence[str], table: list, p=P_EXACT, eps=EPS_EXACT) -> dict:
    """The exact problem of a rational table: its size-1 drops, threshold eps E[f], exact choice, the candidates of
    the choice's size with its drop (a tie at the top when more than one), and the candidates of size <= the
    choice's whose drop equals the threshold (rational, no tolerance)."""
    mean, drops = all_drops_rational(table, p)
    choice, found = exact_selection(table, p, eps, MAX_LEN)
    threshold = eps * mean
    tied = [list(s) for s in drops if len(s) == len(choice) and drops[s] == drops[choice]]
    return {"document": " ".join(tokens), "mean_prediction": str(mean), "threshold": str(threshold),
            "size_1_drops": {str(s[0]): str(d) for s, d in drops.items() if len(s) == 1},
            "exact_choice": list(choice), "found": found, "tied_at_top": tied, "tie_at_top": len(tied) > 1,
            "tied_positions_hold_one_word": len({tuple(sorted(tokens[i] for i in s)) for s in tied}) == 1,
            "on_threshold": [list(s) for s, d in drops.items() if len(s) <= len(choice) and d == threshold]}


def proposition_cases() -> dict:
    """Zero margins inside the hypotheses of the paper's Props. 1 and 2 (p = 1/2, eps = 3/20, rational).

    Prop. 1 (line 493, "Assume lambda_1 idf_1 > ... > lambda_d idf_d"): "a a b", f linear in the TF-IDF counts
    with the mask out of the vocabulary (removal, line 477), lambda idf = 2/9 for 'a' and 2/27 for 'b', lambda_0 =
    13/27 (the score 13/2 + 3 m_a + m_b scaled by 2/27 into [13/27, 1]): each 'a' drops E[f] = 20/27 by 1/9, the
    threshold. Prop. 2 (line 530, "m_1 < m_2 < ... < m_k"): "a a b b b", f = 1{a in x} 1{b in x}: each 'a' drops
    7/32, above the threshold 63/640. Each record has the proposition's hypotheses, computed on the case.
    """
    tokens = ("a", "a", "b")
    word_weight = {"a": Fraction(2, 9), "b": Fraction(2, 27)}
    table = linear_table_rational([word_weight[t] for t in tokens], Fraction(13, 27))
    weights = sorted(word_weight.values(), reverse=True)
    prop1 = {**exact_zero_margins(tokens, table), "word_coefficients": {w: str(v) for w, v in word_weight.items()},
             "intercept": "13/27", **hypotheses(
                 coefficients_strictly_ordered=all(x > y for x, y in zip(weights, weights[1:])),
                 values_in_unit_interval=all(0 <= f <= 1 for f in table))}
    tokens = ("a", "a", "b", "b", "b")
    kept = [[t for i, t in enumerate(tokens) if not code >> i & 1] for code in range(2 ** len(tokens))]
    table = [Fraction(int("a" in k and "b" in k)) for k in kept]
    counts = sorted(tokens.count(w) for w in set(tokens))
    prop2 = {**exact_zero_margins(tokens, table), "model": "f = 1{a in x} 1{b in x}", "multiplicities":
             {w: tokens.count(w) for w in sorted(set(tokens))}, **hypotheses(
                 multiplicities_strictly_ordered=all(x < y for x, y in zip(counts, counts[1:])),
                 values_in_unit_interval=all(0 <= f <= 1 for f in table))}
    return {"prop1_line_493": prop1, "prop2_line_530": prop2}


# --------------------------------------------------------------------------- measuring Fred(mask) against Fred(exact)


@dataclass(frozen=True)
class Measurement:
    """``agree`` of ``reps`` runs of Fred(mask, n) returned Fred(exact)'s (positions, found); ``events`` runs had
    every estimate inside the bound's allocation at n, ``broken`` of them disagreed (the proof says none);
    ``choices`` counts every (positions, found) returned."""

    case: str
    n: int
    reps: int
    agree: int
    events: int
    broken: int
    bound: float | None
    exact_choice: tuple[tuple[int, ...], bool]
    referee_choice: tuple[tuple[int, ...], bool]
    choices: dict

    @property
    def rate(self) -> float:
        return self.agree / self.reps


def _errors(table: np.ndarray, mean: float, perturbed: np.ndarray, margins) -> tuple[float, np.ndarray]:
    """|hat m - m| and |hat m_c - m_c| of one design for the candidates of ``margins`` (NaN when n_c = 0); ``mean``
    is the exact m = E[f] of ``table``."""
    b = perturbed.shape[1]
    codes = perturbed @ (1 << np.arange(b))
    counts = superset_sums(np.bincount(codes, minlength=2**b).astype(float))
    sums = superset_sums(np.bincount(codes, weights=table[codes], minlength=2**b))
    with np.errstate(invalid="ignore", divide="ignore"):
        hat = np.where(counts[margins.codes] > 0, sums[margins.codes] / counts[margins.codes], np.nan)
    return abs(float(table[codes].mean()) - mean), np.abs(hat - margins.conditional_mean)


def measure(case: SelectionCase, n: int, reps: int, seed) -> Measurement:
    """Run the subject's Fred(mask, n) ``reps`` times (one generator seeded by ``seed``) and compare its choice with
    its Fred(exact)'s; when the margin is positive, also check on each run whether the bound's event held (the
    estimates are computed from the rows the run exposes: the event is about the rows, the choice is the
    explainer's own)."""
    black_box = case.black_box()
    exact = explainer(black_box, exact=True).explain(case.text, label=1, p=P, eps=EPS, max_len=MAX_LEN)
    target = (tuple(exact.best_ids), bool(exact.found))
    margins = selection_margins(case.table, P, EPS, MAX_LEN)
    bound = agreement_bound(case.table, n, P, EPS, MAX_LEN) if margins.margin > 0 else None
    mean = expected_prediction(case.table, P)
    sampler = explainer(black_box, random_state=np.random.default_rng(seed))
    agree = events = broken = 0
    choices: dict = {}
    for _ in range(reps):
        e = sampler.explain(case.text, label=1, p=P, eps=EPS, max_len=MAX_LEN, n_samples=n)
        choice = (tuple(e.best_ids), bool(e.found))
        choices[choice] = choices.get(choice, 0) + 1
        ok = choice == target
        agree += ok
        if bound is not None and bound.event_holds(*_errors(case.table, mean, e.sample_perturbed, margins)):
            events += 1
            broken += not ok
    return Measurement(case.name, n, reps, agree, events, broken, None if bound is None else bound.value, target,
                       (margins.best_ids, margins.found), choices)


def bound_test(agreements: Sequence[int], bounds: Sequence[float], reps: int, delta: float) -> tuple[bool, bool, dict]:
    """Does P(agree) >= bound hold at each point (``agreements[k]`` of ``reps`` runs agreed, bound ``bounds[k]``)?

    Clopper-Pearson at ``delta`` / points (so every verdict is right with probability >= 1 - delta): a point is
    *confirmed* when the lower limit reaches the bound and *rejected* when the upper limit is below it. A point
    whose bound is 0 is *vacuous* (nothing to test); one whose bound exceeds the largest lower limit ``reps`` runs
    can give (all agreeing) is *unconfirmable* at this sample size, so only a rejection could speak there; the
    others are confirmed, rejected or *undecided*.

    Returns (holds, conclusive, values): holds when no point is rejected; conclusive when a point is rejected or
    confirmed. A non-rejection alone is evidence of nothing, so a step with no confirmed point is inconclusive; an
    undecided point (a bound just below what the runs can confirm, or an agreement near its bound) is reported,
    neither for nor against.
    """
    per = delta / len(bounds)
    ceiling = float(clopper_pearson(reps, reps, per)[0])
    status = []
    for agree, bound in zip(agreements, bounds):
        low, high = (float(x) for x in clopper_pearson(agree, reps, per))
        status.append("vacuous" if bound <= 0 else "rejected" if high < bound else "confirmed" if low >= bound
                      else "undecided" if bound <= ceiling else "unconfirmable")
    counts = {s: status.count(s) for s in ("confirmed", "rejected", "undecided", "unconfirmable", "vacuous")}
    rejected = counts["rejected"] > 0
    conclusive = rejected or counts["confirmed"] > 0
    return not rejected, conclusive, {"point_status": status, "status_counts": counts,
                                      "largest_confirmable_bound": ceiling}
