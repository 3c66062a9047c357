"""Shared style and deterministic PNG/SVG files of the figures.

Figures are built with :class:`matplotlib.figure.Figure` (no pyplot, so no global
backend is chosen and notebooks keep theirs); PNG goes through Agg. Files are
reproducible byte for byte from the data: the SVG ids are hashed with a fixed
``svg.hashsalt`` and no date or software version is written into either file.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

#: Matplotlib settings every figure is drawn and saved under.
STYLE = {
    "svg.hashsalt": "fred-theory",
    "svg.fonttype": "path",
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 100,
}
#: Resolution of the PNG files.
PNG_DPI = 130
_PNG_METADATA = {"Software": None}
_SVG_METADATA = {"Date": None, "Creator": None}


@dataclass(frozen=True)
class FigureFiles:
    """The two files written for one figure."""

    png: Path
    svg: Path


@contextmanager
def style() -> Iterator[None]:
    """Apply :data:`STYLE` for the duration of the block."""
    with matplotlib.rc_context(STYLE):
        yield


def new_figure(width: float, height: float, layout: str | None = "constrained") -> Figure:
    """A pyplot-free figure of the given size in inches, with an Agg canvas (needed to measure text)."""
    with style():
        fig = Figure(figsize=(width, height), layout=layout)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Figure, out_dir: str | os.PathLike, name: str) -> FigureFiles:
    """Write ``name.png`` and ``name.svg`` into ``out_dir`` (created if needed), deterministically."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = FigureFiles(out / f"{name}.png", out / f"{name}.svg")
    with style():
        fig.savefig(files.png, dpi=PNG_DPI, metadata=_PNG_METADATA)
        fig.savefig(files.svg, metadata=_SVG_METADATA)
    return files


@dataclass(frozen=True)
class NotebookSettings:
    """What a notebook reads from the environment: small parameters, output directory, seed."""

    quick: bool
    out: Path
    seed: int


def notebook_settings() -> NotebookSettings:
    """Read ``FRED_NOTEBOOK_QUICK=1`` (small parameters), ``FRED_NOTEBOOK_OUT`` (default figures/) and
    ``FRED_NOTEBOOK_SEED`` (default 0)."""
    return NotebookSettings(os.environ.get("FRED_NOTEBOOK_QUICK") == "1",
                            Path(os.environ.get("FRED_NOTEBOOK_OUT", "figures")),
                            int(os.environ.get("FRED_NOTEBOOK_SEED", "0")))
