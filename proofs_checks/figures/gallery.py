"""Every figure by name, making them, and the ``plots`` command line (``python -m proofs_checks plots``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from fred.command_line import OneLineParser

from ..paper.baselines import EVAL_EXTRA
from . import (
    lemma1_convergence,
    lemma1_selection,
    lemma2_coverage,
    lime_convergence,
    prop1_linear,
    prop2_shortcut,
    review_example,
)
from .output import FigureFiles, save_figure

#: name -> (data function, figure function), in the order they are drawn.
FIGURES: dict[str, tuple[Callable, Callable]] = {
    module.NAME: (getattr(module, f"{module.NAME}_data"), getattr(module, f"{module.NAME}_figure"))
    for module in (lemma1_convergence, lemma1_selection, lemma2_coverage, prop1_linear, prop2_shortcut, review_example,
                   lime_convergence)
}


@dataclass(frozen=True)
class FigureOutcome:
    """What happened to one figure: its files, or why it was skipped; and the wall time in seconds."""

    name: str
    files: FigureFiles | None
    skipped: str | None
    seconds: float


def make_figure(name: str, out_dir: str | Path = "figures", seed: int = 0, quick: bool = False) -> FigureOutcome:
    """Compute and write one figure; a missing data file gives a skipped outcome instead of an error."""
    if name not in FIGURES:
        raise ValueError(f"name must be one of {sorted(FIGURES)}, got {name!r}")
    compute, draw = FIGURES[name]
    start = time.perf_counter()
    try:
        data = compute(seed=seed, quick=quick)
    except FileNotFoundError as missing:
        return FigureOutcome(name, None, f"data file missing: {missing}", time.perf_counter() - start)
    except ModuleNotFoundError as absent:  # lime_convergence runs the lime package (the eval extra)
        if absent.name != "lime":
            raise
        return FigureOutcome(name, None, f"package missing: {absent.name} ({EVAL_EXTRA})",
                             time.perf_counter() - start)
    files = save_figure(draw(data), out_dir, name)
    return FigureOutcome(name, files, None, time.perf_counter() - start)


def make_figures(out_dir: str | Path = "figures", only: Sequence[str] | None = None, seed: int = 0,
                 quick: bool = False) -> list[FigureOutcome]:
    """Write every figure (or those named in ``only``) into ``out_dir``."""
    names = list(FIGURES) if only is None else list(only)
    unknown = sorted(set(names) - set(FIGURES))
    if unknown:
        raise ValueError(f"unknown figure(s) {unknown}; choose from {list(FIGURES)}")
    return [make_figure(name, out_dir, seed, quick) for name in names]


def cli(argv: list[str]) -> int:
    """``python -m proofs_checks plots [--out DIR] [--only NAME ...] [--seed N] [--quick]``.

    Prints one line per figure (its files or why it was skipped) and the total time; returns 0.
    """
    parser = OneLineParser(prog="python -m proofs_checks plots",
                                     description="Write the figures as PNG and SVG.")
    parser.add_argument("--out", default="figures", metavar="DIR", help="output directory (default: figures/)")
    parser.add_argument("--only", nargs="+", choices=list(FIGURES), metavar="NAME",
                        help=f"only these figures, among: {', '.join(FIGURES)}")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random draw (default 0)")
    parser.add_argument("--quick", action="store_true", help="small parameters (tests, previews)")
    args = parser.parse_args(argv)
    total = 0.0
    for outcome in make_figures(args.out, args.only, args.seed, args.quick):
        total += outcome.seconds
        if outcome.skipped:
            print(f"{outcome.name}: skipped ({outcome.skipped})")
        else:
            print(f"{outcome.name}: {outcome.files.png} {outcome.files.svg} ({outcome.seconds:.1f} s)")
    print(f"total {total:.1f} s")
    return 0
