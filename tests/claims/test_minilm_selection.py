"""minilm-selection: selection consistency on the MiniLM transformer classifier.

The exact choice and margins are recomputed here by brute force over every candidate, independently of
analytic.selection. Skipped without the ``neural`` extra or the Restaurants file.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fred import Fred
from fred_constants import EPS, MAX_LEN, P
from proofs_checks.claims.transformer import minilm_selection


@pytest.fixture(scope="module")
def result(minilm, reference_runs):
    """The claim's run against the reference, shared with the report's test (tests/conftest.py)."""
    return reference_runs.result(minilm_selection.CLAIM)


def _brute_force(table: np.ndarray, b: int) -> tuple[tuple[int, ...], float]:
    """Eq. (2) by brute force: the smallest size with a drop >= eps E[f], its largest drop; and the distance of the
    nearest competing drop (threshold or rival) to the decision, the margin."""
    codes = np.arange(2**b)
    k = np.array([bin(c).count("1") for c in codes])
    w = P**k * (1 - P) ** (b - k)
    mean = float(w @ table)
    threshold = EPS * mean

    def drop(cand):
        sel = np.all([(codes >> i) & 1 for i in cand], axis=0)
        return mean - float(w[sel] @ table[sel] / w[sel].sum())

    for size in range(1, min(MAX_LEN, b) + 1):
        drops = {c: drop(c) for c in itertools.combinations(range(b), size)}
        above = {c: d for c, d in drops.items() if d >= threshold}
        if above:
            best = max(above, key=above.get)
            smaller = [abs(drop(c) - threshold) for s in range(1, size) for c in itertools.combinations(range(b), s)]
            rivals = [drops[best] - d for c, d in drops.items() if c != best]
            return best, min(smaller + rivals + [drops[best] - threshold])
    raise AssertionError("no candidate reaches the threshold on these documents")


@pytest.mark.neural
def test_exact_choice_and_positive_margins_by_brute_force(minilm, result):
    """Catches analytic.selection (or FRED's exact mode) choosing another candidate than Eq. (2) on the transformer,
    or a margin reported positive where two drops tie."""
    docs = {d["document"]: d for d in next(s for s in result.steps if s.id.endswith("s1-positive-margins"))
            .values["documents"]}
    for case in minilm.cases:
        best, margin = _brute_force(case.table, len(case.tokens))
        assert tuple(docs[case.text]["selection"]) == best and docs[case.text]["found"]
        exact = Fred(minilm.model.predict_proba, sampler="exact").explain(case.text, label=1, p=P, eps=EPS,
                                                                           max_len=MAX_LEN)
        assert tuple(exact.best_ids) == best
        assert margin > 0 and docs[case.text]["margin"] > 0


@pytest.mark.neural
def test_report_pins(result):
    """A regression pin: positive margins, the agreement confirmed above the bound at some point where 200 runs
    can confirm it and rejected nowhere (a step of non-rejections only would be inconclusive), no run inside the
    bound's event disagreeing, and agreement at 4 n_L2 at least 0.9 on every document; labelled as an instance of
    this project's corollary (ours), not a claim of the paper."""
    steps = {s.id.split(".")[1]: s for s in result.steps}
    assert result.status == "argued" and [s.status for s in steps.values()] == ["holds", "holds", "holds", "argued"]
    assert result.ours and "never runs MiniLM" in result.statement and "lemma1-selection" in result.statement
    values = steps["s2-agreement-above-bound"].values
    points = values["points"]
    assert values["status_counts"]["rejected"] == 0
    assert values["status_counts"]["confirmed"] >= 1 and "conclusive" not in values
    largest_n = {}
    for point in points:
        largest_n[point["document"]] = point if point["n"] > largest_n.get(point["document"], {"n": 0})["n"] else \
            largest_n[point["document"]]
    assert all(point["agreement"] >= 0.9 for point in largest_n.values()), largest_n
    assert steps["s3-event-implies-agreement"].values["event_runs_disagreeing"] == 0


def test_not_run_without_the_model(monkeypatch):
    """Catches a claim that reports 'extends' (or crashes) where the model cannot be built."""
    monkeypatch.setattr(minilm_selection, "minilm_setting", lambda: (None, "no torch here"))
    result = minilm_selection.check()
    assert result.status == "unproved" and all(s.status == "argued" for s in result.steps)
