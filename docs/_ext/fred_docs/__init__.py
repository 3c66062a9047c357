"""The documentation site's own Sphinx extension: pages written from the code and the results at each build.

* :mod:`fred_docs.notebooks`: the notebooks executed (quick parameters) into ``docs/notebooks/``;
* :mod:`fred_docs.claim_pages`: one page per claim family from ``proofs_checks/REPORT.json``, in ``docs/claims/``,
  and the claim map (:mod:`fred_docs.claim_map`: each claim's lines, code, figure and tests), ``docs/claims/map.md``;
* :mod:`fred_docs.api`: the API reference, one page per module, in ``docs/api/``;
* :mod:`fred_docs.refs`: references to a name where it is importable (``fred.Fred``) link to its definition;
* :mod:`fred_docs.docstrings`: the plain-text notation of the docstrings (``|c|``) read as text, not RST.

The generated folders are not committed (``.gitignore``); each build writes them anew.
"""

from __future__ import annotations

import time
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from .api import skip_foreign_member, write_api_pages
from .claim_pages import write_claim_pages
from .docstrings import guard_numpydoc, process_docstring
from .notebooks import execute_notebooks
from .refs import resolve_alias

logger = logging.getLogger(__name__)


def _generate(app: Sphinx) -> None:
    """Write the generated pages into the source folder before Sphinx reads it; the notebooks first, since the
    claim pages show the figures they draw."""
    src = Path(app.srcdir)
    root = src.parent
    start = time.perf_counter()
    seconds = execute_notebooks(root, src / "notebooks")
    logger.info("fred_docs: %d notebooks executed in %.0f s (%s)", len(seconds), time.perf_counter() - start,
                ", ".join(f"{name} {s:.0f} s" for name, s in seconds.items()))
    claims = write_claim_pages(root, src / "claims")
    logger.info("fred_docs: %d claim pages, %d claims", len(claims), sum(claims.values()))
    modules = write_api_pages(src / "api")
    logger.info("fred_docs: API reference of %d modules", len(modules))


def setup(app: Sphinx) -> dict:
    """Register the generators, the docstring handlers and the reference resolver."""
    app.connect("builder-inited", _generate)
    app.connect("missing-reference", resolve_alias)
    # numpydoc handles the docstring at priority 500; the bars are escaped before it parses them
    app.connect("autodoc-process-docstring", process_docstring, priority=400)
    guard_numpydoc(app)
    app.connect("autodoc-skip-member", skip_foreign_member)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
