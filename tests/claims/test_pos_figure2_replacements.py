"""pos-figure2-replacements (lines 303-309): the left panel's replacements, same tag and opposite dictionary.

The pairs are compared with a hand transcription of the panel, the signs with VADER's lexicon read directly, the
number mismatches with English grammar (a plural noun replaced by a singular one); the checkers are fed planted
panels (a positive token replaced by a positive word) and a stub tagger that disagrees."""

from __future__ import annotations

import pytest

from fred.pos.tagging import vader_lexicon
from proofs_checks.claims.pos import pos_figure2_replacements as claim
from proofs_checks.claims.pos.figure2 import Panel, Row, figure
from proofs_checks.claims.pos.restaurants import missing_packages
from proofs_checks.verdicts.quotes import paper_lines

#: The left panel's pairs by hand (sample: token -> replacement).
PAIRS_BY_HAND = {
    "x_1": {"Poor": "great", "food": "view", "great": "slow"},
    "x_2": {"drinks": "seats", "decent": "bad", "food": "boost", "service": "house"},
    "x_3": {"Poor": "good", "drinks": "table", "decent": "poor", "great": "awful"},
    "x_4": {"Poor": "amazing", "drinks": "spot", "great": "bad", "service": "tips"},
    "x_5": {"decent": "boring", "food": "walk", "great": "inept"},
    "x_n": {"drinks": "space", "decent": "average", "great": "lousy"},
}


@pytest.fixture(scope="module")
def panel():
    try:
        return figure(paper_lines()).panels[0]
    except FileNotFoundError as error:
        pytest.skip(str(error))


def test_pairs_are_the_hand_transcription(panel):
    """Catches a pair list that misses a red cell or pairs a replacement with the wrong token."""
    found: dict[str, dict[str, str]] = {}
    for name, _, token, word in claim.pairs(panel):
        found.setdefault(name, {})[token] = word
    assert found == PAIRS_BY_HAND


def test_opposite_dictionary_checker_refuses_a_same_sign_replacement():
    """Catches a sentiment checker that lets a positive token become a positive word (great -> amazing, the very swap
    line 348 says would not change the prediction)."""
    if missing_packages():
        pytest.skip(f"the pos extra is not installed: {missing_packages()}")
    words = ("Poor", "drinks", "decent", "food", "great", "service")
    planted = Panel((2, 4), Row("xi", words, (False,) * 6, False),
                    (Row("x_1", words[:4] + ("amazing", "service"), (False,) * 4 + (True, False), False),))
    step = claim.opposite_dictionary(claim.sentiments(planted))
    assert step.status == "fails" and step.values["same_sign"] == [["x_1", "great", 1, "amazing", 1]]


def test_tag_checker_refuses_a_tagger_that_disagrees(panel):
    """Catches a tag checker that compares the wrong rows: a stub tagger giving the example VERB everywhere and the
    samples NOUN must make every one of the 21 pairs differ."""
    stub = lambda docs: [tuple(("VERB" if i == 0 else "NOUN") for _ in d) for i, d in enumerate(docs)]
    assert len(claim.tag_mismatches(panel, stub, True)) == 21


@pytest.fixture(scope="module")
def result():
    if missing_packages():
        pytest.skip(f"the pos extra is not installed: {missing_packages()}")
    try:
        paper_lines()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    return claim.check()


def test_headline_holds_and_the_other_readings_fail(result):
    """Catches a wrong headline or a lost reading: the review's coarse tags and the opposite dictionary hold; the table
    as printed, the fine tags and the strictly-opposite reading fail."""
    assert result.status == "holds"
    assert {r.id: result.reading_status(r.id) for r in result.readings} == {
        "review": "holds", "as-printed": "fails", "fine-tags": "fails", "strictly-opposite": "fails"}


def test_strictly_opposite_failures_are_the_lexicon_neutral_replacements(result):
    """Catches signs computed from anything but VADER: the lexicon (read directly) rates 'great' and not 'slow' nor
    'inept', so great -> slow and great -> inept are the two pairs not of the opposite sign."""
    lexicon = vader_lexicon()
    expected = [[name, token, 1, word, 0] for name, row in PAIRS_BY_HAND.items() for token, word in row.items()
                if token == "great" and word not in lexicon]
    step = next(s for s in result.steps if s.id.endswith("s5-strictly-opposite"))
    assert step.values["not_opposite"] == expected == [["x_1", "great", 1, "slow", 0], ["x_5", "great", 1, "inept", 0]]


def test_caveats_lexicon_and_punctuation_are_stated(result):
    """Catches the strictly-opposite failure presented as lexicon-free (it rests on VADER not rating 'slow' and
    'inept', read directly from the lexicon here) and the as-printed reading presented without saying the paper leaves
    the order of tagging and punctuation removal open."""
    step = next(s for s in result.steps if s.id.endswith("s5-strictly-opposite"))
    lexicon = vader_lexicon()
    assert step.values["in_vader_lexicon"] == {w: w in lexicon for w in ("slow", "inept")} == {"slow": False,
                                                                                                "inept": False}
    assert "names no lexicon" in step.note
    printed = next(r for r in result.readings if r.id == "as-printed").meaning
    assert "without commas" in printed and "before or after punctuation is removed" in printed


def test_fine_tag_failures_are_the_number_changes(result):
    """Catches fine tags read from the wrong token: with the review's commas the Penn mismatches are exactly the
    plural/singular swaps a reader sees (drinks -> table, spot, space; service -> tips)."""
    step = next(s for s in result.steps if s.id.endswith("s4-same-fine-tag"))
    assert {(d[1], d[3]) for d in step.values["differing"]} == {
        ("drinks", "table"), ("drinks", "spot"), ("drinks", "space"), ("service", "tips")}
