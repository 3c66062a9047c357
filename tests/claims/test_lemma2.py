"""Claim lemma2 (proofs_checks/claims/lemmas/lemma2.py, verdict holds): at p = 1/2 the paper's n covers one fixed
candidate of size <= l_max with probability >= alpha ("c not in x_i": every position of c perturbed, Figure 1 and
the proof's 1/2**|c|), and fred's mask sampler covers as the formula says.
Lemma 2 for any p (fred.sample_size): tests/claims/test_lemma2_any_p.py; all candidates at once:
tests/claims/test_lemma2_joint.py; the closed forms themselves: tests/analytic/test_lemma2.py.

Exact checks use rational arithmetic (the float inputs' exact binary values);
Monte Carlo checks use Clopper-Pearson intervals at a stated delta.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from analytic import coverage, sample_size_rational, sample_size_sym
from fred import sample_size
from fred.sampling import MaskSampler
from proofs_checks.statistics.seeds import statistical_seed
from tests._helpers import clopper_pearson


def test_sample_size_paper_value_and_sympy():
    """Catches a drift from the paper's n ~ 3000 (alpha = 0.95, l_max = 10, p = 1/2): exactly 3067."""
    assert sample_size(0.95, max_len=10) == 3067 == sample_size_rational(Fraction(19, 20), Fraction(1, 2), 10)
    assert sample_size_sym(sp.Rational(19, 20), sp.Rational(1, 2), 10) == 3067


@pytest.mark.statistical
@pytest.mark.parametrize("size, p, n", [(1, 0.5, 5), (3, 0.5, 20), (2, 0.3, 30), (4, 0.7, 3)])
def test_simulated_coverage_matches_formula(size, p, n):
    """Catches fred's mask sampler perturbing with the wrong probability (e.g. 1 - p) or non-independently.

    20_000 simulated designs of n rows from fred's MaskSampler (seed statistical_seed(12345 + n)): the
    Clopper-Pearson interval at delta = 1e-6 of the fraction covering positions 0..l-1 must contain
    1 - (1 - p^l)^n.
    """
    trials, b = 20_000, size + 2
    rng = np.random.default_rng(statistical_seed(12345 + n))
    rows = MaskSampler().draw(b, p, trials * n, rng).perturbed.reshape(trials, n, b)
    hits = int(rows[:, :, :size].all(axis=2).any(axis=1).sum())
    low, high = clopper_pearson(hits, trials, 1e-6)
    expected = float(coverage(n, p, size))
    assert low <= expected <= high, f"l={size} p={p} n={n}: {hits}/{trials}, CI [{low:.4f}, {high:.4f}], formula {expected:.4f}"


# --------------------------------------------------------------------------- the claim's steps


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result("lemma2")  # the session's one run of the claim (tests/conftest.py)


def test_lemma2_step_statuses_and_verdict(result):
    """Pins every step (status, role, evidence) and the verdict: catches a proof step that stops being proved by
    sympy (a sympy upgrade changing a closed form), a statement step turning into a failure, or a role or
    evidence label drifting (e.g. the paper-proof minimality step deciding the verdict)."""
    got = {s.id: (s.role, s.evidence, s.status) for s in result.steps}
    assert got == {
        "lemma2.s1-row-probability": ("proof", "symbolic", "holds"),
        "lemma2.s2-binomial-identity": ("proof", "symbolic", "holds"),
        "lemma2.s3-solve-for-n": ("proof", "symbolic", "holds"),
        "lemma2.s4-smaller-candidates": ("proof", "symbolic", "holds"),
        "lemma2.s5-paper-n-covers": ("statement", "exhaustive", "holds"),
        "lemma2.s6-ceiling-is-minimal": ("paper-proof", "exhaustive", "holds"),
    }
    assert (result.kind, result.status, result.verdict, result.corrected_status) == ("statement", "holds", "holds",
                                                                                     None)
    assert result.counterexample is None and result.corrected is None


def test_lemma2_paper_n_is_the_minimum(result):
    """Catches a paper's n evaluated off by one (a ceiling of a rounded quotient, or a floor): the claim's n_paper
    (sympy's ceiling of the formula) must be the smallest n covering a size-l_max candidate at p = 1/2 (n rows
    reach alpha, n - 1 do not), checked here on the definition in Fractions, on every (alpha, l_max) of the step's
    grid; 3067 at the paper's defaults."""
    values = next(s.values for s in result.steps if s.id == "lemma2.s5-paper-n-covers")
    assert values["n_at_paper_defaults"] == 3067 and values["violations"] == [] and values["cases"] == 546
    assert len(values["n_paper"]) == 84 == len(values["alphas"]) * len(values["l_max"])  # one n per (alpha, l_max)
    # one case per (alpha, l_max, l <= l_max): 7 alphas * (1 + ... + 12)
    assert values["cases"] == sum(int(key.split("l_max=")[1]) for key in values["n_paper"])
    for key, n in values["n_paper"].items():
        alpha, l_max = (Fraction(part.split("=")[1]) for part in key.split(", "))
        miss = 1 - Fraction(1, 2 ** int(l_max))
        assert miss**n <= 1 - alpha < miss ** (n - 1), key


def test_lemma2_paper_n_covers_states_its_finite_family_and_hypotheses(result):
    """Catches the exhaustive step presented as covering every alpha (it covers a stated finite family; every
    other alpha is the symbolic steps' job) and a grid case outside the lemma's hypotheses counted as evidence."""
    step = next(s for s in result.steps if s.id == "lemma2.s5-paper-n-covers")
    assert step.values["cases_outside_hypotheses"] == [] and "only this finite family" in step.values["family"]
    assert "finite family only" in step.note and "symbolic steps s1-s4" in step.note


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_lemma2_not_containing_c_means_every_position_of_c_perturbed(size):
    """The meaning of 'c not in x_i' (Figure 1: the samples not containing {decent, great} are those 'where both
    tokens are perturbed', line 337): counting the 2**(size + 1) equally likely rows of a document with one more
    token, 'every position of c perturbed' has probability 1/2**|c|, the proof's P(c not in x_i) (line 993), while
    'some word of c perturbed' has 1 - 1/2**|c|, different for |c| >= 2 (equal only at |c| = 1). Catches a check of
    the lemma that reads 'not containing' as 'missing some word of c'."""
    import itertools

    rows = list(itertools.product((0, 1), repeat=size + 1))  # 1 = perturbed; c is the first ``size`` positions
    every = Fraction(sum(all(r[:size]) for r in rows), len(rows))
    some = Fraction(sum(any(r[:size]) for r in rows), len(rows))
    assert every == Fraction(1, 2**size)
    assert (some == every) == (size == 1)


def test_lemma2_hypotheses_are_computed_on_the_case():
    """Catches a hypotheses predicate that does not compute (always True) or decides n >= the lemma's quantity in
    floats: at alpha = 0.95, l_max = 10 the quantity is 3066.13..., so n = 3066 is outside and 3067 inside (decided
    here by (1 - 2**-10)**n against 1/20 in Fractions); p = 9/20 and a size-11 candidate are outside."""
    from proofs_checks.claims.lemmas.lemma2 import statement_hypotheses

    miss = 1 - Fraction(1, 2**10)
    assert miss**3067 <= Fraction(1, 20) < miss**3066
    ok = statement_hypotheses(alpha="0.95", p=Fraction(1, 2), l_max=10, n=3067, sizes=(10,))
    assert ok["satisfies_hypotheses"] and all(ok["hypotheses"].values())
    short = statement_hypotheses(alpha="0.95", p=Fraction(1, 2), l_max=10, n=3066, sizes=(10,))
    assert not short["satisfies_hypotheses"] and not short["hypotheses"]["n_at_least_the_papers_quantity"]
    other_p = statement_hypotheses(alpha="0.95", p=Fraction(9, 20), l_max=10, n=3067, sizes=(10,))
    assert [k for k, v in other_p["hypotheses"].items() if not v] == ["p_is_one_half"]
    large = statement_hypotheses(alpha="0.95", p=Fraction(1, 2), l_max=10, n=3067, sizes=(11,))
    assert [k for k, v in large["hypotheses"].items() if not v] == ["candidates_of_size_1_to_l_max"]


def test_the_proof_lines_the_symbolic_steps_check_are_quoted():
    """Lines 996-998 (the binomial sum, its closed form, the solve for n), which the proof steps compute, are in
    SOURCE. Catches a quote of a checked proof line dropped from SOURCE (the claim map would show it unchecked)."""
    from proofs_checks.claims.lemmas import lemma2

    assert {996, 997, 998} <= {q.line for q in lemma2.SOURCE}
