"""Paired tests on the committed per-document results (``results/*.csv``), for the claims of kind "experiment".

A result file has one row per (document, explainer) with the metrics of that explanation; the ``.md`` beside it
gives the command and the configuration of the run (its seed among them). Two explainers are compared on the
documents both explained, pairing their values document by document.

**The test.** ``scipy.stats.wilcoxon`` on the non-zero differences d = x - y, ``alternative="two-sided"``,
``zero_method="wilcox"``, ``method="auto"``:

* two-sided, with the direction read from the signed ranks (W+ against W-), because the claims need decisions
  both ways (significantly better supports a claim, significantly worse contradicts it); a
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
:data:`fred_constants.LEVEL`, 0.05), and a difference is significant when its adjusted p-value is at most
:data:`~fred_constants.LEVEL`. A claim holds only when every one of its steps holds (an intersection-union test),
which needs no correction across steps: a claim wrongly found "supported" needs a false significant difference in
one family, whose probability Holm keeps at most :data:`~fred_constants.LEVEL` (for directions read off two-sided
tests this is the usual guarantee, proved for independent tests), or a false "not worse" (below). That level is the
``false_alarm_probability`` each statistical step records. A step whose tests neither confirm nor contradict what it
checks is inconclusive, never a failure.

**Power.** With m documents where two explainers differ, the exact signed-rank test cannot give a two-sided p-value
below 2/2^m (every difference of one sign), and Holm's first rejection in a family of k tests needs p <= LEVEL/k:
with k = 3, m >= 7 (3 * 2/2^6 = 3/32 > 0.05). Each test records the smallest p-value its test could give on its own
magnitudes (``p_attainable``: the test applied to |d|, every difference made positive; 2/2^m on the exact branch)
and the Holm adjustment of those over the family (``p_holm_attainable``, Holm's adjustment being non-decreasing in
every p-value): a test whose ``p_holm_attainable`` exceeds :data:`~fred_constants.LEVEL` cannot reject at any data
with its magnitudes, and its non-rejection is no evidence at all. No non-rejection is evidence of "no difference"
either: "not worse" needs :func:`noninferiority`.

**Not worse.** :func:`noninferiority` is the one-sided half of a TOST: a paired t-test of H0 "x is worse than y by at
least :data:`MARGIN` on average" (the metric's arrow sets "worse"), rejected at :data:`~fred_constants.LEVEL`. A
statement that needs "not worse" on several metrics needs every one of those tests to reject (an intersection-union
test, which needs no multiplicity correction). :data:`MARGIN` is the printing resolution of the paper's tables, 0.001 in
the units of the metrics (the model's predicted probability;
:data:`proofs_checks.paper.yardstick.MEAN_UNIT`): "not worse" is "not worse by as much as the smallest
difference the paper's tables print". The t-test's level rests on the mean of 100 paired differences being close to
normal.

**Close.** :func:`paired_equivalence` is the yardstick's "close" (:data:`proofs_checks.paper.yardstick.RULE`) on a
committed run: the same margin, :data:`fred_constants.SMALL_EFFECT` times the pooled standard deviation of the two
explainers' values over the run's documents, sqrt((s_x^2 + s_y^2) / 2), and a paired TOST: two one-sided paired
t-tests, each at 0.05/3 (the yardstick's TOST level, :data:`~proofs_checks.paper.yardstick.CLEAR_LEVEL`: a TOST at
level alpha runs each side at alpha), with n - 1 degrees of freedom; 'not close' is one one-sided test at 0.05/6, as
the yardstick's 'better'. The margin is in standard deviations of the values, not of the paired differences: it then
means what it means on the tables (Cohen's d between the two explainers), and pairing only narrows the test's standard
error; a margin in standard deviations of the differences (Cohen's d_z) would shrink as the two explainers agree
more, a different and data-dependent quantity. The pooled standard deviation is estimated from the run (a plug-in:
the test's level is that of the t-tests given it). "Not close" is the gap shown beyond the margin by the same
one-sided test on the observed side.

**The setting.** :func:`setting` computes, from a run's configuration, whether it is in the paper's setting (a
model and dataset the paper has a table for, at its p and eps) and in the authors' (their threshold, n = 5000,
their beam, documents of at least 4 tokens, LIME/SHAP k = |FRED-pos|, 100 documents): a claim's hypotheses pick the
conditions its sentence needs (:func:`setting_hypotheses`), and a run outside them is this project's extension,
never a counterexample. Even in the authors' setting, FRED-pos is this project's PosSampler (the authors'
replacement dictionaries differ), and the models with such runs, the Restaurants and Yelp logistic regressions,
have their tables in the appendix: :func:`setting_label` says both wherever a step names the setting.

**Missing files.** The committed results ship with the package (the data package ``fred_results``, the
checkout's ``results/``); a result file that is not committed does not crash the report: :func:`missing_step`
gives an ``argued`` step saying what was not tested and where the command that makes the file is, so the claim
cannot read "supported" on fewer runs than it names (the rule makes an experiment with an untested step
"unproved"), and a failing step elsewhere still decides "not supported". An argued step, not a failing one: a run
that was not made is no evidence against the paper.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from scipy import stats

from fred.evaluation.config import result_file
from fred.evaluation.statistics import holm, signed_rank
from fred_constants import LEVEL, SMALL_EFFECT

from ...paper.tables import BETTER, TABLES
from ...paper.yardstick import CLEAR_LEVEL, MEAN_UNIT
from ...verdicts.results import Claim, StepResult, hypotheses

#: Non-inferiority margin of :func:`noninferiority`, in the units of the metric: the tables' printing resolution
#: (module docstring).
MARGIN = MEAN_UNIT
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
    """One committed result file: ``path`` as the checkout names it (``results/<file>``), the configuration of its
    ``.md``, and ``values[explainer][doc][column]`` for the numeric columns of the CSV."""

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

    @property
    def paper_table(self) -> str:
        """The label the paper's table for the run's dataset, model and p would have (``exp-tab:yelp_forest_5``)."""
        c = self.config
        p = {"0.5": "5", "0.1": "1"}.get(c.get("p", ""), "?")
        return f"exp-tab:{c.get('dataset')}_{c.get('model')}_{p}"


def setting(run: Run) -> dict[str, bool]:
    """Each condition of the paper's and the authors' setting, computed from the run's configuration (module
    docstring): ``paper_table`` (the paper has a table for the run's dataset, model and p, at eps = 0.15),
    ``authors_threshold``, ``authors_sample_size``, ``authors_search``, ``authors_min_tokens``, ``k_from_fredpos``,
    ``paper_document_count`` (100 documents) and ``papers_machine`` (timed on the paper's Nvidia A100)."""
    c = run.config
    return {"paper_table": run.paper_table in TABLES and c.get("eps") == "0.15",
            "authors_threshold": run.baseline == "original", "authors_sample_size": c.get("n_samples") == "5000",
            "authors_search": c.get("search") == "released-beam", "authors_min_tokens": c.get("min_tokens") == "4",
            "k_from_fredpos": c.get("k_from") == "fredpos", "paper_document_count": c.get("n_docs") == "100",
            "papers_machine": "A100" in c.get("machine", "")}


#: The conditions of the authors' setting (:func:`setting`), all of which a run in it meets.
AUTHORS_SETTING = ("paper_table", "paper_document_count", "authors_threshold", "authors_sample_size",
                   "authors_search", "authors_min_tokens", "k_from_fredpos")


def setting_hypotheses(run: Run, conditions: tuple[str, ...] = AUTHORS_SETTING) -> dict:
    """The hypotheses record (results.hypotheses) of ``conditions`` of :func:`setting` on ``run``: whether the run
    is in the setting a claim's sentence needs."""
    s = setting(run)
    return hypotheses(**{k: s[k] for k in conditions})


def setting_label(run: Run, record: dict) -> str:
    """How a step names the setting of ``run`` given its :func:`setting_hypotheses` ``record``: the authors'
    settings it meets, this project's FRED-pos, and where the paper prints the model's table; or this project's
    setting and the conditions it misses."""
    if not record["satisfies_hypotheses"]:
        missed = [k for k, ok in record["hypotheses"].items() if not ok]
        return f"this project's setting (not {', '.join(missed)})"
    k = " and LIME/SHAP k = |FRED-pos|" if "k_from_fredpos" in record["hypotheses"] else ""
    return (f"the authors' threshold, n = 5000, beam and minimum length{k}, with this project's FRED-pos; the "
            f"model of {run.paper_table}, a table of {TABLES[run.paper_table].place}")


def tag(path: str) -> str:
    """The short name of a result file in step ids: ``restaurants-logistic`` for
    ``results/restaurants_logistic_p0.5_eps0.15.csv``, ``-original`` kept.

    >>> tag("results/yelp_logistic_p0.5_eps0.15_original.csv")
    'yelp-logistic-original'
    """
    return re.sub(r"_p[0-9.]+_eps[0-9.]+", "", Path(path).stem).replace("_", "-")


def _config(md: Path) -> dict[str, str]:
    """The ``Configuration:`` line of a run's summary as key=value pairs, and its ``Machine:`` line as ``machine``."""
    if not md.is_file():
        return {}
    config = {}
    for line in md.read_text().splitlines():
        if line.startswith("Configuration:"):
            pairs = re.findall(r"(\w+)=(\([^)]*\)|[^,]*)", line.removeprefix("Configuration:"))
            config.update((k, v.strip()) for k, v in pairs)
        elif line.startswith("Machine:"):
            config["machine"] = line.removeprefix("Machine:").strip()
    return config


def _number(text: str) -> float:
    return float(text) if text not in ("", "nan") else math.nan


def load_run(path: str) -> Run | None:
    """The result file ``path`` (``results/<file>``, found in the shipped results by
    :func:`fred.evaluation.config.result_file`), or None when it is not there."""
    csv_path = result_file(path)
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
    p_attainable: float
    p_holm: float = field(default=math.nan)
    p_holm_attainable: float = field(default=math.nan)

    @property
    def better(self) -> str | None:
        """The explainer the signed ranks favour (``BETTER`` gives the metric's direction), None on a tie."""
        if self.w_plus == self.w_minus:
            return None
        higher = self.x if self.w_plus > self.w_minus else self.y
        return higher if BETTER[self.metric] > 0 else (self.y if higher == self.x else self.x)

    @property
    def significant(self) -> bool:
        return self.p_holm <= LEVEL

    @property
    def can_reject(self) -> bool:
        """Whether the test can reject at :data:`~fred_constants.LEVEL` in its family at any data with its magnitudes
        (module docstring, "Power")."""
        return self.p_holm_attainable <= LEVEL

    @property
    def winner(self) -> str | None:
        """``better`` when the Holm-adjusted difference is significant, else None."""
        return self.better if self.significant else None

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "metric": self.metric, "column": COLUMN[self.metric],
                "n_documents": self.n_documents, "n_nonzero": self.n_nonzero, "w_plus": self.w_plus,
                "w_minus": self.w_minus, "mean_difference_x_minus_y": self.mean_difference,
                "median_difference_x_minus_y": self.median_difference, "p_raw": self.p_raw, "p_holm": self.p_holm,
                "p_attainable": self.p_attainable, "p_holm_attainable": self.p_holm_attainable,
                "can_reject": self.can_reject, "better": self.better, "significant": self.significant}


def paired_test(run: Run, x: str, y: str, metric: str) -> PairedTest:
    """One Wilcoxon signed-rank test of ``x`` against ``y`` on ``metric`` (not yet adjusted)."""
    a, b = run.paired(x, y, metric)
    if a.size == 0:
        raise ValueError(f"{run.path}: no document has a finite {metric} for both {x} and {y}")
    r = signed_rank(a - b)
    return PairedTest(x, y, metric, int(a.size), r["n_nonzero"], r["w_plus"], r["w_minus"], float(np.mean(a - b)),
                      float(np.median(a - b)), r["p_value"], attainable_p(a - b))


#: Up to this many non-zero differences the signed-rank test is exact on every branch (its exact null distribution,
#: or all 2^m sign flips of the midranks when |d| has ties), fred.evaluation.statistics.
EXACT_UP_TO = 13


def attainable_p(d: np.ndarray) -> float:
    """The smallest p-value the signed-rank test can give on differences with the magnitudes of ``d`` (module
    docstring, "Power"): every difference of one sign. With m <= :data:`EXACT_UP_TO` non-zero differences the test
    is exact and that is min(1, 2/2^m), a power of two and so exact in floating point; beyond, the test itself
    applied to |d| (its normal approximation with ties, where 2/2^m would flatter it).

    >>> attainable_p(np.array([0.3, -0.1, 0.0, 0.2, 0.2, -0.5, 0.4]))  # six differ: 2/2^6 = 1/32
    0.03125
    """
    m = int(np.count_nonzero(d))
    return min(1.0, 2.0 ** (1 - m)) if m <= EXACT_UP_TO else signed_rank(np.abs(d))["p_value"]


def compare(run: Run, pairs: Iterable[tuple[str, str]], metrics: Iterable[str]) -> tuple[PairedTest, ...]:
    """Every pair ``(x, y)`` on every metric, Holm-adjusted as one family (the attainable p-values too)."""
    metrics = tuple(metrics)
    tests = [paired_test(run, x, y, metric) for x, y in pairs for metric in metrics]
    return tuple(replace(t, p_holm=p, p_holm_attainable=q) for t, p, q in
                 zip(tests, holm([t.p_raw for t in tests]), holm([t.p_attainable for t in tests])))


def noninferiority(run: Run, x: str, y: str, metric: str, margin: float = MARGIN) -> dict:
    """Whether ``x`` is shown not worse than ``y`` on ``metric`` by more than ``margin`` (module docstring, "Not
    worse"): the one-sided paired t-test of H0 mean(s (x - y)) <= -margin, s = +1 when higher is better, -1 when
    lower is; ``not_worse`` when it rejects at :data:`~fred_constants.LEVEL`. With fewer than two documents, or
    every difference equal, the t-test is undefined and the decision is the sign of the shifted difference itself."""
    a, b = run.paired(x, y, metric)
    shifted = BETTER[metric] * (a - b) + margin
    if shifted.size < 2 or np.ptp(shifted) == 0:
        p = 0.0 if shifted.size and shifted[0] > 0 else 1.0
    else:
        p = float(stats.ttest_1samp(shifted, 0.0, alternative="greater").pvalue)
    return {"x": x, "y": y, "metric": metric, "margin": margin, "n_documents": int(shifted.size),
            "mean_advantage_x": float(np.mean(shifted) - margin) if shifted.size else math.nan, "p_value": p,
            "not_worse": p <= LEVEL}


def paired_equivalence(run: Run, x: str, y: str, metric: str, margin: float = SMALL_EFFECT) -> dict:
    """Whether ``x`` and ``y`` are close on ``metric`` in ``run`` (module docstring, "Close"): the mean paired
    difference, the pooled standard deviation P of the values, the binding t statistic of the TOST, (margin P -
    |mean d|) / (sd(d) / sqrt(n)), its critical value, and ``close``: +1 shown within margin P, -1 shown beyond it
    (the statistic at or below minus ``critical_beyond``, the 0.05/6 one-sided value), 0 undecided. When every
    difference is the same the
    t-tests are undefined and the decision is that difference against the bound; fewer than two documents decide
    nothing."""
    a, b = run.paired(x, y, metric)
    n, d = int(a.size), a - b
    if n < 2:
        return {"x": x, "y": y, "metric": metric, "n_documents": n, "margin": margin, "close": 0}
    pooled = math.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2)
    bound, mean, sd = margin * pooled, float(np.mean(d)), float(np.std(d, ddof=1))
    critical, beyond = float(stats.t.ppf(1 - CLEAR_LEVEL, n - 1)), float(stats.t.ppf(1 - CLEAR_LEVEL / 2, n - 1))
    if sd == 0:
        statistic = math.inf if abs(mean) < bound else -math.inf if abs(mean) > bound else 0.0
    else:
        statistic = (bound - abs(mean)) / (sd / math.sqrt(n))
    return {"x": x, "y": y, "metric": metric, "n_documents": n, "mean_difference": mean, "sd_difference": sd,
            "pooled_sd": pooled, "margin": margin, "bound": bound, "t_within": statistic, "critical": critical,
            "critical_beyond": beyond, "close": 1 if statistic >= critical else -1 if statistic <= -beyond else 0}


def run_step(claim: Claim, step: str, run: Run, note: str, *, holds, values: dict, conclusive=True,
             reading: str | None = None) -> StepResult:
    """``claim``'s statement step ``<step>-<the run's tag>`` decided on the committed run ``run``: statistical
    evidence, the run's file and seed, and the family-wise level as its false-alarm probability; ``conclusive``
    False when its tests neither reject nor confirm (module docstring), ``reading`` the claim's reading the run
    speaks to."""
    return claim.checked(f"{step}-{run.tag}", "statement", "statistical", f"{note} [read {run.path}]", holds=holds,
                         values={**run.describe(), "false_alarm_probability": LEVEL, **values}, conclusive=conclusive,
                         reading=reading)


#: Why a run named by a claim was not tested when its file is absent.
MISSING = "the file is not committed (results/README.md gives the command that makes it)"


def missing_step(claim: Claim, step: str, path: str, reason: str = MISSING, reading: str | None = None) -> StepResult:
    """``claim``'s step ``<step>-<the file's tag>`` for a run that could not be tested: argued, never holding,
    saying why (module docstring)."""
    return claim.argued(f"{step}-{tag(path)}", "statement", f"Not tested on {path}: {reason}; the claim is not "
                                                            "machine-checked on this run.", reading=reading)


def each_run(claim: Claim, step: str, files: Iterable[str], test: Callable[[Run, str], StepResult], *,
             reading: str | None = None) -> tuple[StepResult, ...]:
    """One step ``step`` of ``claim`` per file of ``files``: ``test(run, step)`` on a committed run, and
    :func:`missing_step` (under ``reading``) for a file that is not committed."""
    return tuple(missing_step(claim, step, path, reading=reading) if (run := load_run(path)) is None
                 else test(run, step) for path in files)
