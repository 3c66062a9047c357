"""The one Markdown table writer of the project (reports, evaluation summaries, benchmarks, tools)."""

from __future__ import annotations

from typing import Sequence


def cell(value: object) -> str:
    """Text safe inside a Markdown table cell: ``|`` escaped, newlines folded.

    >>> cell("a|b\\nc")
    'a\\\\|b c'
    """
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(header: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub-flavoured Markdown table; every cell goes through :func:`cell`.

    >>> print(markdown_table(["a", "b"], [[1, "x|y"]]))
    | a | b |
    |---|---|
    | 1 | x\\|y |
    """
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
