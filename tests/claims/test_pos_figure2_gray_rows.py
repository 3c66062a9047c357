"""pos-figure2-gray-rows (lines 333-338): Figure 2's gray rows, shared patterns and the caption's averaged drops.

The parser is compared with a transcription of the figure written here by hand (positions 1-based, as printed), and
the claim's checkers are fed the paper's source with planted changes: a gray row made white, a caption listing the
wrong sample, a panel with one cell perturbed differently."""

from __future__ import annotations

import pytest

from proofs_checks.claims.pos import pos_figure2_gray_rows as claim
from proofs_checks.claims.pos.figure2 import figure
from proofs_checks.verdicts.quotes import paper_lines

#: The figure's rows by hand: the red positions (1-based) of each printed sample, and the gray ones.
RED_BY_HAND = {"x_1": [1, 4, 5], "x_2": [2, 3, 4, 6], "x_3": [1, 2, 3, 5], "x_4": [1, 2, 5, 6], "x_5": [3, 4, 5],
               "x_n": [2, 3, 5]}
GRAY_BY_HAND = ["x_3", "x_5", "x_n"]
LEFT_WORDS_BY_HAND = {"x_3": ["good", "table", "poor", "food", "awful", "service"],
                      "x_n": ["Poor", "space", "average", "food", "lousy", "service"]}


@pytest.fixture(scope="module")
def lines():
    try:
        return paper_lines()
    except FileNotFoundError as error:
        pytest.skip(str(error))


def test_parser_reads_the_figure_as_transcribed_by_hand(lines):
    """Catches a parser that drops a row, misreads a red cell (the right panel's \\color{red}\\texttt{UNK}) or the
    gray marks: both panels' red positions and gray rows equal the hand transcription."""
    seen = figure(lines)
    for panel in seen.panels:
        assert {r.name: [j + 1 for j, red in enumerate(r.red) if red] for r in panel.samples} == RED_BY_HAND
        assert [r.name for r in panel.samples if r.gray] == GRAY_BY_HAND
        assert panel.highlighted == (2, 4)
    assert {r.name: list(r.words) for r in seen.panels[0].samples if r.name in LEFT_WORDS_BY_HAND} == LEFT_WORDS_BY_HAND
    assert seen.averaged == ("x_3", "x_5", "x_n") and seen.candidate == ("decent", "great")


def test_claim_holds_on_the_paper(lines):
    """Catches a wrong verdict on the figure as printed: by hand, the gray rows are x_3, x_5, x_n, exactly those
    with both positions 3 and 5 red, and the caption lists them."""
    both = [name for name, red in RED_BY_HAND.items() if {3, 5} <= set(red)]
    assert both == GRAY_BY_HAND
    result = claim.check()
    assert result.status == "holds" and all(s.status == "holds" for s in result.steps)


def _planted(lines, old: str, new: str, occurrence: int = 0) -> list[str]:
    hits = [i for i, line in enumerate(lines) if old in line and 291 <= i < 340]
    changed = list(lines)
    changed[hits[occurrence]] = changed[hits[occurrence]].replace(old, new, 1)
    return changed


def test_a_white_row_with_both_tokens_perturbed_is_refused(lines):
    """Catches a checker that passes a figure where a sample with both tokens perturbed is not gray."""
    seen = figure(_planted(lines, r"\rowcolor{gray!15} $x_5$", "$x_5$"))
    assert claim.gray_rows(seen).status == "fails" and claim.no_candidate_word(seen).status == "fails"
    assert claim.caption_list(seen).status == "fails"


def test_a_caption_listing_another_sample_is_refused(lines):
    """Catches a checker that ignores the caption's list: x_4 (a white row) in place of x_5."""
    changed = list(lines)
    changed[337] = changed[337].replace(r"$\drop(x_5)$", r"$\drop(x_4)$")
    assert claim.caption_list(figure(changed)).status == "fails"


def test_panels_with_different_patterns_are_refused(lines):
    """Catches a checker that compares the panels' words instead of their perturbation patterns: the right panel's
    x_1 with position 6 masked too."""
    changed = _planted(lines, r"\color{red}\texttt{UNK} & service & $\drop(x_1)$",
                       r"\color{red}\texttt{UNK} & \color{red}\texttt{UNK} & $\drop(x_1)$")
    step = claim.panels_share_patterns(figure(changed))
    assert step.status == "fails" and step.values["differing_rows"] == ["x_1"]
