"""The figures: the jupytext notebooks of ``notebooks/`` executed at each build, with their outputs.

Executed here, with the quick parameters the tests use (``FRED_NOTEBOOK_QUICK=1``), rather than committed with
outputs: a committed output would show what an older commit computed (nothing would catch it going stale) and
would add each figure's PNG to the repository at every change, while the seven quick runs take about a minute on
two cores. Each notebook runs in its own kernel, two at a time, from this checkout (``PYTHONPATH``); a cell that
raises fails the build. The executed notebooks are written to ``docs/notebooks/`` (read by myst-nb, which does
not execute them again; ``docs/figures.md`` lists them) and their figures to ``docs/notebooks/img/``,
where the claim pages show them.
"""

from __future__ import annotations

import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

#: Per-cell limit, seconds: a quick notebook takes 10-20 s in all on two busy cores.
CELL_TIMEOUT = 600
#: Notebooks executed at once (the machine's two cores).
WORKERS = 2
#: nbclient's messages at warning level and above (it says "Executing notebook with kernel" at info level).
_LOG = logging.getLogger("fred_docs.notebooks")
_LOG.setLevel(logging.WARNING)


@contextmanager
def _environment(root: Path, figures: Path):
    """The kernels' environment: quick parameters, figures written to ``figures``, this checkout's code first."""
    saved = dict(os.environ)
    os.environ.update(FRED_NOTEBOOK_QUICK="1", FRED_NOTEBOOK_OUT=str(figures),
                      PYTHONPATH=os.pathsep.join(filter(None, [str(root), saved.get("PYTHONPATH")])))
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _execute(source: Path, out: Path) -> float:
    """Execute one jupytext notebook in a fresh ``python3`` kernel and write it as ``out/<name>.ipynb``."""
    import jupytext
    import nbclient
    import nbformat

    start = time.perf_counter()
    notebook = jupytext.read(source)
    # the kernel logs errors only: on every start it warns that localhost TCP traffic is not encrypted
    nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            extra_arguments=["--Application.log_level=ERROR"], log=_LOG,
                            resources={"metadata": {"path": str(out)}}).execute()
    nbformat.write(notebook, out / f"{source.stem}.ipynb")
    return time.perf_counter() - start


def execute_notebooks(root: Path, out: Path) -> dict[str, float]:
    """Execute every notebook of ``root/notebooks`` into ``out``; returns each one's wall time in seconds."""
    sources = sorted((root / "notebooks").glob("*.py"))
    out.mkdir(parents=True, exist_ok=True)
    for stale in [*out.glob("*.ipynb"), *out.glob("img/*")]:
        stale.unlink()
    with _environment(root, out / "img"), ThreadPoolExecutor(WORKERS) as pool:
        seconds = list(pool.map(lambda source: _execute(source, out), sources))
    return {source.stem: s for source, s in zip(sources, seconds)}
