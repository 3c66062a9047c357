"""Sphinx configuration of the fred-theory site: ``sphinx-build -W -b html docs docs/_build/html``.

Every warning is an error (``-W``), every reference to this project's names must resolve (``nitpicky``), and
nothing is fetched: no intersphinx, so names of other packages (numpy, scikit-learn, ...) are shown unlinked.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The site documents the checkout it is in, whatever else is installed, and loads its own extension.
sys.path[:0] = [str(ROOT), str(ROOT / "docs" / "_ext")]

project = "fred-theory"
author = "the fred-theory developers"
copyright = "2026, " + author

extensions = ["sphinx.ext.autodoc", "numpydoc", "myst_nb", "fred_docs"]
exclude_patterns = ["_build", "_ext", "examples", "**/.ipynb_checkpoints",
                    "baseline_limits.md"]  # included by baselines.md (a generated file starting at H2)
html_theme = "furo"
html_title = "fred-theory"

nitpicky = True
#: Other packages' names appear in signatures and docstrings; without intersphinx they cannot link (and must not
#: fail the build). Only these packages are excused: a name of this project that resolves nowhere still fails.
_EXTERNAL = ("numpy", "np", "scipy", "sklearn", "sympy", "mpmath", "matplotlib", "hypothesis", "pytest", "_pytest",
             "pandas", "dask", "distributed", "torch", "spacy", "lime", "shap", "anchor", "sentence_transformers",
             "threadpoolctl", "jupyter_client", "nbclient", "collections", "pathlib", "os", "argparse", "types",
             "typing", "fractions", "dataclasses", "subprocess", "io", "json", "random", "concurrent", "contextlib",
             "threading", "enum", "re", "decimal", "functools", "itertools", "numbers", "abc", "csv", "signal",
             "importlib", "logging", "inspect", "tempfile", "queue", "socket", "selectors", "asyncio")
nitpick_ignore_regex = [(r"py:.*", rf"({'|'.join(_EXTERNAL)})(\..+)?")]

autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
# numpydoc shows a parameter's type as text ("sequence of int" is no name to link) and lists no members itself
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # the notebooks are executed by fred_docs before the build reads them
