"""Claim exact-drop-cost (proofs_checks/claims/algorithm1/exact_drop_cost.py; verdict "holds" on the headline reading
'large-documents', the stronger 'always-cheaper' fails, the alternative 'no-search' holds at the large documents): the steps pinned, n = 3067,
the powers of two, the candidate counts and the dependence on every pattern recomputed independently, and the
checkers fed planted lengths."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from fred.search import count_candidates
from proofs_checks.claims.algorithm1 import document_lengths
from proofs_checks.claims.algorithm1 import exact_drop_cost as claim
from tests._helpers import drops_by_enumeration, step_ending

EXPECTED = {
    "exact-drop-cost.s1-every-pattern-needed": ("proof", "symbolic", "holds", None),
    "exact-drop-cost.s2-calls-suffice": ("proof", "exhaustive", "holds", None),
    "exact-drop-cost.s3-large-documents": ("statement", "exhaustive", "holds", "large-documents"),
    "exact-drop-cost.s4-always-cheaper": ("statement", "counterexample", "fails", "always-cheaper"),
    "exact-drop-cost.s5-search-cut-by-l-max": ("statement", "exhaustive", "holds", "no-search"),
    "exact-drop-cost.s6-every-pattern-any-b": ("proof", "symbolic", "holds", None),
}


@pytest.fixture(scope="module")
def result(reference_runs):
    return reference_runs.result(claim.CLAIM)



def test_every_step_and_the_verdicts_are_pinned(result):
    """Catches a step whose outcome changed, a step added or dropped, a headline taken from the strict reading
    ('always cheaper') rather than line 263's 'for large documents', or 'no search' judged on short documents (a
    straw man: the sentence is about large ones)."""
    assert {s.id: (s.role, s.evidence, s.status, s.reading) for s in result.steps} == EXPECTED
    assert (result.kind, result.status, result.verdict) == ("statement", "holds", "holds")
    assert [(r.id, r.role, result.reading_status(r.id)) for r in result.readings] == [
        ("large-documents", "headline", "holds"), ("always-cheaper", "stronger", "fails"),
        ("no-search", "alternative", "holds")]


def test_the_papers_n_and_the_crossing_by_hand(result):
    """n = 3067 is the smallest n with 1 - (1023/1024)^n >= 19/20 (Fractions at n - 1 and n), 2^11 = 2048 < 3067 <
    4096 = 2^12, and log10(2^150) = 45.15, log10(2^230) = 69.24. Catches a wrong n (e.g. Lemma 2 at another
    l_max), an off-by-one crossing, or lengths misread from line 1109."""
    assert 1 - F(1023, 1024) ** 3067 >= F(19, 20) > 1 - F(1023, 1024) ** 3066
    values = step_ending(result, "s3-large-documents").values
    assert (values["n"], values["smallest_b_with_2b_above_n"]) == (3067, 12)
    assert values["by_dataset"]["yelp"]["log10_exact_calls"] == round(150 * math.log10(2), 2) == 45.15
    assert values["by_dataset"]["imdb"]["log10_ratio_to_n"] == round(230 * math.log10(2) - math.log10(3067), 2)
    cheaper = step_ending(result, "s4-always-cheaper").values
    assert cheaper["exact_cheaper_for_b"] == list(range(1, 12))
    assert cheaper["printed_lengths_where_exact_is_cheaper"] == ["restaurants", "tweets"]
    assert cheaper["satisfies_hypotheses"] is True


def test_algorithm1_candidate_counts_against_freds_own_count():
    """sum_{k <= 10} C(b, k) against fred.search.count_candidates (separate code) at the printed lengths and every
    b <= 12, and 2^b - 1 for b <= 10. Catches a count that forgets the cap l_max or counts the empty set."""
    for b in (*range(1, 13), 150, 230):
        assert claim.algorithm1_candidates(b) == count_candidates(b, 10)
    assert all(claim.algorithm1_candidates(b) == 2**b - 1 for b in range(1, 11))
    assert claim.algorithm1_candidates(11) == 2**11 - 2  # the whole document (size 11) is no longer searched


def test_every_pattern_moves_every_drop_by_independent_enumeration():
    """Raising f at any one pattern by 1 changes the exact drop of every candidate (tests' own enumeration, b = 3,
    p = 1/3, a random rational table): s1's 'no pattern can be skipped'. Catches a non-zero coefficient claimed
    where the drop does not in fact move."""
    table = [F(k, 11) for k in (3, 7, 1, 9, 4, 0, 10, 6)]
    _, base = drops_by_enumeration(lambda z: table[z[0] + 2 * z[1] + 4 * z[2]], 3, F(1, 3))
    for code in range(8):
        bumped = [v + (1 if i == code else 0) for i, v in enumerate(table)]
        _, moved = drops_by_enumeration(lambda z, t=bumped: t[z[0] + 2 * z[1] + 4 * z[2]], 3, F(1, 3))
        assert all(moved[c] != base[c] for c in base)


def test_planted_lengths_are_caught(monkeypatch):
    """With every printed length 10 (no large document), s3 cannot hold; a line without the lengths is refused.
    Catches a headline step that passes with no large document at all, or a parser that invents lengths."""
    assert claim.large_documents({"restaurants": 10, "tweets": 10}, claim.paper_n()).status != "holds"
    with pytest.raises(ValueError, match="does not print the average lengths"):
        document_lengths.printed_lengths(["x"] * 1110)
    assert document_lengths.printed_lengths() == document_lengths.PRINTED_LENGTHS  # the transcription is line 1109's


def test_the_search_at_the_large_lengths_by_hand(result):
    """sum_{k <= 10} C(150, k) = 1.2581e15 < 2^150 - 1 = 1.4272e45, sum_{k <= 10} C(230, k) = 9.8030e16 < 2^230 - 1;
    without the cap (k <= b) the sums are 2^b - 1 (binomial theorem). Catches a 'no-search' step judged at b <= 10
    (the old straw-man counterexample b = 1), a count that forgets the cap, or an 'uncapped' count that is not the
    whole search."""
    values = step_ending(result, "s5-search-cut-by-l-max").values["at_large_lengths"]
    assert set(values) == {"yelp", "imdb"}
    for name, b in (("yelp", 150), ("imdb", 230)):
        capped = sum(math.comb(b, k) for k in range(11)) - 1
        assert values[name]["algorithm1_candidates"] == f"{capped:.4e}"
        assert values[name]["all_candidates"] == values[name]["uncapped_candidates"] == f"{2**b - 1:.4e}"
        assert values[name]["satisfies_hypotheses"] is True
    assert values["yelp"]["algorithm1_candidates"] == "1.2581e+15"
    assert claim.search_cut_by_l_max({"restaurants": 10, "tweets": 10}).status != "holds"


def test_every_coefficient_is_non_zero_at_b_150_in_fractions(result):
    """s6 says w_z (1 - 1{z contains c} / p^k) != 0 for every b; here in Fractions at b = 150 (the Yelp length) for
    p in {1/10, 1/2, 9/10}, every j in 0..150 and k in 1..10 with z containing c. Catches an s6 whose sympy
    answer ('positive', 'no root') is not what holds at the headline's b (e.g. a weight that vanishes)."""
    assert step_ending(result, "s6-every-pattern-any-b").values == {
        "weight_positive": True, "roots_of_p_power_k_equal_1_in_unit_interval": "EmptySet"}
    for p in (F(1, 10), F(1, 2), F(9, 10)):
        for j in range(151):
            w = p**j * (1 - p) ** (150 - j)
            assert w > 0 and all(w * (1 - 1 / p**k) != 0 for k in range(1, min(j, 10) + 1))
