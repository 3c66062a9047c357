"""The notebooks in notebooks/ (jupytext percent format) execute with small parameters and write their figures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

from fred.evaluation.datasets import data_dir  # noqa: E402

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.py"))
#: Per-cell timeout of nbclient, seconds (each notebook takes ~10-20 s with quick parameters on 2 busy cores).
CELL_TIMEOUT = 180


def _execute(notebook, workdir: Path):
    """Run the notebook in the ``python3`` kernel (jupyter_client maps its ``python`` argv to sys.executable)."""
    client = nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(workdir)}})
    client.execute()
    return notebook


def test_notebooks_found():
    """Catches a moved or renamed notebooks/ directory: the parametrised test below would then run nothing."""
    assert {p.stem for p in NOTEBOOKS} == {"lemma1_convergence", "lemma1_selection", "lemma2_coverage", "prop1_linear", "prop2_shortcut",
                                           "review_example", "lime_convergence"}, [p.name for p in NOTEBOOKS]


@pytest.mark.slow
def test_kernel_runs_this_interpreter(tmp_path):
    """Catches notebooks silently executing in another Python (one without this package): the kernel's
    sys.executable must be the interpreter running pytest."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    out = _execute(notebook, tmp_path).cells[0].outputs[0]["text"].strip()
    assert Path(out).resolve() == Path(sys.executable).resolve(), (out, sys.executable)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes_and_writes_its_figure(path, tmp_path, monkeypatch):
    """Catches a notebook that no longer runs against the figures API (any cell error or failed assert raises
    CellExecutionError) or that stops writing its PNG and SVG. review_example must instead report the skip
    when restaurants.tsv is missing."""
    if path.stem == "lime_convergence":
        pytest.importorskip("lime", reason="the LIME figure runs the lime package (the eval extra)")
    monkeypatch.setenv("FRED_NOTEBOOK_QUICK", "1")
    monkeypatch.setenv("FRED_NOTEBOOK_OUT", str(tmp_path / "out"))
    notebook = _execute(jupytext.read(path), tmp_path)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code), f"{path.name}: a code cell did not run"
    streams = "".join(o.get("text", "") for c in code for o in c.outputs if o.output_type == "stream")
    if path.stem == "review_example" and not (data_dir() / "restaurants.tsv").is_file():
        assert "skipped:" in streams, streams
        return
    for suffix in (".png", ".svg"):
        written = tmp_path / "out" / f"{path.stem}{suffix}"
        assert written.is_file() and written.stat().st_size > 1000, f"{path.name} did not write {written}"
