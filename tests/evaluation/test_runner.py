"""The experiment runner in process on a tiny synthetic data directory (tests/evaluation/conftest.py, no shared data
needed): a smoke test, the per-document seeds, the document selection, resuming, the statistics table; and the
Anchor adapter's position mapping. The dask cluster is tested in test_cluster.py."""

import importlib
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from fred.evaluation import execution, runner, store
from fred.evaluation.__main__ import main
from fred.evaluation.config import RunConfig
from fred.evaluation.documents import document_seeds, select_documents
from fred.evaluation.explainers import AnchorAdapter, Attribution, token_starts, top_k
from fred.evaluation.runner import run
from fred.evaluation.summary import MINILM_ORDER_NOTE, RunResult, markdown

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
    result = run(config, tmp_path / "api", workers=0, progress=False)
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
                 "--out", str(out), "--workers", "0"]) == 0
    text = (out / "restaurants_logistic_p0.5_eps0.15_n32.md").read_text()
    assert "| fred | paper | -0.119 (0.09)" in text and "--n-docs 2" in text, text
    assert (out / "restaurants_logistic_p0.5_eps0.15_n32.csv").read_text().count("\n") == 3


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


# ----------------------------------------------------------------------------------------------------------
# Seeds, selection, resume, the table (in process; the cluster is in test_cluster.py)
# ----------------------------------------------------------------------------------------------------------

def _config(data_dir, **kw):
    params = dict(dataset="restaurants", model="logistic", explainers=("fred", "lime"), n_docs=4, k_robust=2,
                  n_samples=64, lime_samples=50, data_dir=str(data_dir))
    return RunConfig(**{**params, **kw})


def _without_time(rows):
    return [{k: v for k, v in r.items() if k != "time"} for r in rows]


def test_document_seeds_are_the_children_of_the_run_seed():
    """The seeds of document 7 are the first k_robust + 1 words of SeedSequence(seed).spawn(8)[7] (numpy's own
    spawning, computed here): catches seeds derived from the rank in the selection, or the same seeds for every
    document (the runner before issue 16)."""
    child = np.random.SeedSequence(3).spawn(8)[7]
    assert document_seeds(3, 7, 2) == [int(s) for s in child.generate_state(3)]
    assert document_seeds(3, 6, 2) != document_seeds(3, 7, 2)


def test_a_documents_rows_do_not_depend_on_the_other_documents(larger_data_dir, tmp_path):
    """14 documents, then 2 documents of at least the longest one's length: the documents both runs explain, at
    other ranks (checked, so the test bites), have identical rows but for the rank and the time. Catches seeds
    derived from the rank in the selection or from the number of documents."""
    many = run(_config(larger_data_dir, n_docs=14), tmp_path / "many", workers=0, progress=False)
    length = max(r["n_tokens"] for r in many.rows)
    few = run(_config(larger_data_dir, n_docs=2, min_tokens=length), tmp_path / "few", workers=0, progress=False)
    rank = {r["test_index"]: r["doc"] for r in many.rows}
    shared = [r for r in few.rows if r["test_index"] in rank]
    assert shared and all(rank[r["test_index"]] != r["doc"] for r in shared)

    def key(rows):
        return sorted((r["test_index"], r["explainer"], *[(k, v) for k, v in r.items() if k not in ("doc", "time")])
                      for r in rows)

    assert key(shared) == key(r for r in many.rows if r["test_index"] in {s["test_index"] for s in shared})


def test_min_tokens_leaves_out_short_documents_before_taking_n_docs():
    """Five positive texts of 1 to 5 tokens and one negative: min_tokens=4 keeps the 4- and 5-token texts, in
    length order, even when n_docs would take more. Catches the filter applied after the first n_docs are taken,
    or with > instead of >=."""

    class Model:
        def predict(self, texts):
            return np.array([0 if t.startswith("neg") else 1 for t in texts])

    texts = ["a b c d e", "a", "neg x y z w v", "a b c d", "a b", "a b c"]
    assert select_documents(Model(), texts, 3, min_tokens=4) == [3, 0]
    assert select_documents(Model(), texts, 3) == [1, 4, 5]


def test_interrupted_run_resumes_without_redoing_or_duplicating(larger_data_dir, tmp_path, monkeypatch):
    """A run stopped by an error at its third document, with half a line appended to the CSV as by a write cut
    short, then the same command again: the second session computes only the documents not in the CSV, and the
    final CSV equals an uninterrupted run's in every column but time. Catches a rerun that starts over, a
    document written twice, or a cut line kept."""
    config = _config(larger_data_dir, n_docs=5)
    clean = run(config, tmp_path / "clean", workers=0, progress=False)
    calls = []
    original = execution.explain_document

    def failing(context, doc, index, text):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(doc)
        return original(context, doc, index, text)

    monkeypatch.setattr(execution, "explain_document", failing)
    with pytest.raises(KeyboardInterrupt):
        run(config, tmp_path / "resumed", workers=0, progress=False)
    csv_path = tmp_path / "resumed" / f"{config.stem}.csv"
    with open(csv_path, "a") as handle:
        handle.write("2,17,fred,0.6")
    monkeypatch.setattr(execution, "explain_document", lambda *a: (calls.append(a[1]), original(*a))[1])
    resumed = run(config, tmp_path / "resumed", workers=0, progress=False)
    assert calls == [0, 1, 2, 3, 4]
    assert _without_time(resumed.rows) == _without_time(clean.rows)
    assert [(s["documents"], s.get("interrupted", False)) for s in resumed.sessions] == [(2, True), (3, False)]
    again = run(config, tmp_path / "resumed", workers=0, progress=False)
    assert calls == [0, 1, 2, 3, 4] and _without_time(again.rows) == _without_time(clean.rows)


def test_a_signal_right_after_a_document_is_written_still_records_it(larger_data_dir, tmp_path, monkeypatch):
    """A KeyboardInterrupt raised as the first document's rows reach the disk (as a signal arriving during the
    fsync is handled when it returns, before the runner moves on): the session is recorded as interrupted with
    that one document, the count read back from the CSV. Catches a session recorded only for documents counted
    after their write returned, which left the run of the first signal test on a loaded machine unrecorded."""
    config = _config(larger_data_dir, n_docs=3)
    original = runner.append_rows

    def interrupted(handle, rows):
        original(handle, rows)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "append_rows", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(config, tmp_path, workers=0, progress=False)
    record = json.loads((tmp_path / f"{config.stem}.run.json").read_text())
    assert [(s["documents"], s.get("interrupted")) for s in record["sessions"]] == [(1, True)], record["sessions"]
    assert {r["doc"] for r in store.read_rows(tmp_path / f"{config.stem}.csv")} == {0}


def test_default_execution_is_in_process_for_small_runs(monkeypatch):
    """The default (workers=None) uses a cluster from 20 pending documents on a machine of 2 cores, never on one
    core; an explicit size or scheduler always does when documents are pending, workers=0 never. Catches a small
    run paying for a cluster it does not need, or an explicit choice overridden."""
    monkeypatch.setattr(execution, "default_workers", lambda: 2)
    assert [execution._on_cluster(None, None, n) for n in (0, 19, 20)] == [False, False, True]
    assert [execution._on_cluster(w, None, 1) for w in (0, 1, 3)] == [False, True, True]
    assert execution._on_cluster(0, "tcp://127.0.0.1:8786", 1) and not execution._on_cluster(0, None, 100)
    monkeypatch.setattr(execution, "default_workers", lambda: 1)
    assert not execution._on_cluster(None, None, 100)


def test_another_configuration_is_refused_unless_restarted(data_dir, tmp_path):
    """Catches a rerun with other settings silently mixing its rows with the old ones."""
    run(_config(data_dir, n_docs=1), tmp_path / "out", workers=0, progress=False)
    with pytest.raises(ValueError, match="another configuration"):
        run(_config(data_dir, n_docs=2), tmp_path / "out", workers=0, progress=False)
    assert len(run(_config(data_dir, n_docs=2), tmp_path / "out", workers=0, restart=True,
                   progress=False).rows) == 4


def test_stem_names_each_option_of_the_authors_setting():
    """Catches two settings written to the same files (ours and the authors' side by side)."""
    ours = RunConfig(dataset="yelp", model="logistic", explainers=("fred",))
    authors = RunConfig(dataset="yelp", model="logistic", explainers=("fred", "fredpos"), n_samples=5000,
                        search="released-beam", min_tokens=4, k_from="fredpos", baseline="original")
    assert ours.stem == "yelp_logistic_p0.5_eps0.15"
    assert authors.stem == "yelp_logistic_p0.5_eps0.15_original_n5000_released-beam_min4_kfredpos"


_METRICS = ("sufficiency", "comprehensiveness", "robustness", "aucmorf_authors", "time", "proportion", "aucmorf")


def _row(doc, explainer="fred", **values):
    """A result row of ``explainer`` on document ``doc``: every metric 0.5 unless given in ``values``."""
    return {"doc": doc, "test_index": doc, "explainer": explainer, **dict.fromkeys(_METRICS, 0.5), **values}


def _result(rows):
    config = RunConfig(dataset="restaurants", model="tree", explainers=("fred", "lime"), command="cmd")
    return RunResult(config, rows, {}, 0.9, 30, 10, 5, [{"started": "now", "wall_seconds": 1.0, "documents": 12,
                                                          "cluster": {"kind": "in process", "workers": 0}}],
                     None, None)


def test_summary_says_which_documents_its_wall_time_covers():
    """12 documents, recorded sessions covering 12, then 5 of them: the wall time is qualified exactly when the
    sessions computed fewer documents than the CSV holds. Catches a summary presenting the time of the sessions
    that recorded themselves as the whole run's (a run resumed after a session killed unrecorded)."""
    whole = _result([_row(doc) for doc in range(12)])
    partial = replace(whole, sessions=[dict(whole.sessions[0], documents=3),
                                       dict(whole.sessions[0], documents=2, interrupted=True)])
    assert "Wall time: 1.0 s over 1 session(s).\n" in markdown(whole)
    assert ("Wall time: 2.0 s over 2 session(s), which computed 5 of the 12 documents (the sessions that computed "
            "the others were not recorded, so their time is not known).") in markdown(partial)


def test_only_a_minilm_summary_qualifies_its_order_independence():
    """Catches a MiniLM run's summary claiming its numbers do not depend on the order of its documents at all (the
    encoder's batches make them differ at a few times 1e-7; tests/evaluation/test_neural.py bounds the embeddings), or
    a TF-IDF run's summary losing that guarantee."""
    rows = [_row(0)]
    tree = markdown(_result(rows))
    minilm = markdown(replace(_result(rows), config=replace(_result(rows).config, model="minilm")))
    assert "order in which documents completed." in tree and MINILM_ORDER_NOTE not in tree
    assert f"order in which documents completed {MINILM_ORDER_NOTE}." in minilm


def test_table_gives_mean_and_standard_error_and_marks_significant_differences():
    """12 documents, lime's sufficiency 0.1 above fred's on each (lower is better), every other column equal:
    lime's cell is its mean ± the sample standard deviation / sqrt(12) (computed here) and marked worse than
    fred; the exact two-sided p is 2 / 2^12, times 7 tests (Holm, the 6 ties have p = 1) = 0.00342. Catches the
    population standard deviation in place of the standard error, a mark on the wrong side, and a table
    without its tests."""
    rows = [_row(doc, name, sufficiency=0.01 * doc ** 2 + shift)
            for doc in range(12) for name, shift in (("fred", 0.0), ("lime", 0.1))]
    text = markdown(_result(rows))
    lime = np.array([0.01 * d ** 2 + 0.1 for d in range(12)])
    se = np.std(lime, ddof=1) / np.sqrt(12)
    assert f"| lime | ours | {lime.mean():.3f} ± {se:.3f} ▼ | 0.500 ± 0.000 |" in text, text
    assert "| fred vs lime | fred, p=0.00342 (12/12) | tie, p=1 (0/12) |" in text, text
    assert "▲" not in text.split("\n\n")[3]  # the summary table: no explainer better than fred
