"""The average document lengths of the experiments' datasets, read from the paper's line 1109 (appendix B.1).

Line 1109: "while the average length of tokens in Restaurants and Tweets is about $10$, for Yelp it is about $150$,
in IMDb it is $230$." The numbers are transcribed (:data:`PRINTED_LENGTHS`), as :mod:`proofs_checks.paper.tables`
transcribes the tables, so that the claims using them run where the paper's source is not shipped (a plain
install); :func:`printed_lengths` parses the line from the source, and a test checks the transcription against it.
"""

from __future__ import annotations

import re

from ...verdicts.quotes import paper_lines

#: The line of fred-paper.tex that prints the average lengths.
LENGTHS_LINE = 1109
#: Line 1109's average lengths in tokens, transcribed (tests/claims/test_exact_drop_cost.py checks them against the
#: source through :func:`printed_lengths`).
PRINTED_LENGTHS = {"restaurants": 10, "tweets": 10, "yelp": 150, "imdb": 230}
_PATTERN = re.compile(r"Restaurants and Tweets is about \$(\d+)\$, for Yelp it is about \$(\d+)\$, in IMDb it is "
                      r"\$(\d+)\$")


def printed_lengths(lines: list[str] | None = None) -> dict[str, int]:
    """The average length in tokens of each dataset, as line 1109 prints it (ValueError when the line does not).

    >>> printed_lengths(["x"] * 1108 + ["Restaurants and Tweets is about $10$, for Yelp it is about $150$, in IMDb "
    ...                                  "it is $230$."])
    {'restaurants': 10, 'tweets': 10, 'yelp': 150, 'imdb': 230}
    """
    lines = paper_lines() if lines is None else lines
    found = _PATTERN.search(" ".join(lines[LENGTHS_LINE - 1].split()))
    if found is None:
        raise ValueError(f"line {LENGTHS_LINE} of the paper does not print the average lengths")
    short, yelp, imdb = (int(g) for g in found.groups())
    return {"restaurants": short, "tweets": short, "yelp": yelp, "imdb": imdb}
