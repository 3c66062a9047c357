"""Claim prop1-l2norm (proofs_checks/claims/prop1_l2norm.py, verdict "does not extend"): Prop. 1 does not carry
over to L2-normalised TF-IDF, reproduced from the report's minimal counterexample by an independent computation.

The model analytic.L2NormalisedLinearModel itself: tests/analytic/test_prop1_l2norm.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from numpy.testing import assert_allclose

from analytic import L2NormalisedLinearModel
from analytic import l2_table_sym
from fred import Fred


def test_prop1_fails_on_l2_normalised_tfidf():
    """f = lambda . u/||u||, u = counts * idf, lambda = (1, 0.5), idf = (0.5, 2) on "a b", p = 1/2:
    lambda_j v_j = (0.5, 1.0) puts b first, but removing a drops E[f] far more. By hand, with the four
    equally likely patterns: f(ab) = 1.5/sqrt(4.25), f(a) = 1, f(b) = 0.5, f() = 0. Catches fred's exact drops
    (or its choice) on a normalised model following Prop. 1's lambda_j v_j order instead of the exact drops."""
    lam, idf = {"a": 1.0, "b": 0.5}, {"a": 0.5, "b": 2.0}

    def clf(texts):
        out = []
        for t in texts:
            u = {w: t.split().count(w) * idf[w] for w in lam}
            norm = math.sqrt(sum(x * x for x in u.values()))
            out.append(sum(lam[w] * u[w] for w in lam) / norm if norm else 0.0)
        return np.array(out)

    mean = (1.5 / math.sqrt(4.25) + 1 + 0.5 + 0) / 4
    exp = Fred(clf, sampler="exact").explain("a b", p=0.5, eps=0.15, max_len=1)
    assert_allclose(exp.importances, [mean - 0.25, mean - 0.5], rtol=1e-12)
    assert exp.best == ("a",)


@pytest.fixture(scope="module")
def result():
    from proofs_checks.claims import prop1_l2norm

    return prop1_l2norm.check()


def test_prop1_l2norm_step_statuses_and_verdict(result):
    """Pins every step: the extension does not extend (a counterexample and the family); there is no corrected
    statement and no proof step."""
    assert {s.id: (s.role, s.evidence, s.status) for s in result.steps} == {
        "prop1-l2norm.s1-nonadditive": ("paper-proof", "symbolic", "fails"),
        "prop1-l2norm.st1-counterexample": ("statement", "counterexample", "fails"),
        "prop1-l2norm.st2-family": ("statement", "exhaustive", "fails"),
    }
    assert (result.kind, result.status, result.corrected_status, result.verdict) == (
        "extension", "fails", None, "does not extend")
    cx = result.counterexample
    assert (cx["lambda"], cx["idf"], cx["fred_best"], cx["exact_solutions"]) == (
        {"a": 0.5, "b": 1.0}, {"a": 2.0, "b": 0.5}, ["b"], [["b"]])


def test_the_report_counterexample_in_exact_arithmetic():
    """The report's minimal case: lambda = (1/2, 1), v = (2, 1/2) on "a b", p = 1/2, eps = 0.15, so lambda_j v_j =
    (1, 1/2) puts a first. By hand, u = counts * v: f(ab) = (1 + 1/2)/sqrt(4 + 1/4) = 3/sqrt(17), f(a) = 1/2,
    f(b) = 1, f() = 0; E[f] is their mean. Drop of a = E[f] - (f(b) + f())/2, of b = E[f] - (f(a) + f())/2.
    Exactly, only {b} reaches eps E[f]: the unique solution of Eq. (2) violates (ii). Catches a check that
    takes a tie (as on lambda = (1/2, 1/2)) for a reversal."""
    f_ab, f_a, f_b = 3 / sp.sqrt(17), sp.Rational(1, 2), sp.Integer(1)
    assert sp.simplify(f_ab - sp.Rational(3, 2) / sp.sqrt(sp.Rational(17, 4))) == 0
    mean = (f_ab + f_a + f_b + 0) / 4
    drop_a, drop_b = mean - (f_b + 0) / 2, mean - (f_a + 0) / 2
    threshold = sp.Rational(15, 100) * mean
    assert bool(drop_b >= threshold) and bool(drop_a < threshold)
    clf = L2NormalisedLinearModel({"a": 0.5, "b": 1.0}, {"a": 2.0, "b": 0.5})
    exp = Fred(clf, sampler="exact").explain("a b", p=0.5, eps=0.15, max_len=2)
    assert exp.best == ("b",)
    assert_allclose(exp.importances, [float(drop_a), float(drop_b)], rtol=1e-12)


@pytest.mark.parametrize("tokens", [["a", "b"], ["a", "b", "a"], ["b", "UNK", "a"]])
def test_l2_table_sym_equals_the_model_on_every_mask_pattern(tokens):
    """analytic.prop1_l2norm.l2_table_sym (exact values used by the claim) against the float model on the 2^b
    masked texts built here. Catches a wrong code order (bit i = position i masked) or a dropped normalisation."""
    clf = L2NormalisedLinearModel({"a": 0.5, "b": -1.0}, {"a": 2.0, "b": 0.75}, 0.25)
    b = len(tokens)
    texts = [" ".join("UNK" if code >> i & 1 else t for i, t in enumerate(tokens)) for code in range(2**b)]
    exact = [float(sp.N(v, 30)) for v in l2_table_sym(clf, tokens)]
    assert_allclose(exact, clf(texts), rtol=1e-13, atol=1e-15)
