"""Figure 2's caption (lines 333-338): the gray rows are the samples where both tokens of the candidate {decent, great}
are perturbed, the two panels perturb the same positions, and the drops averaged are those of the gray rows.

Checked on the figure as the LaTeX source prints it (:mod:`.figure2`): every printed row of both panels (the
``\\vdots`` row stands for samples not printed, about which the figure says nothing).
"""

from __future__ import annotations

from ...verdicts.results import Claim, ClaimResult, Quote, StepResult
from .figure2 import Figure, figure

CLAIM = Claim("pos-figure2-gray-rows", new=True)
SOURCE = (
    Quote(337, r"The samples where both tokens are perturbed are highlighted in gray."),
    Quote(338, r"The empirical drop associated to \{\emph{decent}, \emph{great}\} is therefore computed by averaging "
               r"$\drop(x_3)$, $\drop(x_5)$, $\ldots$ $\drop(x_n)$."),
    Quote(335, r"Finally, the empirical drop $\Empdrop_{\candidate}$ of a candidate is computed by averaging the drops "
               r"over the samples that do not contain $\candidate$."),
    Quote(336, r"In the example, the candidate consists of the words \emph{decent} and \emph{great}."),
    Quote(333, r"\caption{Illustration of FRED's \texttt{pos-sampling} scheme (left panel) and \texttt{mask-sampling} "
               r"scheme (right panel) for computing the drop of a candidate."),
)
STATEMENT = ("Figure 2: in both panels the gray rows are exactly the printed samples where both candidate tokens "
             "(decent, great) are perturbed, i.e. that do not contain the candidate; the two panels perturb the same "
             "positions in each sample; and the caption's averaged drops d(x_3), d(x_5), ..., d(x_n) are those of the "
             "gray rows.")
CONDITIONS = ("The figure as fred-paper.tex prints it (lines 292-340): a cell is perturbed when coloured red, a row "
              "gray when it starts with \\rowcolor{gray!15}, the candidate the positions framed in red (\\Block). The "
              "elided samples (the \\vdots row) are not checked.")


def parsed(seen: Figure) -> StepResult:
    """p1: both panels are read whole: six printed samples of six positions each, the framed positions being the
    caption's candidate words in the example."""
    shapes = [[len(p.samples), len({len(r.words) for r in (p.example, *p.samples)})] for p in seen.panels]
    framed = [[p.example.words[j] for j in p.highlighted] for p in seen.panels]
    holds = len(seen.panels) == 2 and shapes == [[6, 1]] * 2 and all(tuple(f) == seen.candidate for f in framed)
    return CLAIM.checked(
        "p1-figure-read-whole", "proof", "exhaustive",
        f"The source's two panels read: {[len(p.samples) for p in seen.panels]} printed samples, each row of "
        f"{len(seen.panels[0].example.words)} positions; the framed positions show {framed} in the example, the "
        f"caption's candidate {list(seen.candidate)}. So the steps below see every printed row.",
        holds=holds, values={"samples_per_panel": shapes, "framed_words": framed, "candidate": list(seen.candidate)})


def gray_rows(seen: Figure) -> StepResult:
    """s1: in each panel, a printed sample is gray exactly when all the framed positions are red."""
    mismatched = [[i, r.name] for i, p in enumerate(seen.panels) for r in p.samples
                  if r.gray != all(r.red[j] for j in p.highlighted)]
    table = {f"panel {i}": {r.name: {"gray": r.gray, "both_perturbed": all(r.red[j] for j in p.highlighted)}
                            for r in p.samples} for i, p in enumerate(seen.panels)}
    return CLAIM.checked(
        "s1-gray-is-both-perturbed", "statement", "exhaustive",
        f"Gray rows (both panels): {[r.name for r in seen.panels[0].samples if r.gray]} and "
        f"{[r.name for r in seen.panels[1].samples if r.gray]}; rows whose two framed tokens are red: "
        f"{[r.name for r in seen.panels[0].samples if all(r.red[j] for j in seen.panels[0].highlighted)]}. "
        f"Rows where the two differ: {mismatched}.", holds=not mismatched, values={"rows": table,
                                                                                 "mismatched": mismatched})


def no_candidate_word(seen: Figure) -> StepResult:
    """s2: read from the words, not the colours: a gray row shows neither candidate word at its position, a white row
    shows at least one (line 335's 'samples that do not contain' the candidate)."""
    wrong = [[i, r.name] for i, p in enumerate(seen.panels) for r in p.samples
             if r.gray != all(r.words[j] != p.example.words[j] for j in p.highlighted)]
    return CLAIM.checked(
        "s2-gray-rows-lack-the-candidate", "statement", "exhaustive",
        "From the printed words alone: a sample does not contain the candidate when neither 'decent' (position 3) nor "
        f"'great' (position 5) is in its place; in both panels that is exactly the gray rows (rows where not: "
        f"{wrong}).", holds=not wrong, values={"not_so": wrong})


def panels_share_patterns(seen: Figure) -> StepResult:
    """s3: the two panels perturb the same positions in each sample, and a red cell is a changed word (UNK in the
    right panel), a black one the example's word."""
    left, right = seen.panels
    differ = [a.name for a, b in zip(left.samples, right.samples) if a.red != b.red or a.name != b.name]
    bad_cells = [[p, r.name, j] for p, panel in enumerate(seen.panels) for r in panel.samples
                 for j, (w, red) in enumerate(zip(r.words, r.red))
                 if red == (w == panel.example.words[j]) or (p == 1 and red != (w == "UNK"))]
    return CLAIM.checked(
        "s3-panels-share-patterns", "statement", "exhaustive",
        f"Row by row, the red positions of the left (pos) and right (mask) panels: differing rows {differ}; cells "
        f"where red does not mean 'changed' (UNK on the right) or black does not mean 'the example's word': "
        f"{bad_cells}.", holds=not differ and not bad_cells,
        values={"patterns": {r.name: [j + 1 for j, red in enumerate(r.red) if red] for r in left.samples},
                "differing_rows": differ, "bad_cells": bad_cells})


def caption_list(seen: Figure) -> StepResult:
    """s4: the caption's averaged drops are the gray rows', in order, in both panels."""
    gray = [[r.name for r in p.samples if r.gray] for p in seen.panels]
    return CLAIM.checked(
        "s4-caption-list-is-gray-rows", "statement", "exhaustive",
        f"The caption averages the drops of {list(seen.averaged)}; the gray rows are {gray[0]} (left) and {gray[1]} "
        "(right).", holds=all(g == list(seen.averaged) for g in gray),
        values={"caption": list(seen.averaged), "gray": gray})


def check() -> ClaimResult:
    """Every printed row of both panels against the caption's three sentences."""
    try:
        seen = figure()
    except FileNotFoundError as error:
        steps = (CLAIM.argued("s1-gray-is-both-perturbed", "statement", f"Not run here: {error}."),)
    else:
        steps = (parsed(seen), gray_rows(seen), no_candidate_word(seen), panels_share_patterns(seen),
                 caption_list(seen))
    return CLAIM.result(kind="statement", statement=STATEMENT, conditions=CONDITIONS, counterexample=None,
                        steps=steps, source=SOURCE)
