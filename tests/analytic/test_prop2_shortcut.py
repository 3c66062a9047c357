"""The word-presence ("shortcut") model of Prop. 2 (analytic/prop2_shortcut.py): sympy closed forms == numpy
twins == exact enumeration by the referee, and brute force over count vectors.

Tolerances: see tests/analytic/_cases.py (1e-12 relative / 1e-12 absolute).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from analytic import (
    ShortcutModel,
    best_drop_of_size,
    exact_drop,
    exact_explain,
    expected_prediction,
    shortcut_claim_eps,
    shortcut_claim_eps_sym,
    shortcut_claim_holds,
    shortcut_conditional_as_written_sym,
    shortcut_conditional_sym,
    shortcut_drop,
    shortcut_drop_sym,
    shortcut_expected_prediction,
    shortcut_expected_prediction_sym,
    shortcut_minimal_size,
    shortcut_optimal_counts,
    shortcut_optimal_counts_bruteforce,
    table_from_classifier,
)
from proofs_checks.strategies import epsilons, probabilities, shortcut_models
from tests.analytic._cases import ATOL, RTOL, P, count_vectors, first_occurrences


@given(shortcut_models(max_tokens=7), probabilities())
def test_shortcut_sympy_numpy_exact_agree(case, p):
    """Catches a wrong E[f] or conditional absence probability (the proof's (1-p)^(m-c)) for any p."""
    m = case.multiplicities
    table = table_from_classifier(case.model, case.tokens)
    expected_mean = expected_prediction(table, p)
    assert_allclose([float(shortcut_expected_prediction_sym(m, P).subs(P, p)),
                     shortcut_expected_prediction(m, p)], expected_mean, rtol=RTOL, atol=ATOL)
    others = [t for t in dict.fromkeys(case.tokens) if t not in case.model.words]
    for c in count_vectors(m + [case.n_other]):
        if not any(c):
            continue
        counts = dict(zip(case.model.words, c))
        positions = first_occurrences(case.tokens, counts)
        rest = [i for i, t in enumerate(case.tokens) if t in others][: c[-1]]
        expected = exact_drop(table, positions + rest, p)
        got = [float(shortcut_drop_sym(m, c[:-1], P).subs(P, p)), shortcut_drop(m, c[:-1], p)]
        assert_allclose(got, expected, rtol=RTOL, atol=ATOL, err_msg=f"tokens={case.tokens} J={case.model.words} c={c}")


@given(shortcut_models(max_tokens=7), probabilities())
def test_shortcut_optimal_counts_closed_form_vs_bruteforce(case, p):
    """Catches a wrong optimum of Prop. 2's problem: closed form c = (l, 0, ...) must be among the brute-force argmax,
    both analytic's count-vector brute force and the referee's best position sets (exact_drop over all position
    sets of that size), read as count vectors here."""
    m, table = case.multiplicities, table_from_classifier(case.model, case.tokens)
    order = np.argsort(m, kind="stable")
    words = case.model.words

    def counts_of(positions):
        picked = [case.tokens[i] for i in positions]
        return tuple(picked.count(w) for w in words) + (sum(t not in words for t in picked),)

    for size in range(1, len(case.tokens) + 1):
        best, argbest = shortcut_optimal_counts_bruteforce(m, size, p, case.n_other)
        closed = shortcut_optimal_counts(m, size, case.n_other)
        assert any(np.array_equal(closed, c) for c in argbest), f"m={m} size={size} closed={closed} best={argbest}"
        top, winners = best_drop_of_size(table, p, size)
        assert tuple(closed.tolist()) in {counts_of(s) for s in winners}, f"m={m} size={size} closed={closed}"
        assert_allclose(best, top, rtol=RTOL, atol=ATOL)
        if size < min(m):
            assert closed[order[0]] == size


@given(shortcut_models(max_tokens=7), probabilities(), epsilons())
def test_shortcut_minimal_size_and_claim(case, p, eps):
    """Catches a wrong l* and checks when Prop. 2's c*_1 = m_1 holds (iff m_1 = 1 or eps > 1-(1-p)/(1-p^m_1))."""
    m, table = case.multiplicities, table_from_classifier(case.model, case.tokens)
    exact = exact_explain(table, p, eps, len(case.tokens))
    assume(np.all(np.abs(exact.best_drop_by_size - exact.threshold) > 1e-9))
    assert exact.found  # perturbing all occurrences of the rarest word gives drop E[f] >= eps E[f]
    size = shortcut_minimal_size(m, p, eps)
    assert size == len(exact.best_ids), f"m={m} p={p} eps={eps} exact={exact.best_ids}"
    assert shortcut_claim_holds(m, p, eps) == (size == min(m))


def test_shortcut_counterexample_to_prop2():
    """Catches a referee or closed form that misses Prop. 2's counterexample: 'w w', f = 1{w in z}, p = 1/2,
    eps = 0.15 -> one occurrence suffices (Prop. 2 says 2). By hand: E[f] = 3/4, one occurrence perturbed leaves
    f = 1/2 on average (drop 1/4 >= 0.15 * 3/4), and the claim's boundary 1 - (1 - p)/(1 - p^2) = 1/3."""
    model = ShortcutModel(("w",))
    table = table_from_classifier(model, ["w", "w"])
    exact = exact_explain(table, 0.5, 0.15, 10)
    assert exact.best_ids == (0,) and exact.found
    assert_allclose([exact.mean_prediction, exact.drop], [0.75, 0.25], rtol=RTOL)
    assert shortcut_minimal_size([2], 0.5, 0.15) == 1 and not shortcut_claim_holds([2], 0.5, 0.15)
    assert shortcut_claim_eps_sym(2, sp.Rational(1, 2)) == sp.Rational(1, 3)
    assert_allclose(shortcut_claim_eps(2, 0.5), 1 / 3, rtol=RTOL)


def test_shortcut_paper_conditional_only_right_at_half():
    """Catches shortcut_conditional_sym written as the proof's prod (1 - (1 - p)^(m - c)) instead of the true
    prod (1 - p^(m - c)) (or the "as written" form not being the proof's): m = (3, 2), c = (1, 0), worked out by
    hand at p = 1/3 (true (8/9)(8/9) = 64/81, as written (5/9)(5/9) = 25/81); they agree only at p = 1/2."""
    m, c = [3, 2], [1, 0]
    third = sp.Rational(1, 3)
    assert shortcut_conditional_sym(m, c, third) == sp.Rational(64, 81)
    assert shortcut_conditional_as_written_sym(m, c, third) == sp.Rational(25, 81)
    diff = shortcut_conditional_sym(m, c, P) - shortcut_conditional_as_written_sym(m, c, P)
    assert diff.subs(P, sp.Rational(1, 2)) == 0
    assert diff.subs(P, third) != 0

# --------------------------------------------------------------------------- edges mutation testing found
# Each test below was written for a mutant that survived the hypothesis tests above: boundaries
# the strategies rarely hit (eps = 1, size 0, max_len = l*, exact ties), defaults and argument checks.


def test_shortcut_claim_boundary_is_decided_exactly_with_fractions():
    """Catches ``eps >= claim_eps`` for ``eps > claim_eps``: at eps = 1-(1-p)/(1-p^m1) exactly, l* = m1 - 1."""
    for m1, p in [(2, Fraction(1, 2)), (3, Fraction(1, 3)), (4, Fraction(3, 4)), (7, Fraction(9, 10))]:
        eps = 1 - 1 / sum(p**k for k in range(m1))  # (1-p)/(1-p^m) = 1 / (1 + p + ... + p^(m-1))
        assert shortcut_claim_eps(m1, p) == eps
        assert shortcut_minimal_size([m1], p, eps) == m1 - 1, (m1, p, eps)
        assert not shortcut_claim_holds([m1], p, eps), (m1, p, eps)


@pytest.mark.parametrize("m", [[1], [2], [3, 5], [4, 4, 6]])
@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_shortcut_minimal_size_at_eps_one_is_m1(m, p):
    """Catches a strict ``<`` against the target: eps = 1 needs every occurrence of the rarest word (drop = E[f])."""
    assert shortcut_minimal_size(m, p, 1.0) == min(m)


def test_shortcut_minimal_size_budget_is_inclusive():
    """Catches ``size < max_len`` and an ignored budget: l* = 2 fits max_len = 2, not max_len = 1."""
    assert shortcut_minimal_size([2], 0.5, 0.5, max_len=2) == 2
    assert shortcut_minimal_size([2], 0.5, 0.5, max_len=1) is None


@pytest.mark.parametrize("c", [[-1, 0], [0, 2], [3, 1]])
def test_shortcut_drop_refuses_counts_outside_multiplicities(c):
    """Catches a validation that needs both violations (``and``) or checks only one side."""
    with pytest.raises(ValueError, match="0 <= c_j <= m_j"):
        shortcut_drop([2, 1], c, 0.5)


@pytest.mark.parametrize("m, size, p", [([3, 2], 2, 0.5), ([2, 2], 1, 0.3), ([1, 3], 3, 0.7)])
def test_shortcut_bruteforce_returns_exactly_the_maximisers(m, size, p):
    """Catches a loose tie tolerance in the brute force: every returned vector attains the best drop, and every
    count vector attaining it is returned (checked by a second, plain enumeration)."""
    best, argbest = shortcut_optimal_counts_bruteforce(m, size, p, n_other=1)
    caps = list(m) + [1]
    every = [c for c in itertools.product(*[range(k + 1) for k in caps]) if sum(c) == size]
    values = {c: shortcut_drop(m, c[:-1], p) for c in every}
    assert best == max(values.values())
    assert sorted(tuple(c.tolist()) for c in argbest) == sorted(c for c, v in values.items() if v >= best - 1e-12)


def test_shortcut_optimal_counts_defaults_and_size_zero():
    """Catches a default of one position outside J, and refusing the empty candidate."""
    assert shortcut_optimal_counts([3, 2], 0).tolist() == [0, 0, 0]
    assert shortcut_optimal_counts([3, 2], 5).tolist() == [3, 2, 0]
    with pytest.raises(ValueError, match=r"size must lie in \[0, 5\]"):
        shortcut_optimal_counts([3, 2], 6)
    best, argbest = shortcut_optimal_counts_bruteforce([2, 1], 3, 0.5)
    assert best == (1 - 0.5**2) * (1 - 0.5) == 0.375  # everything perturbed: the drop is E[f] = prod (1 - p^m_j)
    assert [c.tolist() for c in argbest] == [[2, 1, 0]]


def test_shortcut_predict_proba_is_one_minus_f_then_f():
    """Catches a wrong first column: rows are probabilities [1 - f, f]."""
    proba = ShortcutModel(("a", "b")).predict_proba(["a b", "a UNK", "UNK UNK"])
    assert proba.tolist() == [[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]]


# --------------------------------------------------------------------------- closed forms carried by the model
@given(shortcut_models(), probabilities(), epsilons(), st.data())
def test_shortcut_model_methods_equal_the_referee(case, p, eps, data):
    """Catches a shortcut method counting occurrences of words outside J, or perturbed occurrences twice."""
    tokens = list(case.tokens)
    model = case.model
    table = table_from_classifier(model, tokens)
    positions = sorted(data.draw(st.sets(st.integers(0, len(tokens) - 1), min_size=1)))
    assert_allclose(model.expected_prediction(tokens, p), expected_prediction(table, p), rtol=1e-12, atol=1e-12)
    assert_allclose(model.drop(tokens, positions, p), exact_drop(table, positions, p), rtol=1e-12, atol=1e-12)
    ref = exact_explain(table, p, eps, len(tokens))
    assume(np.all(np.abs(ref.best_drop_by_size - ref.threshold) > 1e-9))
    assert model.minimal_size(tokens, p, eps) == len(ref.best_ids) and ref.found


def test_shortcut_model_refuses_a_document_without_every_word():
    """Catches multiplicities of 0 accepted (f(xi) = 0, outside Prop. 2's setting, and p^0 = 1 divides by 0)."""
    with pytest.raises(ValueError, match=r"every word of J must occur in tokens"):
        ShortcutModel(("good", "fresh")).multiplicities(["good"])


# --------------------------------------------------------------------------- baseline "original" (released code)
def _rational_best_drops(m, p: Fraction, baseline: str, n_other: int = 0) -> dict:
    """Largest exact drop of each size, enumerating all 2^b patterns (1 = perturbed) and all position sets with
    Fraction weights; reference E[f] ("mean") or f(xi) = 1 ("original"). Independent of the closed forms."""
    words = [f"w{j}" for j in range(len(m))]
    tokens = [w for w, k in zip(words, m) for _ in range(k)] + ["other"] * n_other
    b = len(tokens)
    rows = []
    for z in itertools.product((0, 1), repeat=b):
        weight = Fraction(1)
        for zi in z:
            weight *= p if zi else 1 - p
        rows.append((z, weight, int(all(any(t == w and not zi for t, zi in zip(tokens, z)) for w in words))))
    reference = sum(w * f for _, w, f in rows) if baseline == "mean" else Fraction(1)
    best = {}
    for size in range(1, b + 1):
        for s in itertools.combinations(range(b), size):
            kept = [(w, f) for z, w, f in rows if all(z[i] for i in s)]
            drop = reference - sum(w * f for w, f in kept) / sum(w for w, _ in kept)
            best[size] = max(best.get(size, drop), drop)
    return {"reference": reference, "best": best}


@pytest.mark.parametrize("baseline", ["mean", "original"])
def test_shortcut_minimal_size_both_baselines_vs_rational_bruteforce(baseline):
    """Catches a wrong l* under either threshold: the released code's eps f(xi) = eps (with f(xi) = 1) keeps the
    factors prod_{j >= 2} (1 - p^(m_j)) that cancel under the paper's eps E[f]. Exact boundaries included
    (eps = 9/16 is 1 - (1/2)(7/8) for m = (2, 3), p = 1/2; eps = 1/3 is the mean boundary for m_1 = 2)."""
    multiplicities = [(1,), (2,), (3,), (1, 2), (2, 3), (2, 2), (3, 1), (1, 1, 2)]
    for m, n_other in [(m, 0) for m in multiplicities] + [((2,), 1), ((1, 2), 1)]:
        for p in (Fraction(1, 2), Fraction(1, 3), Fraction(3, 4), Fraction(1, 10)):
            brute = _rational_best_drops(m, p, baseline, n_other)
            for eps in (Fraction(1, 20), Fraction(3, 20), Fraction(1, 3), Fraction(7, 16), Fraction(1, 2),
                        Fraction(9, 16), Fraction(1)):
                size = min(l for l, d in brute["best"].items() if d >= eps * brute["reference"])
                assert shortcut_minimal_size(m, p, eps, baseline=baseline) == size, (m, n_other, p, eps)
                assert shortcut_minimal_size(m, p, eps, size, baseline=baseline) == size
                assert shortcut_minimal_size(m, p, eps, size - 1 or None, baseline=baseline) == (
                    None if size > 1 else size)
                assert shortcut_claim_holds(m, p, eps, baseline=baseline) == (size == min(m)), (m, p, eps)


def test_shortcut_original_baseline_differs_from_mean():
    """Catches the baseline keyword ignored: m = (2, 3), p = 1/2, eps = 1/2 needs 2 occurrences under eps E[f]
    (1/2 > (1/2)(3/4)) and 1 under eps f(xi) ((1/2)(7/8) = 7/16 <= 1/2); the model method passes it on."""
    half = Fraction(1, 2)
    assert shortcut_minimal_size([2, 3], half, half) == 2
    assert shortcut_minimal_size([2, 3], half, half, baseline="original") == 1
    assert shortcut_minimal_size([2, 3], half, half, 10, baseline="mean") == 2
    tokens = "a b a b b".split()
    model = ShortcutModel(("a", "b"))
    assert model.minimal_size(tokens, half, half) == 2
    assert model.minimal_size(tokens, half, half, baseline="original") == 1
    assert shortcut_claim_holds([2, 3], half, half)
    assert not shortcut_claim_holds([2, 3], half, half, baseline="original")


@pytest.mark.parametrize("fn", [shortcut_minimal_size, shortcut_claim_holds])
def test_shortcut_refuses_an_unknown_baseline(fn):
    """Catches any string other than "original" silently read as the mean baseline."""
    with pytest.raises(ValueError, match="baseline must be 'mean' or 'original', got 'median'"):
        fn([2], 0.5, 0.15, baseline="median")
