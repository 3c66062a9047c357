"""The paper's Figure 2 (``fig:sampling-scheme``, lines 292-340), read from the LaTeX source: its panels, row by row.

It is the paper's second figure (the first, ``fig:fred-exp`` at line 114, is the review explained).

Each panel is a ``NiceTabular`` whose first row names the positions (the highlighted ones, the candidate, carry a
``\\Block[draw=red...]``), whose second row is the example xi and whose next rows are the samples x_1, ..., x_n (a
``\\vdots`` row stands for the samples not printed). A cell is *perturbed* when it is coloured red (``\\color{red}``);
a row is *gray* when it starts with ``\\rowcolor{gray!15}``. The caption's list of averaged drops is the
``\\drop(x_k)`` of its last sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...verdicts.quotes import paper_lines
from ...verdicts.results import Quote

#: The example row of the left panel, the document of lines 348-349 ("in the example of Figure 2").
EXAMPLE = Quote(301, r"$\xi$ & Poor & drinks & \textbf{decent} \color{black} & food & \textbf{great} \color{black} & "
                     r"service & $\drop(\xi)$")
#: Line 349, what the opposite-sentiment replacement of the example's 'great' is for (lines 347-349, 387).
HIGHLIGHT = Quote(349, r"Contrarily, replacing it with \say{bad} or \say{awful} will highlight its impact.")
#: The lines of the figure's environment (1-based, inclusive) and of its caption's last sentence.
FIGURE_LINES = (292, 340)
CAPTION_LIST_LINE = 338
#: The caption's line naming the candidate's words.
CAPTION_CANDIDATE_LINE = 336
_ROW = re.compile(r"^\s*(\\rowcolor\{gray!15\})?\s*\$(x_\w+|\\xi)\$\s*&(.*)\\\\\s*$")
_WORD = re.compile(r"\\(?:textbf|texttt|color\{red\})\{([^{}]*)\}|\\color\{\w+\}|\\texttt|[{}]")


@dataclass(frozen=True)
class Row:
    """One printed row: its name (``xi``, ``x_1``...), its words, which positions are red, whether it is gray."""

    name: str
    words: tuple[str, ...]
    red: tuple[bool, ...]
    gray: bool

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"name": self.name, "words": list(self.words), "red": list(self.red), "gray": self.gray}


@dataclass(frozen=True)
class Panel:
    """A panel: the highlighted positions (0-based), the example and the printed samples."""

    highlighted: tuple[int, ...]
    example: Row
    samples: tuple[Row, ...]


def cell_word(cell: str) -> tuple[str, bool]:
    r"""The word a cell prints and whether it is red.

    >>> cell_word(r"\color{red}{good} "), cell_word(r"\color{red}\texttt{UNK}")
    (('good', True), ('UNK', True))
    >>> cell_word(r"\textbf{great} \color{black}")
    ('great', False)
    """
    red = r"\color{red}" in cell
    return _WORD.sub(lambda m: m.group(1) or "", cell).strip(), red


def parse_row(line: str) -> Row | None:
    r"""The row a table line prints (None for another line); the last cell (the drop) is left out.

    >>> parse_row(r"\rowcolor{gray!15} $x_3$ & \color{red}{good} & food & $\drop(x_3)$ \\")
    Row(name='x_3', words=('good', 'food'), red=(True, False), gray=True)
    """
    match = _ROW.match(line)
    if match is None:
        return None
    cells = [cell_word(c) for c in match.group(3).split("&")[:-1]]
    name = "xi" if match.group(2) == r"\xi" else match.group(2)
    return Row(name, tuple(w for w, _ in cells), tuple(r for _, r in cells), bool(match.group(1)))


def parse_panels(lines: list[str]) -> tuple[Panel, ...]:
    """The figure's panels, in the order of the source (left: pos-sampling, right: mask-sampling)."""
    first, last = FIGURE_LINES
    panels, header, rows = [], None, []
    for line in lines[first - 1:last]:
        if r"\begin{NiceTabular}" in line:
            header, rows = None, []
        elif r"\Block[draw=red" in line:
            cells = line.split("&")[1:]
            header = tuple(j for j, c in enumerate(cells) if r"\Block[draw=red" in c)
        elif r"\end{NiceTabular}" in line:
            panels.append(Panel(header, rows[0], tuple(rows[1:])))
        elif (row := parse_row(line)) is not None:
            rows.append(row)
    return tuple(panels)


def caption_list(lines: list[str]) -> tuple[str, ...]:
    r"""The samples whose drops the caption's last sentence averages (``\drop(x_3)`` -> ``x_3``), in its order."""
    return tuple(f"x_{k}" for k in re.findall(r"\\drop\(x_(\w+)\)", lines[CAPTION_LIST_LINE - 1]))


def caption_candidate(lines: list[str]) -> tuple[str, ...]:
    r"""The words the caption says the candidate consists of (its ``\emph{...}`` words)."""
    return tuple(re.findall(r"\\emph\{(\w+)\}", lines[CAPTION_CANDIDATE_LINE - 1]))


@dataclass(frozen=True)
class Figure:
    """The panels, the caption's candidate words and its list of averaged samples."""

    panels: tuple[Panel, ...]
    candidate: tuple[str, ...]
    averaged: tuple[str, ...]


def figure(lines: list[str] | None = None) -> Figure:
    """Figure 2 read from the paper's source (FileNotFoundError when it is absent)."""
    lines = paper_lines() if lines is None else lines
    return Figure(parse_panels(lines), caption_candidate(lines), caption_list(lines))
