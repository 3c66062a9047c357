"""The authors' released training pipeline (``main.py``), run as an outside program on the review data.

That code has no license: nothing of it is copied or imported into this project. :func:`released_runs` runs its
script (``_authors_pipeline_script.py``, which imports nothing of this project), ``python
_authors_pipeline_script.py CHECKOUT COMMAND``, in a subprocess whose ``sys.path`` starts with the
checkout and whose working directory is a fresh temporary folder holding ``data/``, two symbolic links to the data
files (read in place, never copied: ``data/restaurants.tsv`` -> ``restaurants.tsv`` and
``data/positive_negative_reviews_yelp.csv`` -> ``yelp.csv``, the names the released loaders open) and the
``results/`` folder ``main.py`` writes.

For each dataset (Restaurants, Yelp) and each TF-IDF model (logistic regression, decision tree, random forest) the
script calls the released ``main.main()`` with the command line ``--dataset D --model M --explainers FRED``: it
seeds numpy with its default seed (42), splits with the released loader, trains the released model, writes the
accuracy it prints to ``info.json``, selects the documents to explain and hands them to
``experiments.evaluation.Evaluation``. Only ``Evaluation.evaluate`` is replaced, by a function that records the
documents it was given and the model (no explainer runs). The answer, per run: the accuracy read back from
``info.json``, the test set's size, the token count (``str.split``, after the released preprocessing) and predicted
label of every test document, the token counts and predicted labels of the documents handed to the evaluation in
their order, the
parameters of the trained estimator and vectorizer beside those of the same classes built with no argument (the
installed scikit-learn's defaults); per dataset, the token count of every document of the dataset.

The command ``explainers`` (no data needed) builds each released explainer class (``explainers/lime_explainer.py``,
``shap_explainer.py``, ``anchor_explainer.py``, ``fred_explainer.py``) as the pipeline does, on a stand-in model
(a logistic model of word counts, :data:`PROBE_WEIGHTS`), with the real lime, shap and anchor packages, and
explains :data:`PROBE_DOCUMENT`. Every call the released classes make into those packages (constructors,
``explain_instance``, the shap explainer's call) is recorded with the arguments passed and the signature's defaults
(``inspect.signature``); the answer also holds each explainer's ranking (``get_ranked_tokens``), the scores it ranks
by, and the positions the released ``experiments.metrics.compute_aucmorf`` masks, in order; and the same for the
released SHAP class on every positively predicted sub-document of the probe (its words kept in order). There spaCy
is the real package whose ``load`` returns a blank English pipeline (``en_core_web_lg`` is not installed; Anchor's
default UNK distribution uses only its tokenizer), and numba's compiler is off (``NUMBA_DISABLE_JIT``: shap's loops
run as Python, with the same values, without some twenty seconds of compilation).

The pipeline's stand-ins, in that interpreter only: the driver's stubs of ``spacy`` and ``textblob``
(:func:`proofs_checks.subject._authors_driver._install_stubs`, loaded from its file; the released ``fred`` package
imports them, the TF-IDF runs never use them) and a ``torch`` module whose ``cuda.is_available()`` is False
(``main.py`` imports torch only to name a device it never uses; the real import costs seconds), with a
``Tensor`` class no array is an instance of (scipy asks, once torch is in ``sys.modules``).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fred.evaluation.datasets import DATA_ENV, dataset_available, dataset_file

from ._authors_pipeline_script import (
    EXPLAINED_FIRST,
    EXPLAINED_MODEL,
    PIPELINE_DATASETS,
    PIPELINE_MODELS,
    PROBE_BIAS,
    PROBE_DOCUMENT,
    PROBE_SEED,
    PROBE_WEIGHTS,
)
from .authors import CHECKOUT_ENV

__all__ = ["COMMAND_FILES", "EXPLAINED_FIRST", "EXPLAINED_MODEL", "EXPLAINER_PACKAGES", "PIPELINE_DATASETS",
           "PIPELINE_FILES", "PIPELINE_MODELS", "PROBE_BIAS", "PROBE_DOCUMENT", "PROBE_SEED", "PROBE_WEIGHTS",
           "explained_runs", "explainer_runs", "missing_inputs", "not_run", "pipeline_runs", "released_runs"]
_SCRIPT = Path(__file__).with_name("_authors_pipeline_script.py")

#: Files of the checkout the script runs (relative to its root).
PIPELINE_FILES = ("main.py", "utils/setup.py", "utils/args.py", "data/restaurants.py", "data/yelp.py",
                  "models/logistic_classifier.py", "models/tree_classifier.py", "models/forest_classifier.py",
                  "experiments/evaluation.py")
#: Files of the checkout each command runs.
COMMAND_FILES = {"pipeline": PIPELINE_FILES,
                 "explainers": ("explainers/lime_explainer.py", "explainers/shap_explainer.py",
                                "explainers/anchor_explainer.py", "explainers/fred_explainer.py",
                                "experiments/metrics.py", "fred/explainer.py"),
                 "explained": PIPELINE_FILES + ("explainers/shap_explainer.py", "experiments/metrics.py")}
#: The packages the ``explainers`` command runs (the eval extra's), and those the ``explained`` command runs.
EXPLAINER_PACKAGES = ("lime", "shap", "anchor", "spacy")
EXPLAINED_PACKAGES = ("lime", "shap")
TIMEOUT_SECONDS = 300



def missing_inputs(command: str = "pipeline") -> list[str]:
    """What ``command`` needs and this machine lacks, each named with the way to provide it (empty: none): the
    pipeline needs the checkout and the data, the explainers the checkout and the packages they call, the explained
    documents' run all three."""
    missing = [] if os.environ.get(CHECKOUT_ENV) else [f"${CHECKOUT_ENV} is not set (the released code)"]
    if command != "pipeline":
        packages = EXPLAINER_PACKAGES if command == "explainers" else EXPLAINED_PACKAGES
        absent = [p for p in packages if importlib.util.find_spec(p) is None]
        if absent:
            missing.append(f"the packages {', '.join(absent)} are not installed (the eval extra)")
        if command == "explainers":
            return missing
    absent = [name for name, _ in PIPELINE_DATASETS.values() if not dataset_available(name)]
    if absent:
        missing.append(f"the data ({', '.join(absent)}: set ${DATA_ENV}, or ../shared/data beside the checkout)")
    return missing


def not_run(what: str, command: str = "pipeline") -> str:
    """The sentence of a step that needs ``command``'s run and cannot run here, naming what is missing."""
    return f"Not run here: {'; '.join(missing_inputs(command))}. With them, this step {what}"


def explainer_runs() -> dict | None:
    """The released explainers' calls on :data:`PROBE_DOCUMENT` (command ``explainers``); None without the
    checkout or the packages (no data is needed)."""
    if missing_inputs("explainers"):
        return None
    return released_runs(str(Path(os.environ[CHECKOUT_ENV]).resolve()), (), "explainers")


def pipeline_runs() -> dict | None:
    """The released pipeline's runs on the data of ``$FRED_DATA_DIR`` (or ``../shared/data``) with the checkout of
    ``$FRED_AUTHORS_CHECKOUT``; None when either is missing (:func:`missing_inputs` says which)."""
    if missing_inputs():
        return None
    files = tuple((released, str(dataset_file(name))) for name, released in PIPELINE_DATASETS.values())
    return released_runs(str(Path(os.environ[CHECKOUT_ENV]).resolve()), files)


def explained_runs() -> dict | None:
    """The released SHAP class and compute_aucmorf on the first explained documents of the pipeline's logistic runs
    (command ``explained``); None when the checkout, the data or the packages are missing."""
    if missing_inputs("explained"):
        return None
    files = tuple((released, str(dataset_file(name))) for name, released in PIPELINE_DATASETS.values())
    return released_runs(str(Path(os.environ[CHECKOUT_ENV]).resolve()), files, "explained")


@functools.lru_cache(maxsize=4)
def released_runs(checkout: str, files: tuple[tuple[str, str], ...], command: str = "pipeline") -> dict:
    """Run the script's ``command`` on ``checkout`` with ``files`` (released file name, path of the data file)
    linked under ``data/``; the JSON answer, computed once per process and arguments.

    Raises FileNotFoundError when the checkout lacks a file the script runs, RuntimeError when the released code's
    process fails or ran files from somewhere else.
    """
    root = Path(checkout)
    missing = [f for f in COMMAND_FILES[command] if not (root / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{root} is not a checkout of the authors' repository: no {', '.join(missing)}")
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "data").mkdir()
        for released, path in files:
            (Path(work) / "data" / released).symlink_to(Path(path).resolve())
        done = subprocess.run([sys.executable, str(_SCRIPT.resolve()), str(root), command], capture_output=True,
                              text=True, cwd=work, timeout=TIMEOUT_SECONDS, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the released pipeline's process failed ({done.returncode}):\n{done.stderr[-3000:]}")
    reply = json.loads(done.stdout)
    if not all(Path(f).resolve().is_relative_to(root) for f in reply["files"]):
        raise RuntimeError(f"the pipeline ran {reply['files']}, not files of {root}")
    return reply
