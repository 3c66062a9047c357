"""Claim prop1-linear (proofs_checks/claims/prop1_linear.py): fails as written ("the solution" of Eq. (2) read as
any minimiser), corrected statement argued (FRED's choice; arbitrary solutions with E[f] >= 0). The proof's drop
formula (step s3) fails too but does not decide the verdict.

Each correction is reproduced here by an independent computation: the 2^b mask patterns are enumerated in this
file with ``fractions.Fraction`` weights (no ``analytic`` code), and FRED(sampler="exact") is run on the same
linear black box. The closed forms of analytic/prop1_linear.py: tests/analytic/test_prop1_linear.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from numpy.testing import assert_allclose

from fred import Fred
from tests._helpers import drops_by_enumeration


def _linear_clf(weights):
    """Black box on texts: lambda_0 + sum of the weights of the kept positions (a masked position reads 'UNK')."""
    a, l0 = [float(x) for x in weights[0]], float(weights[1])
    return lambda texts: np.array([l0 + sum(w for w, t in zip(a, text.split()) if t != "UNK") for text in texts])


def _enumerate(a, l0, p):
    """(f(xi), E[f], drop of every non-empty position set) of the linear model, by enumeration in Fractions."""
    def f(z):
        return l0 + sum(a[i] for i in range(len(a)) if not z[i])

    mean, drops = drops_by_enumeration(f, len(a), p)
    return f((0,) * len(a)), mean, drops


def _solutions(drops, threshold, max_len):
    """Every minimiser of Eq. (2): the sets of the smallest size whose drop reaches the threshold."""
    for size in range(1, max_len + 1):
        sets = [s for s, d in drops.items() if len(s) == size and d >= threshold]
        if sets:
            return sets
    return []


@pytest.fixture(scope="module")
def result():
    from proofs_checks.claims import prop1_linear

    return prop1_linear.check()


def test_prop1_linear_step_statuses_and_verdict(result):
    """Pins every step: a check that silently turns 'fails' into 'holds' (or a paper-proof step deciding the
    verdict) changes this table. As written the claim fails; corrected it is argued (p3 is a written exchange
    argument)."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == {
        "prop1-linear.s1-expected-multiplicity": ("paper-proof", "symbolic", "fails"),
        "prop1-linear.s2-conditional-multiplicity": ("paper-proof", "symbolic", "fails"),
        "prop1-linear.s3-drop-formula": ("paper-proof", "symbolic", "fails"),
        "prop1-linear.p1-kept-multiplicity": ("proof", "symbolic", "holds"),
        "prop1-linear.p2-drop-formula": ("proof", "symbolic", "holds"),
        "prop1-linear.p3-top-set": ("proof", "argument", "argued"),
        "prop1-linear.p4-removal": ("proof", "symbolic", "holds"),
        "prop1-linear.p5-size-one": ("proof", "symbolic", "holds"),
        "prop1-linear.st1-ii-any-solution": ("statement", "counterexample", "fails"),
        "prop1-linear.st2-i-any-solution": ("statement", "counterexample", "fails"),
        "prop1-linear.st3-family-every-solution": ("statement", "exhaustive", "fails"),
        "prop1-linear.c1-counterexamples-fred-choice": ("correction", "exhaustive", "holds"),
        "prop1-linear.c2-grid": ("correction", "exhaustive", "holds"),
        "prop1-linear.c3-family-fred-choice": ("correction", "exhaustive", "holds"),
        "prop1-linear.c4-minimal-size": ("correction", "exhaustive", "holds"),
    }
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "statement", "fails", "argued", "fails")
    cx = result.counterexample
    assert (cx["ii_any_solution"]["position_weights"], cx["ii_any_solution"]["intercept"], cx["ii_any_solution"]["p"],
            cx["ii_any_solution"]["eps"]) == (["1", "1/2"], "0", "1/2", "3/20")
    assert (cx["i_any_solution"]["position_weights"], cx["i_any_solution"]["intercept"], cx["i_any_solution"]["p"],
            cx["i_any_solution"]["eps"]) == (["1", "-1/100"], "-89/100", "1/2", "3/20")
    steps = {s.id: s for s in result.steps}
    for step in ("prop1-linear.st1-ii-any-solution", "prop1-linear.st2-i-any-solution"):  # minimal by a scan
        assert steps[step].values["smaller_points_checked"] > 0
    assert '"p": 0.25' in steps["prop1-linear.s3-drop-formula"].note
    assert '"exact_drop": 0.75' in steps["prop1-linear.s3-drop-formula"].note


def test_prop1_proof_drop_formula_is_wrong_off_half():
    """The proof's Delta_c = p sum lambda_j v_j c_j: on "w" with weight 1, p = 0.25, the exact drop is
    E[f] - E[f | w removed] = 0.75 - 0 = 0.75, not 0.25. Catches fred's exact drop following the proof's p
    instead of 1 - p."""
    clf = lambda texts: np.array([float(t == "w") for t in texts])  # noqa: E731
    exp = Fred(clf, sampler="exact").explain("w", p=0.25, eps=1.0)
    assert_allclose(exp.importances, [0.75], rtol=1e-12)
    assert not np.isclose(exp.importances[0], 0.25)


def test_eq2_has_two_solutions_and_the_second_violates_ii():
    """Regression for the statement as written, (ii): a = (1, 1/2), lambda_0 = 0, p = 1/2, eps = 0.15. Exactly,
    E[f] = 3/4, threshold 9/80, single-word drops 1/2 and 1/4: both words alone solve Eq. (2), so the solution
    {w2} is not 'the word of higher lambda_j v_j first'. FRED(sampler="exact") picks the largest drop, {w1}.
    Catches a check that reads Eq. (2) as having a unique solution, or a FRED that returns any solution."""
    a, l0, p, eps = (F(1), F(1, 2)), F(0), F(1, 2), F(15, 100)
    f_xi, mean, drops = _enumerate(a, l0, p)
    assert (f_xi, mean, eps * mean) == (F(3, 2), F(3, 4), F(9, 80))
    assert drops == {(0,): F(1, 2), (1,): F(1, 4), (0, 1): F(3, 4)}  # (1 - p) sum of the removed weights
    assert _solutions(drops, eps * mean, 2) == [(0,), (1,)]
    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain("w1 w2", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("w1",) and exp.found
    assert_allclose(exp.drop, float(max(drops[(0,)], drops[(1,)])), rtol=1e-12)


def test_negative_word_alone_solves_eq2_when_the_mean_is_negative():
    """Regression for the statement as written, (i), under the section's assumption f(xi) > 0: a = (1, -1/100),
    lambda_0 = -89/100, p = 1/2: f(xi) = 1/10 but E[f] = -79/200 < 0, so the threshold eps E[f] = -237/4000 is
    negative and the negative word's drop -1/200 reaches it: {w2} is a solution. FRED still picks {w1}.
    Catches a corrected claim that conditions (i) for an arbitrary solution on f(xi) > 0 instead of E[f] >= 0."""
    a, l0, p, eps = (F(1), F(-1, 100)), F(-89, 100), F(1, 2), F(15, 100)
    f_xi, mean, drops = _enumerate(a, l0, p)
    assert (f_xi, mean, eps * mean) == (F(1, 10), F(-79, 200), F(-237, 4000))
    assert drops == {(0,): F(1, 2), (1,): F(-1, 200), (0, 1): F(99, 200)}
    assert _solutions(drops, eps * mean, 2) == [(0,), (1,)]
    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain("w1 w2", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("w1",) and exp.found  # the largest drop, 1/2
    assert_allclose(exp.drop, 0.5, rtol=1e-12)


WEIGHTS = (F(1), F(1, 2), F(-1, 100), F(-1), F(0))
INTERCEPTS = (F(0), F(-89, 100), F(1), F(-1))
PS = (F(1, 2), F(1, 10), F(9, 10))
EPSS = (F(15, 100), F(1, 20), F(1))


def test_corrected_statement_by_brute_force_in_rationals():
    """The corrected statement on every small model (b <= 3 distinct weights, all orders), exactly:
    (a) FRED's choice, the largest drop among the solutions, is the top-l* set, has no negative word when
    f(xi) > 0, and is what Fred(sampler="exact") returns; (b) every solution has no negative word when
    E[f] >= 0 and has the size l* = min{l : (1 - p) (sum of the l largest a) >= eps E[f]}.
    Catches a FRED that picks a non-maximal solution, a corrected claim with a wrong condition, and the
    proof's p in place of 1 - p in l*."""
    checked = 0
    for b in (1, 2, 3):
        for a in itertools.permutations(WEIGHTS, b):
            for l0, p in itertools.product(INTERCEPTS, PS):
                f_xi, mean, drops = _enumerate(a, l0, p)
                for eps in EPSS:
                    sols = _solutions(drops, eps * mean, b)
                    ordered = sorted(a, reverse=True)
                    l_star = next((n for n in range(1, b + 1) if (1 - p) * sum(ordered[:n]) >= eps * mean), None)
                    exp = Fred(_linear_clf((a, l0)), sampler="exact").explain(
                        " ".join(f"w{i + 1}" for i in range(b)), p=float(p), eps=float(eps), max_len=b)
                    if not sols:
                        assert l_star is None and not exp.found
                        continue
                    checked += 1
                    top = max(drops[s] for s in sols)
                    choice = [s for s in sols if drops[s] == top]
                    assert len(choice) == 1  # distinct weights: no tie for the largest drop
                    choice = choice[0]
                    top_set = tuple(sorted(sorted(range(b), key=lambda i: -a[i])[:len(choice)]))
                    assert choice == top_set, (a, l0, p, eps)
                    assert exp.found and exp.best_ids == choice, (a, l0, p, eps)
                    if f_xi > 0:
                        assert all(a[i] >= 0 for i in choice), (a, l0, p, eps)
                    if mean >= 0:
                        assert all(a[i] >= 0 for s in sols for i in s), (a, l0, p, eps)
                    assert all(len(s) == l_star for s in sols), (a, l0, p, eps)
    assert checked > 1000
