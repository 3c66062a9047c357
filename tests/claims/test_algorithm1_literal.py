"""Claim algorithm1-literal (proofs_checks/claims/algorithm1/algorithm1_literal.py, verdict "holds (argued)" on the headline
reading E[f] > 0, the alternative reading (the paper's regression scope with E[f] <= 0) fails, corrected statement
argued): every step pinned, the readings' verdicts, the hypotheses records, the minimal counterexample of the
alternative reading and the examples of each kind of difference recomputed by hand and with fred, the grid
recounted independently, the sampled runs against Eq. (4) recounted with the tests' own transcription, and the
classification recounted on the one-token tables of the family.

The literal transcription itself: tests/analytic/test_algorithm1.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from analytic import table_classifier
from analytic.algorithm1 import algorithm1_literal_batch
from fred import Fred
from proofs_checks.claims.algorithm1 import algorithm1_literal as claim
from tests._helpers import drops_by_enumeration

EXPECTED = {
    "algorithm1-literal.st1-counterexample": ("statement", "counterexample", "fails", "nonpositive-mean"),
    "algorithm1-literal.st2-grid-positive-mean": ("statement", "exhaustive", "holds", "positive-mean"),
    "algorithm1-literal.st3-grid-nonpositive-mean": ("statement", "exhaustive", "fails", "nonpositive-mean"),
    "algorithm1-literal.st4-sampled-eq4": ("statement", "exhaustive", "holds", "positive-mean"),
    "algorithm1-literal.p1-rule": ("proof", "exhaustive", "holds", None),
    "algorithm1-literal.p2-why": ("proof", "argument", "argued", None),
    "algorithm1-literal.c1-positive-mean": ("correction", "exhaustive", "holds", None),
    "algorithm1-literal.c2-differences": ("correction", "exhaustive", "holds", None),
    "algorithm1-literal.c3-minimal-kinds": ("correction", "exhaustive", "holds", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)  # the session's one run of the claim (tests/conftest.py)


def _fred(tokens, table, eps=0.15):
    clf = table_classifier(list(tokens), np.array(table, float))
    return Fred(clf, sampler="exact").explain(" ".join(tokens), p=0.5, eps=eps, max_len=10)


def test_every_step_status_role_and_evidence_is_pinned(result):
    """Catches a step whose computation changed outcome, a step added or dropped, a role, evidence or reading
    changed, and a headline verdict taken from the alternative reading (it was 'fails' before the readings: the
    failure needs E[f] <= 0, outside the paper's 'drop by a significant amount'), or that reading labelled a
    stronger reading of the same words rather than another scope the paper claims (regression)."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "statement", "argued", "argued", "holds (argued)")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("positive-mean", "headline", "argued"), ("nonpositive-mean", "alternative", "fails")]


def test_the_quotes_are_the_papers_words():
    """Catches a quote that is not verbatim at its line (skipped when the paper's source is absent)."""
    from proofs_checks.verdicts.quotes import paper_path, quote_problems

    if paper_path() is None:
        pytest.skip("the paper's LaTeX source is absent (set FRED_PAPER)")
    assert quote_problems(claim.SOURCE) == []
    assert {q.line for q in claim.READINGS[0].why} == {255, 225, 233}
    assert {q.line for q in claim.READINGS[1].why} == {156, 219}


def test_the_statement_is_labelled_as_this_projects_reading_of_its_anchor_lines():
    """The paper never says 'Algorithm 1 returns a solution of Eq. (2)': the statement must say it is this project's
    reading and quote the lines it reads (393 and 396: Eq. 4 identifies the subset; 399, 402: Algorithm 1
    illustrates it, 'An overview'; 520: 'the minimal candidate satisfying the threshold condition is selected').
    Catches the project's formulation presented as the paper's sentence, or an anchor line left unquoted."""
    assert claim.STATEMENT.startswith("This project's reading (not a sentence of the paper)")
    assert {393, 396, 399, 402, 520} <= {q.line for q in claim.SOURCE}
    assert all(f"line {n}" in claim.STATEMENT for n in (393, 396, 399, 402, 520))


def test_hypotheses_records_are_computed_per_reading(result):
    """The counterexample (-4, -3) satisfies the alternative reading's hypotheses (a real output with E[f] <= 0,
    Eq. 2 solvable) and not the headline's (E[f] = -7/2 <= 0); the failing step carries both records, and the claim
    reports no counterexample to its headline, which holds. Catches a counterexample reported against the headline,
    or a record typed instead of computed (a table with E[f] > 0 must give mean_positive=True and, for the
    alternative, mean_nonpositive=False; one with no solution eq2_has_solution=False)."""
    assert result.counterexample is None
    cx = {s.id: s for s in result.steps}["algorithm1-literal.st1-counterexample"].values
    assert (cx["satisfies_hypotheses"], cx["hypotheses"]) == (
        True, {"real_valued": True, "mean_nonpositive": True, "eq2_has_solution": True})
    assert cx["headline_hypotheses"] == {"satisfies_hypotheses": False,
                                         "hypotheses": {"mean_positive": False, "eq2_has_solution": True}}
    step = {s.id: s for s in result.steps}["algorithm1-literal.st1-counterexample"].values
    assert step["satisfies_hypotheses"] is True and step["headline_hypotheses"]["satisfies_hypotheses"] is False
    # (1, 0): E[f] = 1/2 > 0, drop 1/2 >= 3/40; (0, 1): drop -1/2 < 3/40, no solution of Eq. (2)
    assert claim.statement_hypotheses([F(1), F(0)])["satisfies_hypotheses"] is True
    assert claim.statement_hypotheses([F(0), F(1)])["hypotheses"] == {"mean_positive": True,
                                                                       "eq2_has_solution": False}
    assert claim.statement_hypotheses([F(1), F(0)], reading="nonpositive-mean")["hypotheses"]["mean_nonpositive"] \
        is False


def _literal_by_hand(table, eps):
    """Algorithm 1 as printed, written again here on the tests' own drops (p = 1/2): Delta_best = 0, '>=' keeps the
    last of ties, return after the first size whose Delta_best reaches eps E[f]; and Eq. (2)'s minimal size."""
    b = len(table).bit_length() - 1
    mean, drops = drops_by_enumeration(lambda z: F(table[sum(1 << i for i, zi in enumerate(z) if zi)]), b, F(1, 2))
    best, delta = None, F(0)
    for size in range(1, b + 1):
        for c in itertools.combinations(range(b), size):
            if drops[c] >= delta:
                best, delta = c, drops[c]
        if delta >= eps * mean:
            break
    sizes = [len(c) for c in drops if drops[c] >= eps * mean]
    size = min(sizes) if sizes else None
    top = max((drops[c] for c in drops if len(c) == size), default=None)
    return mean, best, size, best is not None and len(best) == size and drops[best] == top


def test_grid_recounted_by_hand_on_two_tokens(result):
    """The grid's b <= 2 tables (values -4..4, eps in 3/20, 1/2, 1) recounted with the tests' own Algorithm 1:
    every solvable table with E[f] > 0 gets a solution of largest drop; the failures with E[f] <= 0 split by the
    sign of f(xi) add up to the step's, minus the b = 3 part, which is recounted on a random sample. Catches a
    batch transcription that departs from the pseudo-code (e.g. Delta_best reset per size, or '>' for '>=')."""
    grid = {s.id: s for s in result.steps}["algorithm1-literal.st2-grid-positive-mean"].values
    counts = {"mean > 0": [0, 0], "f(xi) > 0, E[f] <= 0": [0, 0], "f(xi) <= 0, E[f] <= 0": [0, 0]}
    for b, eps in itertools.product((1, 2), claim.EPSS):
        for table in itertools.product(range(-4, 5), repeat=2**b):
            mean, _, size, good = _literal_by_hand(table, eps)
            if size is None:
                continue
            kind = "mean > 0" if mean > 0 else "f(xi) > 0, E[f] <= 0" if table[0] > 0 else "f(xi) <= 0, E[f] <= 0"
            counts[kind][0] += 1
            counts[kind][1] += not good
    assert counts["mean > 0"][1] == 0 and grid["by_kind"]["mean > 0"]["not_a_solution"] == 0
    assert counts["f(xi) > 0, E[f] <= 0"][1] == 26  # 0, 6 and 20 at eps 3/20, 1/2, 1 (b = 2); none at b = 1
    assert counts["f(xi) <= 0, E[f] <= 0"][1] == 16 + 100 + 296 + 535
    rng = np.random.default_rng(20261127)
    for _ in range(400):  # b = 3 with values -2..2: the batch against the tests' own transcription
        table = tuple(int(v) for v in rng.integers(-2, 3, 8))
        eps = claim.EPSS[int(rng.integers(0, 3))]
        mean, best, size, good = _literal_by_hand(table, eps)
        batch = algorithm1_literal_batch(np.array([table]), eps, 10)
        assert int(batch["best"][0]) == (-1 if best is None else sum(1 << i for i in best)), table
        assert bool(batch["largest_drop"][0]) == (size is not None and good), table
        if mean > 0 and size is not None:
            assert good, table


def test_additive_scores_with_xi_positive_never_fail():
    """Prop. 1's linear model with xi classified positive (f(xi) > 0): f = l0 + sum of a_i over kept words, every
    a_i in -3..3 and l0 in -6..6 on b <= 3 (exact, the tests' own Algorithm 1, eps in 3/20, 1/2, 1). If E[f] <= 0
    some a_i > 0, whose word drops a_i / 2 >= 0 >= eps E[f]: size 1 is Eq. (2)'s and Algorithm 1 returns its best.
    Catches a report that blames the failure on 'a decision function, as in Prop. 1's linear model'."""
    for b in (1, 2, 3):
        for a in itertools.product(range(-3, 4), repeat=b):
            for l0 in range(-6, 7):
                table = [l0 + sum(w for i, w in enumerate(a) if not code >> i & 1) for code in range(2**b)]
                if table[0] <= 0:
                    continue
                for eps in claim.EPSS:
                    _, _, size, good = _literal_by_hand(table, eps)
                    assert size is None or good, (a, l0, eps)


def test_the_counterexample_by_hand_and_its_minimality(result):
    """b = 1, f = (f0, f1) at p = 1/2: E[f] = (f0 + f1)/2 and the drop is (f0 - f1)/2. Algorithm 1 returns nothing
    while {0} solves Eq. (2) iff the drop is negative but >= eps E[f] (then E[f] < 0). With eps = 3/20 that is
    f0 - f1 >= (3/20)(f0 + f1) with f0 < f1: among integer tables with |f| <= 4 only (-4, -3) (and none with
    |f| <= 3). Catches a report whose counterexample is not the smallest or not a counterexample."""
    eps = F(3, 20)
    hits = [(f0, f1) for f0, f1 in itertools.product(range(-4, 5), repeat=2)
            if f0 - f1 < 0 and F(f0 - f1, 2) >= eps * F(f0 + f1, 2)]
    assert hits == [(-4, -3)]
    cx = {s.id: s for s in result.steps}["algorithm1-literal.st1-counterexample"].values["counterexample"]
    assert (cx["table"], cx["literal"], cx["literal_returned_at"], cx["mean"], cx["threshold"]) == (
        ["-4", "-3"], None, 1, "-7/2", "-21/40")
    exp = _fred(["t0"], [-4.0, -3.0])
    assert exp.found and exp.best_ids == (0,) and exp.drop == pytest.approx(-0.5, abs=1e-15)


def test_each_kind_of_difference_by_hand(result):
    """The smallest table of each kind, recomputed: drops by drops_by_enumeration (p = 1/2, eps = 3/20), fred's
    choice by Fred(sampler='exact'), Algorithm 1's by reading the pseudo-code (Delta_best from 0, last tie wins).
    Catches a kind attached to a table that does not show it."""
    examples = result.steps[-1].values["examples"]
    expected = {  # kind: (table, Algorithm 1's choice, fred's choice, fred's found)
        "threshold_nonpositive": ([-1, 0], None, (0,), False),  # E[f] = -1/2; drop -1/2 < 0; 0 >= -3/40 returns
        "none_selected": ([0, 1], None, (0,), False),  # E[f] = 1/2; drop -1/2 < 0 never selected
        "tie": ([0, 1, 1, -1], (1,), (0,), True),  # both words drop 1/4 - 0 = 1/4 >= 3/80
        "infeasible_tie_within_size": ([1, 0, 0, 1], (1,), (0,), False),  # words drop 0, pair -1/2; 0 < 3/40
        "infeasible_tie_across_sizes": ([1, 1, 1, 1], (0, 1), (0,), False),  # every drop 0 < 3/20
    }
    for kind, (table, literal, best, found) in expected.items():
        assert examples[kind]["table"] == [str(v) for v in table], kind
        b = len(table).bit_length() - 1
        mean, drops = drops_by_enumeration(lambda z: F(table[sum(1 << i for i, zi in enumerate(z) if zi)]), b,
                                           F(1, 2))
        if literal is not None:
            assert drops[literal] == drops[best] and drops[literal] >= 0
        assert examples[kind]["literal"] == (None if literal is None else list(literal)), kind
        exp = _fred([f"t{i}" for i in range(b)], table)
        assert (exp.best_ids, exp.found) == (best, found), kind


def test_one_token_tables_recounted_by_hand(result):
    """On the b = 1 tables of the family (every (f0, f1) over {-1, 0, 1/2, 1}, eps in {3/20, 1/2, 1}): Algorithm 1
    selects {0} iff the drop d = (f0 - f1)/2 >= 0 (else nothing), fred always returns {0}, found iff d >= eps E[f];
    a difference is 'threshold_nonpositive' when E[f] <= 0, else 'none_selected'. Catches a misclassified
    difference or a miscounted family."""
    values = [F(-1), F(0), F(1, 2), F(1)]
    counts: dict = {}
    for (f0, f1), eps in itertools.product(itertools.product(values, repeat=2), [F(3, 20), F(1, 2), F(1)]):
        mean, d = (f0 + f1) / 2, (f0 - f1) / 2
        found = d >= eps * mean
        if d >= 0:
            kind = "same" if found else "silent"
        else:
            kind = "threshold_nonpositive" if mean <= 0 else "none_selected"
        counts[kind] = counts.get(kind, 0) + 1
    rows = [claim.compare(tokens, table, eps) for _, tokens, table in claim.family_tables() if len(tokens) == 1
            for eps in claim.EPSS]
    assert claim._counts(rows, "kind") == dict(sorted(counts.items()))


def test_a_tie_between_occurrences_of_one_word_changes_positions_not_words():
    """'a b a' with f = (kept occurrences of a)/2: by hand E[f] = 1/2, each a drops 1/2 - 1/4 = 1/4, b drops 0,
    threshold 3/40. Algorithm 1 returns the last a (position 2), fred the first (position 0): same word. Catches a
    comparison of positions reported as a change of words."""
    tokens = ("a", "b", "a")
    table = [F(sum(1 for i in (0, 2) if not code >> i & 1), 2) for code in range(8)]
    row = claim.compare(tokens, table, F(3, 20))
    assert (row["literal"], row["fred"], row["kind"], row["words_differ"]) == ([2], [0], "tie", False)
    exp = _fred(tokens, [float(v) for v in table])
    assert exp.best == ("a",) and exp.importances.tolist() == [0.25, 0.0, 0.25]


def test_compare_rows_are_each_callers_own_and_answer_their_own_eps():
    """compare's exact side is computed once for every subject (cached): a caller that changes its row (drops,
    solutions) must not change the next call's, and each eps gets its own threshold and Eq. (2) solutions, here
    from the definition (drops_by_enumeration; both eps are solved at size 1). Catches a cached dict or list handed
    out twice and a cache key that drops eps."""
    tokens, table = ("a", "b"), [F(1), F(1, 2), F(0), F(0)]
    mean, drops = drops_by_enumeration(lambda z: table[z[0] + 2 * z[1]], 2, F(1, 2))
    for eps in (F(3, 20), F(1), F(3, 20)):
        row = claim.compare(tokens, table, eps)
        solutions = [[i] for i in range(2) if drops[(i,)] >= eps * mean]
        assert solutions and row["threshold"] == str(eps * mean) and row["eq2_solutions"] == solutions
        assert row["drops"] == {"a": str(drops[(0,)]), "b": str(drops[(1,)]), "a b": str(drops[(0, 1)])}
        row["drops"].clear()
        row["eq2_solutions"].append([0, 1])


def test_grid_denominators_over_all_runs_and_over_nonpositive_means(result):
    """Step st3 counts the runs with E[f] <= 0 (its scope) and, separately, all solvable runs of the grid. The
    kinds partition consistently (E[f] <= 0 = f(xi) <= 0 part + f(xi) > 0 part; f(xi) > 0 and f(xi) <= 0 together =
    E[f] > 0 and E[f] <= 0 together), and the totals are those the second-round referee recomputed apart (R2D,
    grid.py): 445939 solvable runs with E[f] > 0, 630190 with f(xi) <= 0 and 443319 with f(xi) > 0 over all runs,
    439181 and 188389 among E[f] <= 0, 399 additive runs with f(xi) > 0 and E[f] <= 0 of 816 over every E[f].
    Catches denominators of the E[f] <= 0 runs presented as totals (the first version's wording)."""
    step = {s.id: s for s in result.steps}["algorithm1-literal.st3-grid-nonpositive-mean"]
    k = step.values["by_kind"]
    for key in ("solvable", "not_a_solution"):
        assert k["E[f] <= 0"][key] == k["f(xi) <= 0, E[f] <= 0"][key] + k["f(xi) > 0, E[f] <= 0"][key]
        assert k["f(xi) <= 0"][key] + k["f(xi) > 0"][key] == k["mean > 0"][key] + k["E[f] <= 0"][key]
    assert (k["mean > 0"]["solvable"], k["f(xi) <= 0"]["solvable"], k["f(xi) > 0"]["solvable"]) == (
        445939, 630190, 443319)
    assert (k["f(xi) <= 0, E[f] <= 0"]["solvable"], k["f(xi) > 0, E[f] <= 0"]["solvable"]) == (439181, 188389)
    assert (k["additive, f(xi) > 0, E[f] <= 0"]["solvable"], k["additive, f(xi) > 0"]["solvable"]) == (399, 816)
    assert k["E[f] <= 0"]["not_a_solution"] == 35373 and k["mean > 0"]["not_a_solution"] == 0
    assert "35373 of 627570" in step.note and "601 of 443319 with f(xi) > 0" in step.note


def _sample_drops_by_hand(table, rows):
    """The tests' own Eq. (3): fhat and, for every position set some row perturbs entirely, fhat - the mean of f
    over those rows."""
    b = len(rows[0])
    f = [F(int(table[sum(1 << i for i in range(b) if row[i])])) for row in rows]
    fhat = sum(f) / len(f)
    drops = {}
    for size in range(1, b + 1):
        for c in itertools.combinations(range(b), size):
            absent = [v for v, row in zip(f, rows) if all(row[i] for i in c)]
            if absent:
                drops[c] = fhat - sum(absent) / len(absent)
    return fhat, f, drops


def test_sampled_runs_recounted_by_hand(result):
    """Step st4 recounted with the tests' own Eq. (3) and their own reading of the pseudo-code (Delta_best = 0,
    '>=' keeps the last tie, return after the first size whose Delta_best reaches eps fhat), on the same draws
    (numpy's default_rng(SAMPLED_SEED): a table, then the sample's rows, for each (b, n) in order): with fhat > 0
    every run where Eq. (4) has a solution gets one of largest drop; the counts per sign of fhat match the step's.
    Catches a transcription that averages over the wrong rows or uses E[f] for fhat, an Eq. (4) that counts a
    candidate no row perturbs, and a step whose note and values disagree with its draws."""
    from proofs_checks.claims.algorithm1 import grids

    values = {s.id: s for s in result.steps}["algorithm1-literal.st4-sampled-eq4"].values
    rng = np.random.default_rng(grids.SAMPLED_SEED)
    counts = {"fhat > 0": [0, 0], "fhat <= 0": [0, 0]}
    for b, n in itertools.product(grids.SAMPLED_B, grids.SAMPLED_N):
        for _ in range(grids.SAMPLED_RUNS):
            table = rng.integers(-2, 3, 2**b)
            rows = (rng.random((n, b)) < 0.5).tolist()
            fhat, f, drops = _sample_drops_by_hand(table, rows)
            for eps in claim.EPSS:
                sizes = [len(c) for c in drops if drops[c] >= eps * fhat]
                if not sizes:
                    continue
                size = min(sizes)
                best, delta = None, F(0)
                for k in range(1, b + 1):
                    for c in itertools.combinations(range(b), k):
                        if c in drops and drops[c] >= delta:
                            best, delta = c, drops[c]
                    if delta >= eps * fhat:
                        break
                top = max(drops[c] for c in drops if len(c) == size)
                good = best is not None and len(best) == size and drops[best] == top
                kind = "fhat > 0" if fhat > 0 else "fhat <= 0"
                counts[kind][0] += 1
                counts[kind][1] += not good
                if fhat > 0:
                    assert good, (table.tolist(), rows, eps)
    got = values["by_sign_of_fhat"]
    assert {k: [v["solvable"], v["not_a_solution"] + v["not_largest_drop"]] for k, v in got.items()} == counts
    assert counts["fhat > 0"][0] > 400 and values["undefined_candidates"] > 0


def test_the_family_is_defined_and_its_counts_can_be_checked(result):
    """p1, c1 and c2 count runs of 'the family'; the claim states what it is (FAMILY) and the tables match that
    definition: 16 + 256 exhaustive tables on b = 1, 2; 120 per value grid (60 on b = 3, 60 on b = 4); 60 bag-of-words
    tables on each of 'a b a' and 'a b b a'; 752 tables, 2256 runs at three eps. Catches an undefined or misdescribed
    population behind the reported counts."""
    tables = list(claim.family_tables())
    by_label = {}
    for label, tokens, _ in tables:
        by_label[label] = by_label.get(label, 0) + 1
    assert by_label == {"exhaustive": 272, **{name: 120 for name in claim.GRIDS},
                        "bag of words on 'a b a'": 60, "bag of words on 'a b b a'": 60}
    assert sum(len(t) == 1 for _, t, _ in tables) == 16 and len(tables) == 752
    assert claim.FAMILY.startswith("752 tables") and "2256 runs" in claim.FAMILY
    p1 = {s.id: s for s in result.steps}["algorithm1-literal.p1-rule"]
    assert p1.values["runs"] == 2256 and p1.values["family"] == claim.FAMILY and claim.FAMILY in p1.note


def test_comparisons_with_fred_are_labelled_implementation_notes(result):
    """c2 and c3 compare the printed pseudo-code with this project's Fred(sampler='exact'), which is not the
    paper; their notes, st1's mention of fred and the corrected statement's fred part are labelled as such, and the
    paper-claim's statement and conditions name no fred output. Catches project code presented as the paper's
    claim."""
    steps = {s.id: s for s in result.steps}
    for sid in ("c2-differences", "c3-minimal-kinds"):
        assert steps[f"algorithm1-literal.{sid}"].note.startswith("Implementation note (ours")
    assert "Implementation note (ours" in steps["algorithm1-literal.st1-counterexample"].note
    head, note = claim.CORRECTED.split("Implementation note (ours, not the paper's)")
    assert "Fred" not in head and "fred" not in head and "Fred(sampler='exact')" in note
    assert "found=" not in claim.STATEMENT and "Fred" not in claim.STATEMENT
