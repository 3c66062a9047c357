"""Every claim quotes the paper, and every quote is the paper's words at the line it gives.

The quotes are module constants (``SOURCE``, and the ``why`` of each reading in ``READINGS``), so these tests read
them without running the checks; the report test checks that the report carries the same quotes.
"""

from __future__ import annotations

import pytest

from proofs_checks.claim_index import CLAIMS, MODULES
from proofs_checks.verdicts.quotes import PAPER_ENV, paper_lines, paper_path, quote_problem, quote_problems
from proofs_checks.verdicts.results import Quote, Reading


def _module(claim_id: str):
    return MODULES[claim_id]


def _quotes(claim_id: str) -> list[Quote]:
    module = _module(claim_id)
    return list(module.SOURCE) + [q for r in getattr(module, "READINGS", ()) for q in r.why]


@pytest.fixture(scope="module")
def lines():
    if paper_path() is None:
        pytest.skip(f"the paper's LaTeX source is absent (set {PAPER_ENV} or place it at ../shared/paper/)")
    return paper_lines()


@pytest.mark.parametrize("claim_id", list(CLAIMS))
def test_every_claim_quotes_the_paper(claim_id):
    """Catches a claim that paraphrases the paper with no quote tying its statement to the words it checks."""
    module = _module(claim_id)
    assert isinstance(module.SOURCE, tuple) and module.SOURCE, f"{claim_id}: SOURCE must hold at least one Quote"
    assert all(isinstance(q, Quote) for q in module.SOURCE)
    assert all(isinstance(r, Reading) for r in getattr(module, "READINGS", ()))


@pytest.mark.parametrize("claim_id", list(CLAIMS))
def test_every_quote_is_the_papers_words_at_its_line(claim_id, lines):
    """Catches a misquote (a paraphrase passed off as the paper's words) and a wrong line number."""
    assert quote_problems(_quotes(claim_id), lines) == []


def test_the_quote_check_refuses_a_paraphrase_and_a_wrong_line(lines):
    """Catches a quote check that accepts anything: a reworded sentence and the right words at the wrong line
    are both refused, while the right words at their line pass (an independent search of the raw lines finds
    the line)."""
    target = "identifying the samples in $x$ with minimal perturbation"
    line = next(k for k, text in enumerate(lines, 1) if target in text)
    assert quote_problem(Quote(line, target), lines) is None
    assert "not in the paper" in quote_problem(Quote(line, "finding the globally minimal perturbation"), lines)
    assert "does not start on this line" in quote_problem(Quote(line + 1, target), lines)
    # whitespace aside: a line break inside a quote compares equal to a space
    assert quote_problem(Quote(line, target.replace(" with ", "\n  with ")), lines) is None
