"""The tests' own reading of the paper's comparison tables, straight from the LaTeX source and independent of
proofs_checks.paper.tables (shared by the tests of the claims computed on the paper's tables).

Each number is kept as the exact decimal printed (a Fraction), with the 1-based line of its row.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pytest

TEX = Path(__file__).resolve().parents[3] / "shared" / "paper" / "fred-paper.tex"
COLUMNS = ("sufficiency", "comprehensiveness", "robustness", "aucmorf", "time", "proportion")
#: +1 when the column's header arrow is up (higher is better), -1 when down, read from the header line.
_ARROWS = {r"\uparrow": 1, r"\downarrow": -1}


class Row(NamedTuple):
    line: int
    means: dict[str, Fraction]
    sds: dict[str, Fraction]


class Table(NamedTuple):
    label: str
    caption: str
    arrows: dict[str, int]
    rows: dict[str, Row]

    @property
    def documents(self) -> int:
        """The caption's ``$n=...$``, else the appendix's 100 documents."""
        found = re.search(r"\$n=(\d+)\$", self.caption)
        return int(found.group(1)) if found else 100


def tex_tables() -> dict[str, Table]:
    """Every ``exp-tab:`` table of the source: its rows by explainer and its header arrows; skips the calling test
    when the source is absent."""
    if not TEX.is_file():
        pytest.skip(f"the paper's source {TEX} is not here")
    lines = TEX.read_text(encoding="utf-8").splitlines()
    tables, current = {}, None
    for number, text in enumerate(lines, 1):
        label = re.search(r"\\label\{(exp-tab:[^}]+)\}", text)
        if label:
            current = Table(label.group(1), lines[number], {}, {})
            tables[current.label] = current
            continue
        if current is None:
            continue
        if r"\texttt{suffic.}" in text:
            arrows = re.findall(r"\\(uparrow|downarrow)", text)
            current.arrows.update({c: _ARROWS["\\" + a] for c, a in zip(COLUMNS, arrows)})
        row = re.match(r"^(fred|fredpos|lime|shap|anchor) &(.*)\\\\", text.strip())
        if row:
            cells = re.findall(r"\$(-?\d+\.\d+) \((\d+\.\d+)\)\$", row.group(2))
            assert len(cells) == len(COLUMNS), (number, text)
            current.rows[row.group(1)] = Row(number, {c: Fraction(m) for c, (m, _) in zip(COLUMNS, cells)},
                                             {c: Fraction(s) for c, (_, s) in zip(COLUMNS, cells)})
        if r"\end{table}" in text:
            current = None
    return tables
