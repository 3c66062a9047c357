"""Figures that put the theory and the implementation side by side (``python -m proofs_checks plots``).

Each figure family is a module with ``<name>_data(seed, quick, ...)`` (the
computation, returning a frozen dataclass) and ``<name>_figure(data)`` (a
pyplot-free :class:`matplotlib.figure.Figure`); :func:`make_figures` runs them
and writes ``<name>.png`` and ``<name>.svg``, byte-for-byte reproducible from the
seed. ``review_example`` needs ``restaurants.tsv`` and is skipped without it.
"""

from .gallery import FIGURES, FigureOutcome, cli, make_figure, make_figures
from .lemma1_convergence import lemma1_convergence_data, lemma1_convergence_figure
from .lemma1_selection import lemma1_selection_data, lemma1_selection_figure
from .lemma2_coverage import lemma2_coverage_data, lemma2_coverage_figure
from .lime_convergence import lime_convergence_data, lime_convergence_figure
from .output import FigureFiles, NotebookSettings, notebook_settings, save_figure
from .prop1_linear import prop1_linear_data, prop1_linear_figure
from .prop2_shortcut import prop2_shortcut_data, prop2_shortcut_figure
from .review_example import review_example_data, review_example_figure

__all__ = [
    "FIGURES",
    "FigureFiles",
    "FigureOutcome",
    "cli",
    "lemma1_convergence_data",
    "lemma1_convergence_figure",
    "lemma1_selection_data",
    "lemma1_selection_figure",
    "lemma2_coverage_data",
    "lemma2_coverage_figure",
    "lime_convergence_data",
    "lime_convergence_figure",
    "make_figure",
    "make_figures",
    "NotebookSettings",
    "notebook_settings",
    "prop1_linear_data",
    "prop1_linear_figure",
    "prop2_shortcut_data",
    "prop2_shortcut_figure",
    "review_example_data",
    "review_example_figure",
    "save_figure",
]
