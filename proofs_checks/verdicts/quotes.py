"""The paper's LaTeX source, and the check that a claim's quotes are its words.

A :class:`~proofs_checks.verdicts.results.Quote` is ``(line, text)``: ``text`` must occur verbatim in
``fred-paper.tex``, whitespace aside (runs of spaces and line breaks compare equal to one space), and must start
on the 1-based ``line``. The paper is not this project's to ship: the file is found at ``$FRED_PAPER`` or, in a
source checkout only (a ``pyproject.toml`` beside the package), at ``<checkout>/../shared/paper/fred-paper.tex``; an
installed package has no checkout, so it needs the variable.

>>> lines = ["Then, as $n \\\\to \\\\infty$, the empirical", "drop converges."]
>>> from proofs_checks.verdicts.results import Quote
>>> quote_problem(Quote(1, "the empirical drop converges"), lines) is None
True
>>> quote_problem(Quote(2, "the empirical drop"), lines)
'line 2: the text does not start on this line (found on line 1)'
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .results import Quote

#: The variable naming the paper's LaTeX source.
PAPER_ENV = "FRED_PAPER"
_CHECKOUT = Path(__file__).resolve().parents[2]
#: Where a source checkout keeps the paper; None in an installed package (no checkout around it).
_IN_CHECKOUT = (_CHECKOUT.parent / "shared" / "paper" / "fred-paper.tex"
                if (_CHECKOUT / "pyproject.toml").is_file() else None)


def paper_path() -> Path | None:
    """``$FRED_PAPER``, else the checkout's ``../shared/paper/fred-paper.tex``; None when neither exists."""
    env = os.environ.get(PAPER_ENV)
    candidate = Path(env) if env else _IN_CHECKOUT
    return candidate if candidate is not None and candidate.is_file() else None


def paper_lines(path: Path | None = None) -> list[str]:
    """The paper's lines (line ``k`` is ``lines[k - 1]``); FileNotFoundError naming where it looked."""
    path = path or paper_path()
    if path is None:
        where = f" or place it at {_IN_CHECKOUT}" if _IN_CHECKOUT is not None else ""
        raise FileNotFoundError(f"fred-paper.tex, the paper's LaTeX source (not shipped with the package), was not "
                                f"found: set {PAPER_ENV} to its path{where}")
    return Path(path).read_text(encoding="utf-8").splitlines()


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def quote_problem(quote: Quote, lines: list[str]) -> str | None:
    """Why ``quote`` is not the paper's words at its line (None when it is)."""
    if quote.line > len(lines):
        return f"line {quote.line}: the paper has {len(lines)} lines"
    target = _squash(quote.text)
    # The squashed text from the quote's line on; a blank line after the first adds nothing (a run of line breaks
    # is one space), and a match starting within the first piece starts on the quote's line.
    pieces, length = [], 0
    for line in lines[quote.line - 1:]:
        piece = _squash(line)
        if pieces and not piece:
            continue
        pieces.append(piece)
        length += len(piece) + 1
        if length > len(target) + len(pieces[0]) + 1:
            break
    at = " ".join(pieces).find(target)
    if at != -1 and at <= len(pieces[0]):
        return None
    squashed = ((k, _squash(line)) for k, line in enumerate(lines, 1))
    kept = [(k, piece) for k, piece in squashed if piece]  # blank lines add nothing
    whole = " ".join(piece for _, piece in kept)
    if target not in whole:
        return f"line {quote.line}: the text is not in the paper: {quote.text[:80]!r}"
    offsets, total = [], 0
    for _, piece in kept:
        offsets.append(total)
        total += len(piece) + 1
    found = whole.find(target)
    line_of = kept[max(i for i, o in enumerate(offsets) if o <= found)][0]
    return f"line {quote.line}: the text does not start on this line (found on line {line_of})"


def quote_problems(quotes, lines: list[str] | None = None) -> list[str]:
    """Every quote of ``quotes`` that is not the paper's words at its line, as messages (empty: all are)."""
    lines = paper_lines() if lines is None else lines
    return [p for p in (quote_problem(q, lines) for q in quotes) if p is not None]
