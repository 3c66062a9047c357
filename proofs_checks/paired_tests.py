"""Paired tests on the committed per-document results (``results/*.csv``), for the claims of kind "experiment".

A result file has one row per (document, explainer) with the metrics of that explanation; the ``.md`` beside it
gives the command and the configuration of the run (its seed among them). Two explainers are compared on the
documents both explained, pairing their values document by document.

**The test.** ``scipy.stats.wilcoxon`` on the non-zero differences d = x - y, ``alternative="two-sided"``,
``zero_method="wilcox"``, ``method="auto"``:

* two-sided, with the direction read from the signed ranks (W+ against W-), because the faithfulness claim needs
  decisions both ways (an explainer significantly better on one metric and significantly worse on none); a
  two-sided test at level alpha with its direction read off is a one-sided test at level alpha/2 for each
  direction, so the claims that need one direction only are tested conservatively;
* the documents whose two values are equal are dropped (Wilcoxon's own convention, ``"wilcox"``): two explainers
  often return the same explanation (LIME and SHAP take FRED-mask's size k), which says nothing about which one is
  better, and the classical test conditions on the documents where they differ (``n_nonzero`` in the values). They
  are dropped here, before scipy, because scipy chooses its method on the length of what it is given: with the
  zeros in, 100 documents of which 3 differ would get the normal approximation, whose p-value can fall below the
  smallest one 3 sign flips allow;
* ``"auto"`` on the non-zero differences: the exact null distribution of W+ for at most 50 untied differences, all
  2^n sign flips of the midranks for at most 13 differences with ties, and otherwise the normal approximation
  with scipy's tie correction and no continuity correction.

When every difference is zero there is no evidence either way: p = 1.

**Multiplicity.** The tests of one statement step (one result file: every metric and every pair of explainers the
step decides on) form one family; :func:`holm` adjusts their p-values (Holm's step-down, family-wise error rate
:data:`ALPHA`), and a difference is significant when its adjusted p-value is at most :data:`ALPHA`. A claim holds
only when every one of its steps holds (an intersection-union test), which needs no correction across steps: a
claim wrongly found "supported" needs a false significant difference in one family, whose probability Holm keeps
at most :data:`ALPHA` (for directions read off two-sided tests this is the usual guarantee, proved for independent
tests). That level is the ``false_alarm_probability`` each statistical step records. A claim that is not
supported may also be a test without enough power: the values give the direction and size of every difference.

**Missing files.** A result file that is not committed (or a ``pip install`` without the repository's
``results/``) does not crash the report: :func:`missing_step` gives an ``argued`` step saying what was not tested
and where the command that makes the file is, so the claim cannot read "supported" on fewer runs than it names
(the rule makes an experiment with an untested step "unproved"), and a failing step elsewhere still decides "not
supported". An argued step, not a
failing one: a run that was not made is no evidence against the paper.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from fred.evaluation.statistics import holm, signed_rank

from .paper_experiments import BETTER
from .results import StepResult, argued, checked

#: The repository root; result files are named relative to it, so every verdict names the file it read.
ROOT = Path(__file__).resolve().parents[1]
#: Family-wise error rate of the Holm-adjusted decisions of one step.
ALPHA = 0.05
#: The column of a result CSV for each metric of the paper's tables: ``aucmorf_authors`` is the computation
#: behind the paper's tables (normalised by f(xi), defined for one-token anchors), see results/README.md.
COLUMN = {"sufficiency": "sufficiency", "comprehensiveness": "comprehensiveness", "robustness": "robustness",
          "aucmorf": "aucmorf_authors", "time": "time", "proportion": "proportion"}
_INTEGER_COLUMNS = ("doc", "test_index", "n_tokens", "k", "n_positive")
#: The committed runs with all five explainers: our setting on the TF-IDF models; the authors' setting (their
#: threshold, n = 5000, their beam, documents of at least 4 tokens, LIME/SHAP k = |FRED-pos|), the one the paper's
#: tables were made in; and the MiniLM sentence-encoder classifier (results/README.md describes each).
FIVE_EXPLAINER_RUNS = (
    "results/restaurants_logistic_p0.5_eps0.15.csv", "results/restaurants_tree_p0.5_eps0.15.csv",
    "results/restaurants_forest_p0.5_eps0.15.csv", "results/yelp_logistic_p0.5_eps0.15.csv",
    "results/yelp_forest_p0.5_eps0.15.csv",
    "results/restaurants_logistic_p0.5_eps0.15_original_n5000_released-beam_min4_kfredpos.csv",
    "results/yelp_logistic_p0.5_eps0.15_original_n5000_released-beam_min4_kfredpos.csv",
    "results/restaurants_minilm_p0.5_eps0.15.csv", "results/yelp_minilm_p0.5_eps0.15.csv")


@dataclass(frozen=True)
class Run:
    """One committed result file: ``path`` relative to the repository root, the configuration of its ``.md``, and
    ``values[explainer][doc][column]`` for the numeric columns of the CSV."""

    path: str
    config: dict[str, str]
    values: dict[str, dict[int, dict[str, float]]]

    @property
    def config_path(self) -> str:
        return str(Path(self.path).with_suffix(".md"))

    @property
    def explainers(self) -> tuple[str, ...]:
        return tuple(self.values)

    @property
    def seed(self) -> int | None:
        """The run's seed from the ``Configuration:`` line of its ``.md`` (None when it has none)."""
        seed = self.config.get("seed")
        return int(seed) if seed is not None and seed.isdigit() else None

    @property
    def baseline(self) -> str:
        """FRED's threshold baseline; runs made before the option existed used the default "mean"."""
        return self.config.get("baseline", "mean")

    @property
    def tag(self) -> str:
        return tag(self.path)

    def column(self, explainer: str, metric: str) -> dict[int, float]:
        """``metric`` (a name of the paper's tables) of ``explainer`` by document."""
        return {doc: row[COLUMN.get(metric, metric)] for doc, row in self.values[explainer].items()}

    def paired(self, x: str, y: str, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """The values of ``x`` and ``y`` on the documents both have a finite value for, in document order."""
        a, b = self.column(x, metric), self.column(y, metric)
        docs = sorted(d for d in a.keys() & b.keys() if math.isfinite(a[d]) and math.isfinite(b[d]))
        return np.array([a[d] for d in docs]), np.array([b[d] for d in docs])

    def describe(self) -> dict:
        """What a step records about the run it read."""
        return {"file": self.path, "config_file": self.config_path, "seed": self.seed, "baseline": self.baseline,
                "n_documents": len({d for rows in self.values.values() for d in rows})}


def tag(path: str) -> str:
    """The short name of a result file in step ids: ``restaurants-logistic`` for
    ``results/restaurants_logistic_p0.5_eps0.15.csv``, ``-original`` kept.

    >>> tag("results/yelp_logistic_p0.5_eps0.15_original.csv")
    'yelp-logistic-original'
    """
    return re.sub(r"_p[0-9.]+_eps[0-9.]+", "", Path(path).stem).replace("_", "-")


def _config(md: Path) -> dict[str, str]:
    if not md.is_file():
        return {}
    for line in md.read_text().splitlines():
        if line.startswith("Configuration:"):
            pairs = re.findall(r"(\w+)=(\([^)]*\)|[^,]*)", line.removeprefix("Configuration:"))
            return {k: v.strip() for k, v in pairs}
    return {}


def _number(text: str) -> float:
    return float(text) if text not in ("", "nan") else math.nan


def load_run(path: str) -> Run | None:
    """The result file ``path`` (relative to the repository root), or None when it is not there."""
    csv_path = ROOT / path
    if not csv_path.is_file():
        return None
    values: dict[str, dict[int, dict[str, float]]] = {}
    with csv_path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            numbers = {c: _number(row[c]) for c in (*COLUMN.values(), "score", *_INTEGER_COLUMNS) if c in row}
            values.setdefault(row["explainer"], {})[int(row["doc"])] = numbers
    return Run(path, _config(csv_path.with_suffix(".md")), values)


@dataclass(frozen=True)
class PairedTest:
    """Explainer ``x`` against ``y`` on ``metric``, paired by document; ``p_holm`` is the p-value adjusted over the
    step's family."""

    x: str
    y: str
    metric: str
    n_documents: int
    n_nonzero: int
    w_plus: float
    w_minus: float
    mean_difference: float
    median_difference: float
    p_raw: float
    p_holm: float = field(default=math.nan)

    @property
    def better(self) -> str | None:
        """The explainer the signed ranks favour (``BETTER`` gives the metric's direction), None on a tie."""
        if self.w_plus == self.w_minus:
            return None
        higher = self.x if self.w_plus > self.w_minus else self.y
        return higher if BETTER[self.metric] > 0 else (self.y if higher == self.x else self.x)

    @property
    def significant(self) -> bool:
        return self.p_holm <= ALPHA

    @property
    def winner(self) -> str | None:
        """``better`` when the Holm-adjusted difference is significant, else None."""
        return self.better if self.significant else None

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "metric": self.metric, "column": COLUMN[self.metric],
                "n_documents": self.n_documents, "n_nonzero": self.n_nonzero, "w_plus": self.w_plus,
                "w_minus": self.w_minus, "mean_difference_x_minus_y": self.mean_difference,
                "median_difference_x_minus_y": self.median_difference, "p_raw": self.p_raw, "p_holm": self.p_holm,
                "better": self.better, "significant": self.significant}


def paired_test(run: Run, x: str, y: str, metric: str) -> PairedTest:
    """One Wilcoxon signed-rank test of ``x`` against ``y`` on ``metric`` (not yet adjusted)."""
    a, b = run.paired(x, y, metric)
    if a.size == 0:
        raise ValueError(f"{run.path}: no document has a finite {metric} for both {x} and {y}")
    r = signed_rank(a - b)
    return PairedTest(x, y, metric, int(a.size), r["n_nonzero"], r["w_plus"], r["w_minus"], float(np.mean(a - b)),
                      float(np.median(a - b)), r["p_value"])


def compare(run: Run, pairs: Iterable[tuple[str, str]], metrics: Iterable[str]) -> tuple[PairedTest, ...]:
    """Every pair ``(x, y)`` on every metric, Holm-adjusted as one family."""
    metrics = tuple(metrics)
    tests = [paired_test(run, x, y, metric) for x, y in pairs for metric in metrics]
    return tuple(replace(t, p_holm=p) for t, p in zip(tests, holm([t.p_raw for t in tests])))


def run_step(id: str, claim: str, run: Run, note: str, *, holds, values: dict) -> StepResult:
    """A statement step decided on the committed run ``run``: statistical evidence, the run's file and seed, and the
    family-wise level as its false-alarm probability."""
    return checked(id, claim, "statement", "statistical", f"{note} [read {run.path}]", holds=holds,
                   values={**run.describe(), "false_alarm_probability": ALPHA, **values})


#: Why a run named by a claim was not tested when its file is absent.
MISSING = "the file is not committed (results/README.md gives the command that makes it)"


def missing_step(id: str, claim: str, path: str, reason: str = MISSING) -> StepResult:
    """The step a run could not be tested on: argued, never holding, saying why (module docstring)."""
    return argued(id, claim, "statement", f"Not tested on {path}: {reason}; the claim is not machine-checked on "
                                          "this run.")


def run_steps(files: Iterable[str], step_of: Callable[[str], tuple[StepResult, dict | None]]
              ) -> tuple[list[StepResult], dict | None]:
    """One statement step per committed run (``step_of(path)`` returns the step and, when it fails, the
    contradicting values), and the first run that contradicts the claim (None when none does)."""
    steps, first = [], None
    for path in files:
        step, failing = step_of(path)
        steps.append(step)
        first = first or failing
    return steps, first
