"""Explainers from outside on the benchmark (issue 28, item 7): ``python -m fred.evaluation --explainers
fred,NAME=module:factory`` on a tiny synthetic data directory (tests/evaluation/conftest.py), the factories defined
here; and where a run writes by default (the committed results the claims read)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from fred import Fred
from fred.evaluation.__main__ import main
from fred.evaluation.config import RunConfig, result_file, results_dir

HERE = __name__
CHECKOUT_RESULTS = Path(__file__).resolve().parents[2] / "results"


def fred_copy(classifier_fn, exact=False, random_state=None):
    """The reference FRED built the way a kit factory builds it (README's kit section)."""
    return Fred(classifier_fn, sampler="exact" if exact else "mask", random_state=random_state)


class _FirstToken:
    """An explanation of the first token only, without importances."""

    best_ids = (0,)


class _FirstTokenExplainer:
    def explain(self, text, label, p, eps, max_len, n_samples=None):
        return _FirstToken()


def first_token(classifier_fn, exact=False, random_state=None):
    """A factory whose explainer always names position 0 and gives no importances."""
    return _FirstTokenExplainer()


NOT_A_FACTORY = 3


def _rows(path: Path) -> dict[tuple[int, str], dict[str, str]]:
    with path.open(newline="") as handle:
        return {(int(r["doc"]), r["explainer"]): r for r in csv.DictReader(handle)}


def test_a_factory_runs_beside_fred_with_the_paired_tests(data_dir, tmp_path, capsys):
    """Two documents, FRED beside two factories: a copy of FRED (``fred_copy``) and a first-token explainer.

    The copy must give FRED's own explanation and metrics on every document (the same seeds, p, eps, label and
    sample size reach it), so its paired tests are ties; the first-token explainer's row must be position 0 with
    proportion 1/b and a ranking of that one token. Catches an adapter that passes the factory other arguments than
    FRED gets (another seed, label or n), that maps best_ids or importances wrongly, that crashes on an explanation
    without importances, a summary that drops an explainer from outside or tests it against nothing, and files
    that overwrite the run without it (the stem must say with-NAME)."""
    out = tmp_path / "out"
    argv = ["--dataset", "restaurants", "--model", "logistic", "--n-docs", "2", "--k-robust", "1",
            "--n-samples", "48", "--workers", "0", "--data-dir", str(data_dir), "--out", str(out),
            "--explainers", f"fred,mine={HERE}:fred_copy,first={HERE}:first_token"]
    assert main(argv) == 0
    stem = "restaurants_logistic_p0.5_eps0.15_n48_with-mine_with-first"
    rows = _rows(out / f"{stem}.csv")
    assert {e for _, e in rows} == {"fred", "mine", "first"} and {d for d, _ in rows} == {0, 1}
    deterministic = ("explanation", "ids", "k", "n_positive", "sufficiency", "comprehensiveness", "robustness",
                     "aucmorf_authors", "proportion")
    for doc in (0, 1):
        fred, mine, first = rows[doc, "fred"], rows[doc, "mine"], rows[doc, "first"]
        assert {c: mine[c] for c in deterministic} == {c: fred[c] for c in deterministic}, doc
        b = int(first["n_tokens"])
        assert (first["ids"], first["k"], first["n_positive"]) == ("0", "1", "1"), first
        assert float(first["proportion"]) == pytest.approx(1 / b)
    summary = (out / f"{stem}.md").read_text()
    assert "| fred vs mine | tie, p=1 (0/2)" in summary, summary
    assert "| fred vs first |" in summary
    record = json.loads((out / f"{stem}.run.json").read_text())
    assert record["explainers"] == ["fred", "mine", "first"]
    assert record["config"]["factories"] == [f"mine={HERE}:fred_copy", f"first={HERE}:first_token"]


@pytest.mark.parametrize("spec, words", [
    ("mine=no_colon", "NAME=module:factory"),
    ("fred=pkg:f", "built-in"),
    ("mine=no_such_module_for_fred_tests:f", "cannot import module"),
    (f"mine={HERE}:missing", "has no attribute 'missing'"),
    (f"mine={HERE}:NOT_A_FACTORY", "not a callable factory"),
    (f"mine={HERE}:fred_copy,mine={HERE}:first_token", "distinct"),
])
def test_a_bad_factory_is_one_line_and_exit_2(spec, words, tmp_path, capsys):
    """A malformed spec, a built-in name taken, a module or attribute that is not there, a non-callable, a name
    given twice: exit 2 and one line naming the problem, before any training. Catches a traceback, the exit code
    of a failing run, or a bad spec found only in the middle of a run."""
    argv = ["--dataset", "restaurants", "--model", "logistic", "--data-dir", str(tmp_path / "absent"),
            "--out", str(tmp_path), "--explainers", f"fred,{spec}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert not list(tmp_path.iterdir())


def test_committed_runs_still_resume():
    """Every committed run's record, read back as a RunConfig, describes itself as recorded: the new
    ``factories`` option must not enter a run without it. Catches a change that makes every committed run refuse
    to resume ("holds another configuration")."""
    records = sorted(CHECKOUT_RESULTS.glob("*.run.json"))
    assert records
    for path in records:
        recorded = json.loads(path.read_text())["config"]
        config = RunConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in recorded.items()})
        assert config.describe() == recorded, path.name


def test_the_evaluation_writes_where_the_claims_read():
    """The default output directory (the data package fred_results) is the checkout's results/ in this editable
    install, and result_file finds a committed CSV there by the name the claims use. Catches the package mapped
    to another directory (the claims would read stale files, or none) and a result name resolved against the
    working directory."""
    assert results_dir() == CHECKOUT_RESULTS
    assert result_file("results/restaurants_logistic_p0.5_eps0.15.csv") == \
        CHECKOUT_RESULTS / "restaurants_logistic_p0.5_eps0.15.csv"
    with pytest.raises(ValueError, match="results/"):
        result_file("elsewhere/restaurants_logistic_p0.5_eps0.15.csv")
