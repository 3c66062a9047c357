"""pos-opposite-sentiment (lines 347, 351, 357): a polar token gets a truly opposite word only with probability
|opp| / (|opp| + |neu|), the neutral words being in both dictionaries.

The probabilities are compared with set algebra on the reference's own two dictionaries (D- minus D+ is the negative
words), with a hand-built toy corpus (stub tagger and polarity, no spaCy) and with VADER's lexicon read directly; the
claim's checker is fed a planted sampler whose pools leave the neutral words out."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from fred.pos import PosSampler
from fred.pos.tagging import vader_lexicon
from proofs_checks.claims.pos import pos_opposite_sentiment as claim
from proofs_checks.claims.pos import restaurants
from proofs_checks.claims.pos.restaurants import missing_data, missing_packages, pos_setting

#: A toy corpus: tags and polarities by hand (ADJ: 1 positive, 2 negative, 3 neutral words).
TOY = ["good bad awful red big new", "food"]
TOY_TAGS = {"good": "ADJ", "bad": "ADJ", "awful": "ADJ", "red": "ADJ", "big": "ADJ", "new": "ADJ", "food": "NOUN"}
TOY_SIGNS = {"good": 1, "bad": -1, "awful": -1}


def toy_sampler() -> PosSampler:
    return PosSampler(TOY, tagger=lambda docs: [tuple(TOY_TAGS[w.lower()] for w in d) for d in docs],
                      polarity=lambda w: TOY_SIGNS.get(w.lower(), 0))


def test_exact_probability_is_the_hand_fraction():
    """Catches a formula that forgets the neutral words (2/2 = 1) or counts the token's own category: a positive ADJ
    of the toy corpus has 2 negative and 3 neutral candidates, 2/5; a negative one 1 positive and 3 neutral, 1/4."""
    categories = {("ADJ", 1): {"good"}, ("ADJ", -1): {"bad", "awful"}, ("ADJ", 0): {"red", "big", "new"}}
    assert claim.exact_probability(categories, "ADJ", 1) == Fraction(2, 5)
    assert claim.exact_probability(categories, "ADJ", -1) == Fraction(1, 4)
    assert claim.exact_probability(categories, "NOUN", 1) == 0  # no pool at all


@pytest.mark.statistical
def test_reference_draw_rate_on_the_toy_corpus_is_two_fifths():
    """Catches a sampler that draws from the strictly opposite words (rate 1) or from the whole tag (3 + 2 + ... ):
    the reference's rate of negative replacements of 'good' is 2/5, by a binomial test at 1e-6 on 20000 draws."""
    sampler, n = toy_sampler(), 20_000
    perturbed = np.zeros((n, 6), dtype=bool)
    perturbed[:, 0] = True
    rows = sampler.render(TOY[0].split(), perturbed, np.random.default_rng(11))
    k = sum(row.split()[0] in ("bad", "awful") for row in rows)
    assert stats.binomtest(k, n, 0.4).pvalue > 1e-6


def test_pools_checker_refuses_pools_without_the_neutral_words():
    """Catches a checker that would pass a sampler drawing only strictly opposite words (the stronger reading's
    sampler): its pools differ from line 351's dictionaries."""
    categories = {("ADJ", 1): {"good"}, ("ADJ", -1): {"bad"}, ("ADJ", 0): {"red"}}
    strict = {("ADJ", 1): ("bad",), ("ADJ", -1): ("good",), ("ADJ", 0): ("bad", "good", "red")}
    planted = SimpleNamespace(dictionaries=SimpleNamespace(pool=lambda tag, sign: strict[(tag, sign)]))
    step = claim.pools_as_defined(planted, categories)
    assert step.status == "fails" and sorted(step.values["differing"]) == [["ADJ", -1], ["ADJ", 1]]


def test_corpus_categories_by_hand():
    """Catches categories keyed by the wrong tag or sign (VADER: 'great' positive, 'bad' negative, 'food' not rated)."""
    if missing_packages():
        pytest.skip(f"the pos extra is not installed: {missing_packages()}")
    found = claim.corpus_categories(["great food", "bad food"], [("ADJ", "NOUN"), ("ADJ", "NOUN")])
    assert dict(found) == {("ADJ", 1): {"great"}, ("ADJ", -1): {"bad"}, ("NOUN", 0): {"food"}}


@pytest.fixture(scope="module")
def result():
    if missing_packages() or missing_data():
        pytest.skip(f"needs the pos extra and the Restaurants file: {missing_packages() or missing_data()}")
    return claim.check()


def test_fails_in_part_line_347_fails_and_the_dictionaries_hold(result):
    """Catches line 347 demoted to a 'stronger reading' again (the headline then 'holds' while the paper's own plain
    sentence, relied on by lines 348-349, fails) and a part mechanism that loses a part: the verdict names both parts,
    the dictionaries (s1, s2) holding and the opposite sentiment (s3, s4) failing; the minimal counterexample is kept."""
    assert result.status == "fails" and [r.id for r in result.readings] == ["as-written"]
    assert result.verdict == ("fails in part: dictionaries as defined (lines 351, 357) holds; opposite sentiment "
                              "(line 347) fails")
    assert {s.id.split(".")[1]: (s.status, s.part) for s in result.steps} == {
        "s1-pools-as-defined": ("holds", claim.DICTIONARIES), "p1-probability-exact": ("holds", None),
        "s2-draw-rate": ("holds", claim.DICTIONARIES), "s3-always-opposite": ("fails", claim.OPPOSITE),
        "s4-minimal-counterexample": ("fails", claim.OPPOSITE)}
    case = result.counterexample
    assert case["document"] == "great" and case["replacement"] == "only" and case["satisfies_hypotheses"]


def test_part_shares_are_the_reviewers_numbers_by_set_algebra(result):
    """Catches a wrong share in line 347's failure: the mean over the corpus' polar occurrences is 13.5% and a
    positive adjective's 15.7% (48 negative of 48 + 258 ADJ words in the opposite dictionary, by hand), and the
    figure's great -> inept is neutral in VADER's lexicon (read directly); great -> slow is no longer offered as an
    example (TextBlob, the released code's lexicon, rates 'slow' negative)."""
    values = next(s for s in result.steps if s.id.endswith("s3-always-opposite")).values
    assert round(values["mean_over_occurrences"], 3) == 0.135
    assert round(values["by_category"]["ADJ +"]["probability"], 3) == round(48 / 306, 3) == 0.157
    lexicon = vader_lexicon()
    assert values["figure2_replacements_of_great"] == {"inept": 0}
    assert "inept" not in lexicon


def test_probabilities_match_the_reference_dictionaries_set_algebra(result):
    """Catches probabilities computed from the wrong sets: for a positive token of tag t the pool is D-_t and its
    negative words are D-_t minus D+_t, so P = |D-_t - D+_t| / |D-_t| (and symmetrically), from the reference's own
    dictionaries, not the claim's categories."""
    d = pos_setting().sampler.dictionaries
    table = next(s for s in result.steps if s.id.endswith("s3-always-opposite")).values["by_category"]
    for key, row in table.items():
        tag, sign = key.split()
        pool, other = (d.negative, d.positive) if sign == "+" else (d.positive, d.negative)
        expected = len(set(pool.get(tag, ())) - set(other.get(tag, ()))) / len(pool.get(tag, ()))
        assert row["probability"] == pytest.approx(expected, abs=1e-12), key
    assert table["ADJ +"]["probability"] == pytest.approx(48 / (48 + 258))  # this corpus: 48 negative, 258 neutral


def test_mean_over_occurrences_is_the_weighted_mean(result):
    """Catches a mean over categories instead of over the corpus' polar tokens."""
    values = next(s for s in result.steps if s.id.endswith("s3-always-opposite")).values
    rows = values["by_category"].values()
    weighted = sum(r["probability"] * r["occurrences"] for r in rows) / sum(r["occurrences"] for r in rows)
    assert values["mean_over_occurrences"] == pytest.approx(weighted)
    assert values["polar_occurrences"] == sum(r["occurrences"] for r in rows)


def test_counterexample_is_a_non_negative_adjective_by_the_lexicon(result):
    """Catches a counterexample outside the hypotheses or not one: 'great' is positive in VADER's lexicon (read
    directly) and its replacement is a word of the ADJ dictionary with a non-negative valence."""
    case = next(s for s in result.steps if s.id.endswith("s4-minimal-counterexample")).values
    lexicon = vader_lexicon()
    assert lexicon["great"] > 0 and lexicon.get(case["replacement"], 0.0) >= 0
    assert case["satisfies_hypotheses"] and case["tag"] == "ADJ"


def test_draw_counts_are_binomial_around_the_exact_probability(result):
    """Catches a statistical step reporting draws that do not come from the exact law: every category's count is
    within a two-sided binomial test at 1e-6 / categories of its exact probability (scipy's exact test, not the
    claim's Clopper-Pearson)."""
    step = next(s for s in result.steps if s.id.endswith("s2-draw-rate")).values
    seen = step["by_category"]
    for key, row in seen.items():
        p = stats.binomtest(row["opposite_draws"], step["draws"], row["exact"]).pvalue if 0 < row["exact"] else (
            1.0 if row["opposite_draws"] == 0 else 0.0)
        assert p > 1e-6 / len(seen), key
    assert Counter(k.split()[0] for k in seen)["ADJ"] == 2


def test_without_the_pos_extra_the_claim_is_not_run(monkeypatch):
    """Catches a claim that would crash, or pass, without the pos extra: with a package of the extra missing, its
    headline step is inconclusive (installed: False, the package and the install command named) and the verdict
    'inconclusive'."""
    monkeypatch.setitem(restaurants.POS_PACKAGES, "no-such-package", "no_such_module_for_this_test")
    result = claim.check()
    (step,) = result.steps
    assert result.status == "inconclusive" and step.status == "inconclusive"
    assert step.values["installed"] is False and "no-such-package" in step.note and "fred-theory[pos]" in step.note


def test_without_the_data_file_the_claim_is_not_run(monkeypatch, tmp_path):
    """Catches a claim that reads a data file that is not there: with FRED_DATA_DIR pointing at an empty directory the
    headline step says 'Not run here' and names the file (argued, so the verdict is not 'holds')."""
    if missing_packages():
        pytest.skip(f"the pos extra is not installed: {missing_packages()}")
    monkeypatch.setenv("FRED_DATA_DIR", str(tmp_path))
    result = claim.check()
    assert result.steps[0].status == "argued" and "restaurants.tsv" in result.steps[0].note
    assert result.status != "holds"


def test_wording_overstates_vader_specific_and_quotes_line_by_line(result):
    """Catches 'contradicts' where line 347 overstates the scheme lines 351/357 specify, the rates presented as the
    paper's where they are VADER's (the paper names no lexicon; the released fred/replacer.py uses TextBlob), the
    dropped great -> slow example coming back, and a quote labelled line 344 that runs over line 345: each quote
    is one line of the .tex, read here directly."""
    from proofs_checks.verdicts.quotes import paper_lines

    lines = paper_lines()
    assert claim.SAME_TAG.text == lines[343].strip() and claim.SAME_TAG_345.text in lines[344]
    notes = " ".join(s.note for s in result.steps) + result.statement + " ".join(r.meaning for r in result.readings)
    assert "contradict" not in notes and "overstates the scheme lines 351/357 specify" in notes
    s3 = next(s for s in result.steps if s.id.endswith("s3-always-opposite")).note
    assert "VADER-specific" in s3 and "TextBlob" in s3 and "slow" not in s3
