"""Shared evaluation of Proposition 1's conclusions (i) and (ii) on a case of the finite family.

(i) words with negative lambda_j v_j are not in the selected candidate;
(ii) for every size l the largest drop is attained by l positions of largest lambda_j v_j
(so FRED includes words by decreasing lambda_j v_j until the threshold is met).
Both are judged by exact enumeration (``analytic``), and FRED's own choice with the
exact sampler is checked against them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analytic import LinearTfidfModel, best_drop_of_size, table_from_classifier
from fred import Fred

from .family import Case

PS = (0.1, 0.5, 0.9)
EPSS = (0.05, 0.15, 0.5, 1.0)
VALUE_TOL = 1e-9  # position weights equal up to this are ties


def position_weights(case: Case) -> tuple[np.ndarray, int | None]:
    """lambda^T phi(token_i) per position, signed for the explained class, and the explained label."""
    coef = np.ravel(case.model.coef_)
    linear = LinearTfidfModel(dict(case.vectorizer.vocabulary_), case.vectorizer.idf_, coef,
                              float(np.ravel(case.model.intercept_)[0]), case.vectorizer.build_analyzer())
    a = linear.position_weights(list(case.tokens))
    if case.kind.startswith("ridge"):
        return a, None
    label = int(np.argmax(case.classifier_fn()([case.text])[0]))
    return (a if label == 1 else -a), label


def is_top_set(a: np.ndarray, positions) -> bool:
    """Whether the positions carry the |positions| largest weights (ties allowed)."""
    chosen = np.sort(a[list(positions)])[::-1]
    top = np.sort(a)[::-1][: len(chosen)]
    return bool(np.all(np.abs(chosen - top) <= VALUE_TOL))


@dataclass(frozen=True)
class CaseVerdict:
    """Outcome of one (case, p): where (ii) fails by size, and (i)/(ii) on FRED's picks over the eps grid."""

    case: Case
    p: float
    top_set_not_best: tuple[dict, ...]
    fred_violations: tuple[dict, ...]

    @property
    def ok(self) -> bool:
        return not self.top_set_not_best and not self.fred_violations


def evaluate(case: Case, p: float, epss=EPSS) -> CaseVerdict:
    """Check (ii) for every size by brute force, then FRED's exact choice for each eps against (i) and (ii)."""
    a, label = position_weights(case)
    clf = case.classifier_fn()
    table = table_from_classifier(clf, list(case.tokens), label=label)
    order = sorted(range(len(a)), key=lambda i: (-a[i], i))
    not_best = []
    for size in range(1, len(a) + 1):
        top, winners = best_drop_of_size(table, p, size)
        greedy = tuple(sorted(order[:size]))
        if not any(is_top_set(a, w) for w in winners):
            not_best.append({"size": size, "top_weight_set": list(greedy), "best_sets": [list(w) for w in winners],
                             "best_drop": top})
    violations = []
    for eps in epss:
        exp = Fred(clf, sampler="exact").explain(case.text, label=label, p=p, eps=eps, max_len=10)
        bad_i = exp.found and any(a[i] < -VALUE_TOL for i in exp.best_ids)
        bad_ii = exp.found and not is_top_set(a, exp.best_ids)
        if bad_i or bad_ii:
            violations.append({"eps": eps, "best_ids": list(exp.best_ids), "best": list(exp.best),
                               "weights": [round(float(x), 6) for x in a], "violates": "(i)" if bad_i else "(ii)"})
    return CaseVerdict(case, p, tuple(not_best), tuple(violations))


def run(cases, ps=PS) -> list[CaseVerdict]:
    """Evaluate every case at every p."""
    return [evaluate(c, p) for c in cases for p in ps]


def summarise(verdicts: list[CaseVerdict]) -> tuple[int, list[CaseVerdict]]:
    """Number of (case, p) checked and the failing ones, shortest document first."""
    bad = sorted((v for v in verdicts if not v.ok), key=lambda v: (len(v.case.tokens), v.case.text, v.p))
    return len(verdicts), bad
