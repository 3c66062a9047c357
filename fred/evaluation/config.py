"""The configuration of an evaluation run: everything its numbers depend on, and the files it writes.

A :class:`RunConfig` names its files (:attr:`RunConfig.stem`, :func:`output_paths`) and is recorded in the run's
Markdown summary and ``.run.json``; a run resumed into the same directory must have the same one. The committed
runs live in the data package :data:`RESULTS_PACKAGE` (:func:`results_dir`), where the experiment claims read them
and where a run writes by default.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from fred_constants import BASELINES, EPS, P, SEARCHES

from ..validation import check_int
from .explainers import EXPLAINERS, LIME_SAMPLES
from .factories import parse_factory
from .models import MODELS

#: The data package of the committed results: pyproject.toml maps it to the checkout's ``results/`` (one copy), and
#: a wheel ships its files.
RESULTS_PACKAGE = "fred_results"
#: How claims and documents name a committed result file: ``results/<file>``, relative to the checkout.
RESULTS_PREFIX = "results"

#: The explainers LIME and SHAP may take k from (the size of that explainer's explanation of the same document).
K_FROM = ("fred", "fredpos")


@dataclass(frozen=True)
class RunConfig:
    """Everything a run's numbers depend on (written into the Markdown and the ``.run.json``).

    The options that reproduce the authors' setting (their ``main.py`` and
    released ``fred/explainer.py``), each changing one thing:

    * ``n_samples=5000``: FRED draws 5000 samples per explanation instead of
      Lemma 2's ``sample_size(0.95, p, min(10, b))`` (766 for an 8-token
      document, 47 for a 4-token one at p = 1/2);
    * ``search="released-beam"``: FRED's search is the released code's beam (each
      of the 4 kept candidates extended only by the 10 positions of largest
      singleton drop outside it; :mod:`fred.search`) instead of ``"auto"``
      (Algorithm 1 when at most 100 000 candidates exist, else fred's width-4 beam);
    * ``min_tokens=4``: documents of 3 tokens or fewer are dropped before the
      first ``n_docs`` are taken (``main.py`` keeps texts with more than 2 spaces);
    * ``k_from="fredpos"``: LIME and SHAP return as many tokens as FRED-pos's
      explanation of the same document instead of FRED-mask's;
    * ``baseline="original"``: FRED's threshold is eps * f(xi) instead of eps * E[f].
    """

    dataset: str
    model: str
    explainers: tuple[str, ...]
    n_docs: int = 100
    p: float = P
    eps: float = EPS
    k_robust: int = 10
    seed: int = 0
    n_samples: int | None = None
    lime_samples: int = LIME_SAMPLES
    k_from: str = "fred"
    baseline: str = "mean"
    search: str = "auto"
    min_tokens: int = 1
    data_dir: str | None = None
    #: Explainers from outside, ``NAME=module:factory`` each (:mod:`fred.evaluation.factories`); their names are
    #: among ``explainers``.
    factories: tuple[str, ...] = ()
    command: str = field(default="", compare=False)

    def __post_init__(self):
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, got {self.model!r}")
        outside = self.outside
        unknown = [e for e in self.explainers if e not in EXPLAINERS and e not in outside]
        if unknown or not self.explainers or len(set(self.explainers)) != len(self.explainers):
            raise ValueError(f"explainers must be distinct names among {EXPLAINERS} and the factories' "
                             f"{tuple(outside)}, got {self.explainers}")
        if len(outside) != len(self.factories) or not set(outside) <= set(self.explainers):
            raise ValueError(f"factories must have distinct names, each among explainers, got {self.factories}")
        if self.baseline not in BASELINES:
            raise ValueError(f"baseline must be {' or '.join(map(repr, BASELINES))}, got {self.baseline!r}")
        if self.k_from not in K_FROM:
            raise ValueError(f"k_from must be {' or '.join(map(repr, K_FROM))}, got {self.k_from!r}")
        if self.search not in SEARCHES:
            raise ValueError(f"search must be one of {SEARCHES}, got {self.search!r}")
        if any(e in ("lime", "shap") for e in self.explainers) and self.k_from not in self.explainers:
            raise ValueError(f"lime and shap take k from {self.k_from!r}, which must be among the explainers")
        for name, low in (("n_docs", 1), ("k_robust", 0), ("lime_samples", 1), ("seed", 0), ("min_tokens", 1)):
            check_int(getattr(self, name), name, low)
        if self.n_samples is not None:
            check_int(self.n_samples, "n_samples", 1)

    @property
    def stem(self) -> str:
        """``{dataset}_{model}_p{p}_eps{eps}``, then a suffix per option away from its default, in the order
        baseline, n_samples, search, min_tokens, k_from, then ``with-NAME`` per explainer from outside:
        ``yelp_logistic_p0.5_eps0.15_original_n5000_released-beam_min4_kfredpos`` for the authors' setting."""
        parts = [f"{self.dataset}_{self.model}_p{self.p:g}_eps{self.eps:g}"]
        if self.baseline != "mean":
            parts.append(self.baseline)
        if self.n_samples is not None:
            parts.append(f"n{self.n_samples}")
        if self.search != "auto":
            parts.append(self.search)
        if self.min_tokens != 1:
            parts.append(f"min{self.min_tokens}")
        if self.k_from != "fred":
            parts.append(f"k{self.k_from}")
        # An explainer from outside gets its own files: a run of it never resumes, or replaces, a committed run.
        parts += [f"with-{name}" for name in self.outside]
        return "_".join(parts)

    @property
    def outside(self) -> dict[str, str]:
        """The explainers from outside: name -> ``module:factory``."""
        return dict(parse_factory(spec) for spec in self.factories)

    def describe(self) -> dict:
        """The configuration without the command, JSON-able (what a resumed run must match); ``factories`` only
        when there are some, so that the runs recorded before the option existed still resume."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()
                if k != "command" and (k != "factories" or v)}


def output_paths(config: RunConfig, out: str | os.PathLike) -> tuple[Path, Path, Path]:
    """The per-document CSV, the Markdown summary and the run record of ``config`` under ``out``."""
    out = Path(out)
    return out / f"{config.stem}.csv", out / f"{config.stem}.md", out / f"{config.stem}.run.json"


def results_dir() -> Path:
    """The directory of the committed results (:data:`RESULTS_PACKAGE`, resolved by importlib.resources): the
    checkout's ``results/`` in an editable install, the installed package's files otherwise.

    Raises
    ------
    FileNotFoundError
        If the package is installed somewhere that is not a directory (a zip archive), where no run can be written.
    """
    found = resources.files(RESULTS_PACKAGE)
    if not isinstance(found, Path) or not found.is_dir():
        raise FileNotFoundError(f"the results package {RESULTS_PACKAGE} is not a directory here ({found}); pass an "
                                "output directory explicitly")
    return found


def result_file(path: str) -> Path:
    """The committed file named ``path`` the way claims and documents name it (``results/<file>``) in
    :func:`results_dir`; ValueError for a path outside ``results/``.

    >>> result_file("results/yelp_logistic_p0.5_eps0.15.csv") == results_dir() / "yelp_logistic_p0.5_eps0.15.csv"
    True
    """
    folder, _, name = path.partition("/")
    if folder != RESULTS_PREFIX or not name:
        raise ValueError(f"path must name a file under {RESULTS_PREFIX}/, got {path!r}")
    return results_dir() / name
