"""The notebooks in notebooks/ (jupytext percent format) execute with small parameters and write their figures.

The tests share one ``python3`` kernel (per test process): starting a kernel and importing numpy, matplotlib,
scikit-learn and ``proofs_checks`` cost about 3 s of CPU per notebook, half of what the seven notebooks take.
Before each notebook the kernel's namespace is cleared (``%reset -f``), so a notebook still fails on a name it
does not define or import itself; only the module cache is shared, which a notebook cannot rely on to run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
jupyter_client = pytest.importorskip("jupyter_client")

from fred.evaluation.datasets import data_dir  # noqa: E402

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.py"))
#: Per-cell timeout of nbclient, seconds (each notebook takes ~10-20 s with quick parameters on 2 busy cores).
CELL_TIMEOUT = 180


@pytest.fixture(scope="module")
def kernel():
    """The module's ``python3`` kernel (jupyter_client maps its ``python`` argv to sys.executable), started by the
    first notebook run in it and shut down after the module."""
    manager = jupyter_client.AsyncKernelManager(kernel_name="python3")
    yield manager
    if manager.has_kernel:
        nbclient.util.run_sync(manager.shutdown_kernel)(now=True)


def _run(notebook, kernel, workdir: Path):
    """Execute every cell of ``notebook`` in ``kernel`` (left running), raising on the first cell error."""
    client = nbclient.NotebookClient(notebook, km=kernel, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(workdir)}})
    try:
        client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    return notebook


def _execute(notebook, kernel, workdir: Path, env: dict[str, str] | None = None):
    """Run the notebook in ``kernel`` from a cleared namespace, in ``workdir`` with ``env`` set."""
    setup = (f"import os as _os\n_os.chdir({str(workdir)!r})\n_os.environ.update({dict(env or {})!r})",
             "%reset -f")
    _run(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in setup]), kernel, workdir)
    return _run(notebook, kernel, workdir)


def test_notebooks_found():
    """Catches a moved or renamed notebooks/ directory: the parametrised test below would then run nothing."""
    assert {p.stem for p in NOTEBOOKS} == {"lemma1_convergence", "lemma1_selection", "lemma2_coverage", "prop1_linear", "prop2_shortcut",
                                           "review_example", "lime_convergence"}, [p.name for p in NOTEBOOKS]


@pytest.mark.slow
def test_kernel_runs_this_interpreter(kernel, tmp_path):
    """Catches notebooks silently executing in another Python (one without this package): the kernel's
    sys.executable must be the interpreter running pytest."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    out = _execute(notebook, kernel, tmp_path).cells[0].outputs[0]["text"].strip()
    assert Path(out).resolve() == Path(sys.executable).resolve(), (out, sys.executable)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes_and_writes_its_figure(path, kernel, tmp_path):
    """Catches a notebook that no longer runs against the figures API (any cell error or failed assert raises
    CellExecutionError), that uses a name it does not define (the namespace is cleared first) or that stops
    writing its PNG and SVG. review_example must instead report the skip when restaurants.tsv is missing."""
    if path.stem == "lime_convergence":
        pytest.importorskip("lime", reason="the LIME figure runs the lime package (the eval extra)")
    env = {"FRED_NOTEBOOK_QUICK": "1", "FRED_NOTEBOOK_OUT": str(tmp_path / "out")}
    notebook = _execute(jupytext.read(path), kernel, tmp_path, env)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code), f"{path.name}: a code cell did not run"
    streams = "".join(o.get("text", "") for c in code for o in c.outputs if o.output_type == "stream")
    if path.stem == "review_example" and not (data_dir() / "restaurants.tsv").is_file():
        assert "skipped:" in streams, streams
        return
    for suffix in (".png", ".svg"):
        written = tmp_path / "out" / f"{path.stem}{suffix}"
        assert written.is_file() and written.stat().st_size > 1000, f"{path.name} did not write {written}"
