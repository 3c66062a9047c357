"""Smoke test of the experiment runner on a tiny synthetic data directory (tests/evaluation/conftest.py, no
shared data needed), and the Anchor adapter's position mapping."""

import importlib
import math

import pytest

from fred.evaluation.__main__ import main
from fred.evaluation.explainers import Attribution, AnchorAdapter, token_starts, top_k
from fred.evaluation.runner import RunConfig, run

# shap's import emits matplotlib deprecation notices unrelated to this code.
pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")


def test_anchor_offsets_map_to_whitespace_positions():
    """Anchors reports character offsets; token_starts must map them onto text.split() positions."""
    text = "so  good and nice"
    assert token_starts(text) == [0, 4, 9, 13]
    assert top_k([0.3, 0.1, 0.3], 2) == (0, 2)


def _importable(module):
    try:
        importlib.import_module(module)
        return True
    except ImportError:
        return False


def test_runner_on_three_documents(data_dir, tmp_path):
    """Three documents, every offline explainer: rows complete, metrics in range, Markdown beside the paper.

    Catches adapters returning positions outside the document, LIME/SHAP sets not of size |FRED|, and a
    summary missing the paper's rows for a setting the paper covers. An explainer is absent only when its
    package cannot be imported, and the Markdown must then say why.
    """
    config = RunConfig(dataset="restaurants", model="logistic", explainers=("fred", "lime", "shap", "anchor"),
                       n_docs=3, k_robust=1, n_samples=64, lime_samples=100, data_dir=str(data_dir))
    result = run(config, progress=False)
    expected = {"fred", "lime"} | {e for e, m in (("shap", "shap"), ("anchor", "anchor.anchor_text"))
                                   if _importable(m)}
    assert {r["explainer"] for r in result.rows} == expected, result.unavailable
    assert len(result.rows) == 3 * len(expected)
    for doc in range(3):
        rows = {r["explainer"]: r for r in result.rows if r["doc"] == doc}
        for name in ("lime", "shap"):
            if name in rows:
                assert rows[name]["k"] == rows["fred"]["k"], (doc, name, rows[name]["k"], rows["fred"]["k"])
        for name, r in rows.items():
            assert 0 <= r["proportion"] <= 1 and 0 <= r["robustness"] <= 1, (doc, name, r)
            assert all(math.isfinite(r[c]) for c in ("sufficiency", "comprehensiveness", "aucmorf_authors")), r
    lengths = [r["n_tokens"] for r in result.rows if r["explainer"] == "fred"]
    assert lengths == sorted(lengths), f"documents must be ordered by length, got {lengths}"
    out = tmp_path / "out"
    assert main(["--dataset", "restaurants", "--model", "logistic", "--explainers", "fred",
                 "--n-docs", "2", "--k-robust", "1", "--n-samples", "32", "--data-dir", str(data_dir),
                 "--out", str(out)]) == 0
    text = (out / "restaurants_logistic_p0.5_eps0.15.md").read_text()
    assert "| fred | paper | -0.119 (0.09)" in text and "--n-docs 2" in text, text
    assert (out / "restaurants_logistic_p0.5_eps0.15.csv").read_text().count("\n") == 3


def test_anchor_adapter_maps_positions():
    """A fake AnchorText reporting offsets 9 then 4 gives ranking (2, 1) on whitespace tokens."""

    class Fake:
        def explain_instance(self, text, fn):
            return type("E", (), {"exp_map": {"positions": [9, 4]}})()

    adapter = AnchorAdapter.__new__(AnchorAdapter)
    adapter.explainer, adapter.predict = Fake(), None
    assert adapter.explain("so  good and nice", seed=0) == Attribution((1, 2), (2, 1))


@pytest.mark.parametrize("field, value, exc", [("n_docs", 1.0, TypeError), ("n_docs", 0, ValueError),
                                                ("k_robust", True, TypeError), ("k_robust", -1, ValueError)])
def test_run_config_refuses_wrong_types_and_values_separately(field, value, exc):
    """Catches a float or a boolean count reported as ValueError, or a negative count accepted."""
    with pytest.raises(exc, match=f"^{field} must be an integer >= "):
        RunConfig(dataset="restaurants", model="logistic", explainers=("fred",), **{field: value})
