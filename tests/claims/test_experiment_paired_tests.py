"""proofs_checks.paired_tests, the statistics behind the experiment claims: the Wilcoxon signed-rank p-value against
the enumeration of its null distribution and against the normal approximation written out here, Holm's adjustment
against hand values and the step-down procedure, and the loading of a committed result file against the summary
table the run wrote beside it.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from proofs_checks.paired_tests import ALPHA, ROOT, Run, compare, holm, load_run, signed_rank, tag

RESTAURANTS = "results/restaurants_logistic_p0.5_eps0.15.csv"


def _enumerated_p(d) -> Fraction:
    """Two-sided p-value of the signed-rank statistic by enumerating the 2^n sign patterns of the midranks of the
    non-zero |d| (doubled, so integers): P(|W+ - E W+| >= observed), rational."""
    d = [x for x in d if x != 0]
    doubled = [int(round(2 * r)) for r in stats.rankdata(np.abs(d))]
    total = sum(doubled)
    observed = abs(2 * sum(r for r, x in zip(doubled, d) if x > 0) - total)
    hits = sum(abs(2 * sum(r for r, s in zip(doubled, signs) if s) - total) >= observed
               for signs in itertools.product((0, 1), repeat=len(d)))
    return Fraction(hits, 2 ** len(d))


@given(st.lists(st.integers(-40, 40).filter(bool), min_size=1, max_size=11, unique_by=abs))
def test_signed_rank_is_the_exact_null_distribution_without_ties(d):
    """Distinct non-zero differences, n <= 11: the p-value is the exact one, by enumeration of all 2^n signs. Catches
    a one-sided p-value, a statistic on the wrong ranks, or the normal approximation used on small samples."""
    assert_allclose(signed_rank(d)["p_value"], float(_enumerated_p(d)), rtol=1e-12)


@given(st.lists(st.sampled_from([-3, -2, -1, 0, 1, 2, 3]), min_size=1, max_size=13).filter(any))
def test_signed_rank_with_ties_and_zeros_is_the_permutation_distribution(d):
    """Ties and zeros, at most 13 non-zero: the p-value is the exact permutation one (all sign flips of the midranks,
    zeros dropped). Catches zeros kept in the ranking, or integer ranks instead of midranks."""
    assert_allclose(signed_rank(d)["p_value"], float(_enumerated_p(d)), rtol=1e-12)


def test_zeros_are_dropped_before_scipy_chooses_its_method():
    """97 zeros and 3 positive differences: only the 8 sign patterns of the three count, p = 2/8 exactly. With the
    zeros handed to scipy, 100 values make it use the normal approximation (p about 0.11), smaller than any p-value
    three documents allow. Catches the zeros left in."""
    r = signed_rank([0.0] * 97 + [0.1, 0.2, 0.3])
    assert (r["p_value"], r["n_nonzero"], r["w_plus"], r["w_minus"]) == (0.25, 3, 6.0, 0.0)


def test_signed_rank_normal_approximation_with_ties_by_hand():
    """60 differences with ties (values 1..5, some negative): z from E W+ = n(n+1)/4 and Var W+ = n(n+1)(2n+1)/24 -
    sum(t^3 - t)/48 over the tie groups t, p = 2 Phi(-|z|), written out here. Catches a missing tie correction or a
    continuity correction."""
    d = np.array([(1 + i % 5) * (-1 if i % 7 == 0 else 1) for i in range(60)], dtype=float)
    n = d.size
    ranks = stats.rankdata(np.abs(d))
    w_plus = ranks[d > 0].sum()
    ties = np.unique(np.abs(d), return_counts=True)[1]
    var = n * (n + 1) * (2 * n + 1) / 24 - (ties ** 3 - ties).sum() / 48
    z = (w_plus - n * (n + 1) / 4) / math.sqrt(var)
    assert_allclose(signed_rank(d)["p_value"], 2 * stats.norm.sf(abs(z)), rtol=1e-10)


def test_no_difference_gives_p_one():
    """Identical explanations on every document: no evidence either way. Catches a NaN p-value (scipy's) that would
    compare false with alpha and hide the pair."""
    assert signed_rank([0.0] * 10) == {"p_value": 1.0, "w_plus": 0.0, "w_minus": 0.0, "n_nonzero": 0}


def test_holm_by_hand():
    """Hand values. p = (0.01, 0.02, 0.03): sorted multipliers 3, 2, 1 give 0.03, 0.04, 0.03, and the running
    maximum makes the last 0.04. p = (0.5, 0.4): 2 * 0.4 = 0.8, then max(0.8, 0.5) = 0.8. A p-value times m above 1 is
    1. Catches a missing running maximum, Bonferroni in place of Holm, or an uncapped value."""
    assert_allclose(holm([0.01, 0.02, 0.03]), [0.03, 0.04, 0.04], rtol=1e-12)
    assert_allclose(holm([0.5, 0.4]), [0.8, 0.8], rtol=1e-12)
    assert holm([0.6, 0.9]) == [1.0, 1.0]
    assert holm([]) == []
    with pytest.raises(ValueError, match="p_values"):
        holm([0.1, 1.5])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=8), st.sampled_from([0.001, 0.01, 0.05, 0.2]))
def test_holm_rejects_what_the_step_down_procedure_rejects(p, alpha):
    """Holm (1979) as a procedure: sort, reject while p_(i) <= alpha / (m - i + 1), stop at the first that is not.
    The adjusted p-values at most alpha must be exactly those. Catches an adjustment that is not Holm's."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    rejected = set()
    for i, k in enumerate(order):
        if p[k] > alpha / (len(p) - i):
            break
        rejected.add(k)
    assert {i for i, a in enumerate(holm(p)) if a <= alpha} == rejected


def _run(values: dict[str, list[float]], metric: str) -> Run:
    return Run("results/synthetic_p0.5_eps0.15.csv", {},
               {e: {doc: {metric: v} for doc, v in enumerate(vs)} for e, vs in values.items()})


def test_direction_follows_the_metric_arrow():
    """x below y on every one of 8 documents: on sufficiency (lower is better) x is better, on comprehensiveness
    (higher is better) y is; exact two-sided p = 2/2^8, below 0.05 alone and after Holm over one test. Catches an
    arrow read backwards."""
    x, y = [0.1 * i for i in range(8)], [0.1 * i + 0.05 * (i + 1) for i in range(8)]
    (suff,) = compare(_run({"a": x, "b": y}, "sufficiency"), [("a", "b")], ["sufficiency"])
    (comp,) = compare(_run({"a": x, "b": y}, "comprehensiveness"), [("a", "b")], ["comprehensiveness"])
    assert (suff.winner, comp.winner) == ("a", "b")
    assert_allclose([suff.p_raw, suff.p_holm], [2 / 2 ** 8] * 2, rtol=1e-12)


def test_compare_adjusts_over_the_whole_family():
    """Three pairs with the same data: each raw p = 2/2^6 = 0.03125 (significant alone), Holm over three makes every
    one 3 * 0.03125 > 0.05. Catches a step whose tests are not adjusted together."""
    base = [float(i) for i in range(6)]
    run = _run({"a": base, "b": [v + 1 for v in base], "c": [v + 2 for v in base], "d": [v + 3 for v in base]},
               "time")
    tests = compare(run, [("a", "b"), ("a", "c"), ("a", "d")], ["time"])
    assert_allclose([t.p_raw for t in tests], [1 / 32] * 3, rtol=1e-12)
    assert_allclose([t.p_holm for t in tests], [3 / 32] * 3, rtol=1e-12)
    assert not any(t.significant for t in tests) and all(t.better == "a" for t in tests) and ALPHA == 0.05


def _summary_means(md: Path) -> dict[str, dict[str, float]]:
    """The "ours" rows of the run's own Markdown summary: explainer -> column header -> printed mean."""
    lines = [line for line in md.read_text().splitlines() if line.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    out = {}
    for line in lines[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[1] == "ours":
            out[cells[0]] = {h: float(c.split()[0]) for h, c in zip(header[2:], cells[2:]) if c != "–"}
    return out


@pytest.mark.parametrize("path", [RESTAURANTS, "results/yelp_logistic_p0.5_eps0.15_original.csv"])
def test_load_run_agrees_with_the_summary_the_run_wrote(path):
    """Every explainer's mean of sufficiency, comprehensiveness, aucmorf (authors), time and proportion, rounded as
    printed, equals the run's own .md table; the seed is the .md's. Catches a wrong column (aucmorf against
    aucmorf_authors), rows of one explainer filed under another, or a lost document."""
    run = load_run(path)
    printed = _summary_means(ROOT / Path(path).with_suffix(".md"))
    headers = {"sufficiency": "suffic. ↓", "comprehensiveness": "compreh. ↑", "aucmorf": "aucmorf (authors) ↓",
               "time": "time (s) ↓", "proportion": "proport. ↓"}
    assert set(printed) == set(run.explainers)
    for explainer, means in printed.items():
        for metric, header in headers.items():
            got = np.mean(list(run.column(explainer, metric).values()))
            assert abs(got - means[header]) <= 0.0005 + 1e-12, (explainer, metric, got, means[header])
    config = (ROOT / Path(path).with_suffix(".md")).read_text()
    assert run.seed == int(re.search(r"seed=(\d+)", config).group(1))
    assert run.describe()["n_documents"] == int(re.search(r"n_docs=(\d+)", config).group(1))


def test_missing_file_and_tags():
    """A result file that is not there is None (the claims turn it into an argued step), not an exception; step tags
    drop the p/eps part. Catches a crash of the whole report when a run is deleted or renamed."""
    assert load_run("results/no_such_run_p0.5_eps0.15.csv") is None
    assert tag(RESTAURANTS) == "restaurants-logistic"
