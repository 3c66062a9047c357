"""Claim eq1-drop-chain (proofs_checks/claims/lemmas/eq1_drop_chain.py; verdict "holds" on the headline reading
'from-mean', the alternative 'from-xi' fails): the steps pinned, the chain recomputed by the tests' own enumeration
(tests/_helpers.drops_by_enumeration, independent of analytic), the counterexample by hand, and the checkers fed a
referee measured from the wrong baseline."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from proofs_checks.claims.lemmas import eq1_drop_chain as claim
from tests._helpers import drops_by_enumeration, step_ending

EXPECTED = {
    "eq1-drop-chain.s1-chain-every-table": ("statement", "symbolic", "holds", None),
    "eq1-drop-chain.s2-chain-any-b": ("proof", "symbolic", "holds", None),
    "eq1-drop-chain.s3-from-xi-counterexample": ("statement", "counterexample", "fails", "from-xi"),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)



def test_every_step_and_the_verdicts_are_pinned(result):
    """Catches a step whose identity stopped holding (or started failing), a step added or dropped, or a headline
    verdict taken from the 'from-xi' reading instead of line 246's drop measured from E[f]."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.verdict) == ("statement", "holds", "holds")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("from-mean", "headline", "holds"), ("from-xi", "alternative", "fails")]
    assert step_ending(result, "s1-chain-every-table").values["cases"] == 1 + 3 + 7 + 15  # 2^b - 1 candidates, b = 1..4


def test_the_chain_by_independent_enumeration_on_random_rational_tables():
    """E[f] - E[f | c perturbed] (the tests' own referee) equals the average of d(x) = E[f] - f(x) over the patterns
    perturbing c, weighted by their probabilities, for random rational tables at p = 1/3 and 1/2, b = 1..4. Catches a
    claim that checks the chain against itself only (this enumeration shares no code with analytic or the claim)."""
    rng = np.random.default_rng(20261202)
    for b, p in itertools.product(range(1, 5), (F(1, 3), F(1, 2))):
        table = [F(int(v), 97) for v in rng.integers(0, 98, size=2**b)]

        def f(z, table=table):
            return table[sum(bit << i for i, bit in enumerate(z))]

        mean, drops = drops_by_enumeration(f, b, p)
        for s, drop in drops.items():
            rows = [z for z in itertools.product((0, 1), repeat=b) if all(z[i] for i in s)]
            w = [p ** sum(z) * (1 - p) ** (b - sum(z)) for z in rows]
            assert drop == sum(wi * (mean - f(z)) for wi, z in zip(w, rows)) / sum(w)
            assert sum(w) == p ** len(s)


def test_the_from_xi_counterexample_by_hand(result):
    """b = 1, f = (0, 1) (f(xi) = 0, perturbed 1), p = 1/2: E[f] = 1/2, E[f | c] = 1, so Eq. (1) gives -1/2 and the
    drop from f(xi) gives -1; the only smaller 0/1 table (0, 0) has f(xi) = E[f]. Catches a counterexample that is
    not the smallest, values misread from the table, or a case outside the hypotheses."""
    values = step_ending(result, "s3-from-xi-counterexample").values
    assert (values["table_by_code"], values["eq1_drop"], values["drop_from_f_xi"]) == ([0, 1], "-1/2", "-1")
    assert (values["E_f"], values["f_xi"], values["tables_before"]) == ("1/2", "0", [[0, 0]])
    assert values["satisfies_hypotheses"] is True
    assert values["offset_identity_holds"] == values["offset_identity_cases"] == 26


def test_a_referee_measured_from_f_xi_is_caught(monkeypatch):
    """The identity step must be able to fail: with the referee's drops measured from f(xi) (baseline 'original')
    instead of E[f], s1 fails. Catches an s1 that never compares with the referee, or compares it with itself."""
    real = claim.all_drops_rational
    monkeypatch.setattr(claim, "all_drops_rational", lambda table, p: real(table, p, baseline="original"))
    assert claim.chain_on_every_table([case for b in claim.B_RANGE for case in claim._chain_cases(b)]).status == "fails"
