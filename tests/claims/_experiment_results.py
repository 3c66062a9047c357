"""The tests' own reading of a committed result file, independent of proofs_checks.claims.experiments.paired_tests (shared by the
tests/claims/test_experiment_*.py files)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]


def read(path: str) -> dict[str, dict[int, dict[str, str]]]:
    """explainer -> doc -> the CSV row as strings."""
    out: dict[str, dict[int, dict[str, str]]] = {}
    with (ROOT / path).open(newline="") as handle:
        for row in csv.DictReader(handle):
            out.setdefault(row["explainer"], {})[int(row["doc"])] = row
    return out


def differences(rows, x: str, y: str, column: str) -> np.ndarray:
    """x minus y on ``column``, document by document."""
    docs = sorted(rows[x].keys() & rows[y].keys())
    return np.array([float(rows[x][d][column]) - float(rows[y][d][column]) for d in docs])


def two_sided_p(d: np.ndarray) -> float:
    """scipy's signed-rank test on the non-zero differences (the documents where the two explainers differ)."""
    return float(stats.wilcoxon(d[d != 0], alternative="two-sided").pvalue)
