"""The ground-truth comparison (tools/ground_truth.py) and its committed outputs (results/ground_truth.csv, .md).

The committed rates are recomputed from the committed CSV, the CSV's rows are traced to the committed runs, and the
tool's agreement rules are checked against brute force on small synthetic tables (no data needed). The one test
that rebuilds a run needs the review data and is skipped without it.
"""

from __future__ import annotations

import csv
import itertools
import shutil
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from fred.evaluation.config import RunConfig
from fred.evaluation.datasets import dataset_available
from tests._helpers import load_tool

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"


ground_truth = load_tool("ground_truth")


def _csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _rate_tables(text: str) -> dict[tuple[str, str], list[str]]:
    """(run, explainer) -> the cells of each row of the rates tables in ``text`` (header 'run | explainer | ...')."""
    rows, inside = {}, False
    for line in text.splitlines():
        if line.startswith("| run | explainer |"):
            inside = True
            continue
        if inside and line.startswith("|---"):
            continue
        if inside and line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[(cells[0].strip("`"), cells[1])] = cells[2:]
        else:
            inside = False
    return rows


def _expected_cell(flags: list[str]) -> str:
    hits = flags.count("True")
    return f"{hits}/{len(flags)} ({round(100 * hits / len(flags))}%)"


@pytest.mark.parametrize("document", ["ground_truth.md", "README.md"])
def test_rates_are_recomputed_from_the_committed_csv(document):
    """Every rate of the agreement tables in results/ground_truth.md and results/README.md is the count of true
    flags over the rows of results/ground_truth.csv of that run and explainer. Catches a table edited by hand, a
    stale table after the CSV was regenerated, and a rate counting the wrong column or the wrong denominator."""
    rows = _csv(RESULTS / "ground_truth.csv")
    tables = _rate_tables((RESULTS / document).read_text(encoding="utf-8"))
    assert tables, f"no rates table in {document}"
    for (run, explainer), cells in tables.items():
        mine = [r for r in rows if r["run"] == run and r["explainer"] == explainer]
        assert cells[0].startswith(f"{len(mine)} of "), (run, explainer, cells)
        assert cells[1] == _expected_cell([r["optimal"] for r in mine]), (run, explainer)
        if explainer != "anchor":
            assert cells[2] == _expected_cell([r["equals_choice"] for r in mine]), (run, explainer)
        if explainer in ("fred", "anchor"):
            assert cells[3] == _expected_cell([r["meets_threshold"] for r in mine]), (run, explainer)
        if explainer == "anchor":
            assert cells[4] == _expected_cell([r["minimal"] for r in mine]), (run, explainer)
    assert {explainer for _, explainer in tables} == {"fred", "lime", "shap", "anchor"}


def test_readme_table_is_the_committed_one():
    """results/README.md pastes the rates of results/ground_truth.md, all of them: catches a README table left
    with fewer runs or explainers than the committed file."""
    readme = _rate_tables((RESULTS / "README.md").read_text(encoding="utf-8"))
    committed = _rate_tables((RESULTS / "ground_truth.md").read_text(encoding="utf-8"))
    assert readme == committed


def test_rows_trace_to_the_committed_runs():
    """Each row's returned ids, test index and size are those of the committed run's row for the same document
    and explainer: catches a ground truth computed on other documents, another run, or a reordered run."""
    rows = _csv(RESULTS / "ground_truth.csv")
    assert rows
    runs = {}
    for row in rows:
        if row["run"] not in runs:
            runs[row["run"]] = {(r["doc"], r["explainer"]): r for r in _csv(RESULTS / f"{row['run']}.csv")}
        committed = runs[row["run"]][(row["doc"], row["explainer"])]
        assert row["ids"] == committed["ids"] and row["test_index"] == committed["test_index"], row
        if row["explainer"] != "anchor":  # an anchor's b and k count spaCy words (the tool's docstring)
            assert int(row["b"]) == int(committed["n_tokens"]) and int(row["k"]) == int(committed["k"]), row


def test_top_k_verdict_against_brute_force():
    """On small integer score vectors (many ties), a set is judged optimal exactly when no k-set has a larger sum,
    the count of optima is the number of k-sets of the largest sum, and the choice is one of them. Catches a tie
    at the k-th place judged as a disagreement (or the reverse), and a wrong count of tied optima."""
    rng = np.random.default_rng(0)
    for _ in range(150):
        values = rng.integers(-2, 3, size=int(rng.integers(1, 6))).astype(float)
        for k in range(1, values.size + 1):
            sums = {s: values[list(s)].sum() for s in itertools.combinations(range(values.size), k)}
            best = max(sums.values())
            for s, total in sums.items():
                verdict = ground_truth.top_k_verdict("lime", values, s)
                assert verdict.optimal == (total == best), (values, s)
                assert verdict.n_optima == sum(t == best for t in sums.values())
                assert sums[verdict.exact_choice] == best


def _brute_meeting(table: list[Fraction], p: Fraction, eps: Fraction, max_len: int, baseline: str):
    """By definition, in rational arithmetic: every set of size <= max_len whose exact drop reaches eps times the
    baseline value (Eq. 2's constraint), smallest first."""
    b = len(table).bit_length() - 1
    weight = [p ** c.bit_count() * (1 - p) ** (b - c.bit_count()) for c in range(2**b)]
    mean = sum(w * f for w, f in zip(weight, table))
    base = mean if baseline == "mean" else table[0]
    meets = []
    for size in range(1, min(max_len, b) + 1):
        for s in itertools.combinations(range(b), size):
            rows = [c for c in range(2**b) if all(c >> i & 1 for i in s)]
            drop = base - sum(weight[c] * table[c] for c in rows) / sum(weight[c] for c in rows)
            if drop >= eps * base:
                meets.append(s)
    return meets


@pytest.mark.parametrize("baseline", ["mean", "original"])
def test_fred_verdict_against_brute_force(baseline):
    """On random tables of b = 3 tokens, a returned set is judged optimal exactly when it solves Eq. (2) (the sets of
    the smallest size reaching the threshold) and to meet the threshold exactly when its drop reaches it, both
    computed here by definition in rational arithmetic: catches a verdict reading the wrong baseline, comparing
    sizes instead of sets, or taking the exact choice for the only optimum."""
    rng = np.random.default_rng(1)
    config = RunConfig(dataset="restaurants", model="logistic", explainers=("fred",), baseline=baseline)
    p, eps = Fraction(config.p), Fraction(3, 20)
    assert float(eps) == config.eps
    checked = 0
    for _ in range(40):
        table = [Fraction(int(x), 8) for x in rng.integers(0, 9, size=8)]
        meeting = _brute_meeting(table, p, eps, 3, baseline)
        if not meeting:
            continue
        solutions = [s for s in meeting if len(s) == len(meeting[0])]
        for size in range(1, 4):
            for s in itertools.combinations(range(3), size):
                verdict = ground_truth.fred_verdict(np.array(table, dtype=float), s, config, max_len=3)
                assert verdict.optimal == (s in solutions), (table, s)
                assert verdict.meets_threshold == (s in meeting), (table, s)
                checked += 1
    assert checked > 100


def test_anchor_verdict_against_brute_force():
    """On random binary label tables of b <= 4 words, the anchor's precision, whether it meets 0.95, whether it is
    of the smallest size that meets it and whether no proper subset meets, all by direct enumeration: catches a
    precision over the wrong patterns (anchor words must stay), a minimality test looking at one-smaller subsets
    only, and an optimum that ignores the empty anchor."""
    rng = np.random.default_rng(2)
    threshold = Fraction(95, 100)
    for _ in range(60):
        b = int(rng.integers(1, 5))
        labels = (rng.random(2**b) < rng.choice([0.02, 0.5, 0.98])).astype(int)

        def precision(anchor, b=b, labels=labels):
            kept = [c for c in range(2**b) if not any(c >> i & 1 for i in anchor)]
            return Fraction(sum(labels[c] == labels[0] for c in kept), len(kept))

        sets = [s for size in range(b + 1) for s in itertools.combinations(range(b), size)]
        meeting = [s for s in sets if precision(s) >= threshold]
        smallest = min(len(s) for s in meeting)
        for s in sets:
            verdict = ground_truth.anchor_verdict(labels, s)
            assert verdict.precision == precision(s)
            assert verdict.meets_threshold == (s in meeting)
            assert verdict.optimal == (s in meeting and len(s) == smallest)
            proper = [t for t in sets if set(t) < set(s)]
            assert verdict.minimal == (s in meeting and not any(t in meeting for t in proper)), (labels, s)


@pytest.mark.parametrize("argv", [["--max-b", "0"], ["--no-such-option"], ["--runs", "no_such_run"],
                                  ["--out", str(RESULTS / "no_such_folder")], ["--out", str(RESULTS / "README.md")],
                                  ["--data-dir", str(RESULTS / "no_such_folder")]])
def test_usage_errors_are_one_line(argv, capsys):
    """A bad --max-b, an unknown option, a run without its record, an --out that is not an existing directory or a
    --data-dir that is not a directory: exit status 2 and one line (the guide's rule), before any model is trained
    (catches a bad folder found only by a traceback minutes later, when the results are written or the data read)."""
    with pytest.raises(SystemExit) as exit_:
        ground_truth.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1, err


@pytest.mark.skipif(not dataset_available("restaurants"), reason="needs the review data (../shared/data or "
                    "FRED_DATA_DIR)")
def test_rebuild_refuses_a_run_it_does_not_reproduce(tmp_path):
    """The rebuilt logistic run reproduces its committed scores, and a score moved by 1e-9 in a copy of the CSV
    stops the tool: catches a verification that compares nothing (or too loosely) before the ground truth."""
    stem = "restaurants_logistic_p0.5_eps0.15"
    for suffix in (".csv", ".run.json"):
        shutil.copy(RESULTS / f"{stem}{suffix}", tmp_path / f"{stem}{suffix}")
    run = ground_truth.rebuild(stem, tmp_path)
    assert len(run.rows) == len(_csv(RESULTS / f"{stem}.csv"))
    rows = _csv(tmp_path / f"{stem}.csv")
    rows[0]["score"] = repr(float(rows[0]["score"]) + 1e-9)
    with open(tmp_path / f"{stem}.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(ValueError, match="scores differ"):
        ground_truth.rebuild(stem, tmp_path)


def test_readme_breakdown_of_the_misses_is_the_csvs():
    """The counts the README's reading quotes (FRED's non-optimal sets by kind, the anchors whose exact optimum is
    the empty anchor) are those of results/ground_truth.csv: catches a reading left stale after a regeneration."""
    rows = _csv(RESULTS / "ground_truth.csv")
    readme = " ".join((RESULTS / "README.md").read_text(encoding="utf-8").split())
    fred = [r for r in rows if r["explainer"] == "fred" and r["optimal"] == "False"]
    fallback = [r for r in fred if r["note"]]
    rest = [r for r in fred if not r["note"]]
    smaller = sum(len(r["ids"].split()) < len(r["exact_choice"].split()) for r in rest)
    larger = sum(r["meets_threshold"] == "True" for r in rest)
    same = sum(len(r["ids"].split()) == len(r["exact_choice"].split()) and r["meets_threshold"] == "False"
               for r in rest)
    assert smaller + larger + same == len(rest)
    for phrase in (f"Of the {len(fred)} FRED sets", f"{smaller} are smaller", f"{larger} are larger",
                   f"{same} have the minimal size", f"{len(fallback)} are on documents where Eq. (2) has no solution"):
        assert phrase in readme, phrase
    anchors = [r for r in rows if r["explainer"] == "anchor" and r["optimal"] == "False"]
    empty = sum(r["exact_choice"] == "" for r in anchors)
    assert f"({empty} of {len(anchors)})" in readme
