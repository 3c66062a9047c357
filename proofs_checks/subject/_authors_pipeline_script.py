"""The script side of :mod:`proofs_checks.subject.authors_pipeline`: run as ``python _authors_pipeline_script.py
CHECKOUT COMMAND`` in the released code's interpreter (its checkout first on ``sys.path``, the name ``fred`` bound
to the checkout's package), it imports nothing of this project (the released package is named ``fred``, like ours).
What each command does and which stand-ins it installs is said in :mod:`proofs_checks.subject.authors_pipeline`.
The constants the parent side shares (the datasets and models run, the probe document and model) are defined here,
once, and imported there.
"""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

#: The released pipeline's names of the datasets run here, with this project's dataset name and the file name the
#: released loader opens under ``data/``.
PIPELINE_DATASETS = {"restaurants": ("restaurants", "restaurants.tsv"),
                     "yelp": ("yelp", "positive_negative_reviews_yelp.csv")}
#: The released pipeline's TF-IDF models (``utils/args.py``'s names), in the order of the paper's table.
PIPELINE_MODELS = ("logistic_classifier", "tree_classifier", "forest_classifier")
#: The document the ``explainers`` command explains, and the stand-in model's weights (a logistic model of word
#: counts): positive only when both "good" and "nice" are present, "bad" pulls towards the negative class, the
#: other words do not count. On the document the confidence is sigmoid(1) = 0.73 (a positive prediction).
PROBE_DOCUMENT = "good nice food but bad service"
PROBE_WEIGHTS = {"good": 2.0, "nice": 2.0, "bad": -0.5}
PROBE_BIAS = -2.5
#: The seed of numpy's and random's global generators before each explainer of the probe (the released modules seed
#: them with 42 at import; lime, anchor and FRED draw from them), so that the answer is reproducible.
PROBE_SEED = 42
#: The model, and how many explained documents (the first ones, in the order main.py hands them to the evaluation),
#: the command ``explained`` runs the released SHAP class and compute_aucmorf on, per dataset.
EXPLAINED_MODEL = "logistic_classifier"
EXPLAINED_FIRST = 40

def _driver_stubs() -> None:
    """The driver's stubs of spacy and textblob and its IPython fix (loaded from its file)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_authors_driver", Path(__file__).with_name("_authors_driver.py"))
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    driver._install_stubs()


def _install_stand_ins() -> None:
    """The driver's stubs, and a torch whose only use (naming a device) works."""
    _driver_stubs()
    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(is_available=lambda: False)
    torch.device = lambda name: name
    torch.Tensor = type("Tensor", (), {})  # array libraries ask whether an array is a torch.Tensor: never here
    sys.modules["torch"] = torch


def _params(estimator) -> dict:
    """The estimator's parameters as built by the pipeline and as the class builds them with no argument."""
    return {"class": type(estimator).__name__,
            "params": {k: _shown(v) for k, v in estimator.get_params().items()},
            "defaults": {k: _shown(v) for k, v in type(estimator)().get_params().items()}}


def _one_run(released, seen: dict, dataset: str, model: str) -> dict:
    """``main.main()`` on ``dataset`` and ``model``; what it wrote and what it handed to the evaluation."""
    import glob

    sys.argv = ["main.py", "--dataset", dataset, "--model", model, "--explainers", "FRED"]
    released.main()
    with open(max(glob.glob(os.path.join("results", dataset, model, "*", "info.json")))) as written:
        info = json.load(written)
    trained, test = seen["model"], seen["x_test"]
    return {"accuracy": info["accuracy"], "seed": info["args"]["seed"], "n_test": len(test),
            "test_lengths": [len(x.split()) for x in test],
            "test_predicted": [int(v) for v in trained.predict(list(test))],
            "explained_lengths": [len(str(x).split()) for x in seen["corpus"]],
            "explained_predicted": [int(v) for v in trained.predict([str(x) for x in seen["corpus"]])],
            "estimator": _params(trained.model), "vectorizer": _params(trained.vectorizer)}


def _runs() -> dict:
    import numpy as np

    _install_stand_ins()
    import main as released  # the released pipeline's main.py, first on sys.path
    from experiments.evaluation import Evaluation
    from utils.setup import setup_dataset

    seen: dict = {}
    original_setup = released.setup_dataset

    def recording_setup(name):  # the released loader, its test documents recorded before main shuffles them
        split = original_setup(name)
        seen["x_test"] = list(split[1])
        return split

    def record(self):  # replaces Evaluation.evaluate: no explainer runs, the documents are recorded
        seen["corpus"], seen["model"] = list(self.corpus), self.model

    released.setup_dataset, Evaluation.evaluate = recording_setup, record
    runs = {d: {m: _one_run(released, seen, d, m) for m in PIPELINE_MODELS} for d in PIPELINE_DATASETS}
    np.random.seed(0)  # the split does not matter for the dataset's lengths
    lengths = {d: [len(x.split()) for part in setup_dataset(d)[:2] for x in part] for d in PIPELINE_DATASETS}
    return {"files": [released.__file__, sys.modules["data.restaurants"].__file__,
                      sys.modules["data.yelp"].__file__, sys.modules[Evaluation.__module__].__file__],
            "runs": runs, "dataset_lengths": lengths}


class _Asked:
    """A trained model whose ``predict_proba`` records the texts it is asked about (compute_aucmorf's masks)."""

    def __init__(self, model):
        self.model, self.queried = model, []

    def predict_proba(self, texts):
        texts = [str(t) for t in texts]
        self.queried.extend(texts)
        return self.model.predict_proba(texts)


def _explained_document(shap_class, metrics, model, document: str) -> dict:
    """The released SHAP class and compute_aucmorf on one explained document (its words joined by single spaces, as
    the released evaluation does); with LIME's features under bow=True and bow=False (lime's IndexedString)."""
    import numpy as np
    from lime.lime_text import IndexedString

    document = " ".join(str(document).split())
    explainer, asked = shap_class("SHAP", ["negative", "positive"], model), _Asked(model)
    exp = explainer.explain(document)
    confidence = float(model.predict_proba([document])[0, 1])
    metrics.compute_aucmorf(document, document.split(), confidence, None, explainer, exp, asked, 1,
                            len(document.split()))
    return {"document": document, "confidence": confidence, "masks": _masked_runs(asked, 1),
            "scores": [float(v) for v in np.asarray(exp.values[0][:, 1])],
            "lime_features": {str(bow): IndexedString(document, bow=bow).num_words() for bow in (True, False)}}


def _explained() -> dict:
    """Command ``explained``: main.main() with :data:`EXPLAINED_MODEL` on each dataset, the released SHAP class and
    compute_aucmorf on the first :data:`EXPLAINED_FIRST` documents it hands the evaluation."""
    import importlib

    import numpy as np

    os.environ["NUMBA_DISABLE_JIT"] = "1"  # shap's compiled loops run as Python: same values, no compile time
    import shap  # noqa: F401  (before the torch stand-in: shap sees no torch)

    _install_stand_ins()
    import main as released
    from experiments import metrics
    from experiments.evaluation import Evaluation

    shap_class, seen, answer = importlib.import_module("explainers.shap_explainer").SHAP, {}, {}

    def record(self):  # replaces Evaluation.evaluate: the documents and the model are recorded
        seen["corpus"], seen["model"] = list(self.corpus), self.model

    Evaluation.evaluate = record
    for dataset in PIPELINE_DATASETS:
        sys.argv = ["main.py", "--dataset", dataset, "--model", EXPLAINED_MODEL, "--explainers", "FRED"]
        released.main()
        np.random.seed(PROBE_SEED)
        model = seen["model"]
        answer[dataset] = {"explained": len(seen["corpus"]), "unk_in_vocabulary": "unk" in model.vectorizer.vocabulary_,
                           "documents": [_explained_document(shap_class, metrics, model, d)
                                         for d in seen["corpus"][:EXPLAINED_FIRST]]}
    return {"files": [released.__file__, metrics.__file__, sys.modules[shap_class.__module__].__file__],
            "model": EXPLAINED_MODEL, "runs": answer}


class _ProbeModel:
    """The stand-in model of the ``explainers`` command: a logistic model of word counts; it records the texts it
    is asked about."""

    def __init__(self):
        self.queried: list[str] = []

    def predict_proba(self, texts):
        import numpy as np

        texts = [str(t) for t in texts]
        self.queried.extend(texts)
        z = np.array([PROBE_BIAS + sum(PROBE_WEIGHTS.get(w, 0.0) for w in t.split()) for t in texts])
        p = 1 / (1 + np.exp(-z))
        return np.column_stack([1 - p, p])

    def predict(self, texts):
        return (self.predict_proba(texts)[:, 1] > 0.5).astype(int)


def _shown(value) -> str:
    """``repr(value)`` without memory addresses (which differ from run to run)."""
    import re

    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


def _recording(log: list, name: str, original, signature_of):
    """``original`` with each call's arguments recorded against ``signature_of``'s defaults."""
    import inspect

    signature = inspect.signature(signature_of)

    def call(*args, **kwargs):
        bound = signature.bind(*args, **kwargs).arguments
        params = signature.parameters
        log.append({"call": name, "passed": sorted(k for k in bound if k != "self"),
                    "non_default": {k: [_shown(v), _shown(params[k].default)] for k, v in bound.items()
                                    if params[k].default is not inspect.Parameter.empty
                                    and _shown(v) != _shown(params[k].default)},
                    "defaults": {k: _shown(p.default) for k, p in params.items()
                                 if p.default is not inspect.Parameter.empty}})
        return original(*args, **kwargs)

    return call


def _install_recorders(log: list) -> None:
    """Record the released explainers' calls into lime, shap and anchor. The driver's textblob stub and IPython fix;
    spaCy is the real one, whose ``load`` gives a blank English pipeline (``en_core_web_lg`` is not installed: with
    Anchor's UNK distribution only its tokenizer is used)."""
    _driver_stubs()
    del sys.modules["spacy"]  # the real spaCy, for Anchor's tokenizer; textblob stays the driver's stub
    import shap
    import spacy
    from anchor import anchor_text
    from lime import lime_text

    blank = spacy.blank("en")
    spacy.load = lambda name, *a, **k: blank
    lime_class, anchor_class = lime_text.LimeTextExplainer, anchor_text.AnchorText
    lime_class.explain_instance = _recording(log, "LimeTextExplainer.explain_instance", lime_class.explain_instance,
                                             lime_class.explain_instance)
    anchor_class.explain_instance = _recording(log, "AnchorText.explain_instance", anchor_class.explain_instance,
                                               anchor_class.explain_instance)
    lime_text.LimeTextExplainer = _recording(log, "LimeTextExplainer", lime_class, lime_class)
    anchor_text.AnchorText = _recording(log, "AnchorText", anchor_class, anchor_class)
    shap.maskers.Text = _recording(log, "shap.maskers.Text", shap.maskers.Text, shap.maskers.Text)
    explainer_class = shap.Explainer

    def made(*args, **kwargs):
        built = explainer_class(*args, **kwargs)
        kind = type(built)
        if not getattr(kind.__call__, "recorded", False):
            kind.__call__ = _recording(log, f"{kind.__name__}.__call__", kind.__call__, kind.__call__)
            kind.__call__.recorded = True
        return built

    shap.Explainer = _recording(log, "shap.Explainer", made, explainer_class)


def _masked_runs(model: _ProbeModel, start: int) -> list[list[int]]:
    """The positions masked (UNK) in each text the model was asked about since ``start``."""
    return [[i for i, w in enumerate(t.split()) if w == "UNK"] for t in model.queried[start:]]


def _explain(name: str, explainer, model: _ProbeModel, metrics, nlp=None) -> dict:
    """One released explainer on the probe document: its calls' record is kept by the recorders; here its ranking,
    the scores it ranks by, and the positions the released compute_aucmorf masks, in order."""
    exp = explainer.explain(PROBE_DOCUMENT)
    ranked_tokens, ranked_ids = explainer.get_ranked_tokens(PROBE_DOCUMENT, exp)
    tokens = [t.text for t in nlp(PROBE_DOCUMENT)] if nlp is not None else PROBE_DOCUMENT.split()
    confidence = float(model.predict_proba([PROBE_DOCUMENT])[0, 1])
    start = len(model.queried)
    import numpy as np

    metrics.compute_aucmorf(PROBE_DOCUMENT, np.array(tokens) if nlp is not None else tokens, confidence, None,
                            explainer, exp, model, 1, len(ranked_ids))
    return {"ranked_tokens": [str(t) for t in ranked_tokens], "ranked_ids": [int(i) for i in ranked_ids],
            "aucmorf_masks": _masked_runs(model, start + 1), **_scores(name, exp)}


def _scores(name: str, exp) -> dict:
    """The per-token scores the released explainer ranks by (by position), and the class they are for."""
    if name == "LIME":
        return {"scores": {str(i): float(w) for i, w in exp.as_map()[1]}, "class": 1,
                "labels": [int(k) for k in exp.as_map()]}
    if name == "SHAP":
        return {"scores": {str(i): float(v) for i, v in enumerate(exp.values[0][:, 1])}, "class": 1,
                "scores_class0": {str(i): float(v) for i, v in enumerate(exp.values[0][:, 0])}}
    if name == "FRED":
        return {"scores": {str(i): float(v) for i, v in exp.token_drops_ids.items()}, "class": None}
    return {"anchor_features": [int(f) for f in exp.features()], "anchor_names": list(exp.names()),
            "prediction": int(exp.exp_map["prediction"])}


def _shap_subdocuments(shap_class, metrics) -> list[dict]:
    """The released SHAP class and compute_aucmorf on every sub-document of the probe (its tokens kept in order,
    2^6 - 1 of them) that the stand-in model predicts positive: the masks and the SHAP values there."""
    import itertools

    import numpy as np

    words, found = PROBE_DOCUMENT.split(), []
    for size in range(1, len(words) + 1):
        for kept in itertools.combinations(range(len(words)), size):
            document, model = " ".join(words[i] for i in kept), _ProbeModel()
            if model.predict([document])[0] != 1:
                continue
            explainer = shap_class("SHAP", ["negative", "positive"], model)
            exp = explainer.explain(document)
            confidence = float(model.predict_proba([document])[0, 1])
            start = len(model.queried)
            metrics.compute_aucmorf(document, document.split(), confidence, None, explainer, exp, model, 1, size)
            found.append({"document": document, "masks": _masked_runs(model, start + 1),
                          "scores": [float(v) for v in np.asarray(exp.values[0][:, 1])]})
    return found


def _explainers() -> dict:
    """Each released explainer class (LIME, SHAP, Anchor, FRED) on the probe document, with the real packages."""
    import importlib
    import random

    import numpy as np

    os.environ["NUMBA_DISABLE_JIT"] = "1"  # shap's compiled loops run as Python: same values, no compile time
    log: list = []
    _install_recorders(log)
    from experiments import metrics

    answer, files = {}, [metrics.__file__]
    for name in ("LIME", "SHAP", "Anchor", "FRED"):
        module = importlib.import_module(f"explainers.{name.lower()}_explainer")
        files.append(module.__file__)
        model, start = _ProbeModel(), len(log)
        np.random.seed(PROBE_SEED)  # lime, anchor and the released FRED draw from the global generators
        random.seed(PROBE_SEED)
        explainer = getattr(module, name)(name, ["negative", "positive"], model)
        answer[name] = _explain(name, explainer, model, metrics, getattr(explainer, "nlp", None))
        answer[name]["calls"] = log[start:]
    files.append(sys.modules["fred.explainer"].__file__)
    shap_class = importlib.import_module("explainers.shap_explainer").SHAP
    return {"files": files, "document": PROBE_DOCUMENT, "explainers": answer,
            "shap_subdocuments": _shap_subdocuments(shap_class, metrics)}


def _released_fred(checkout: str) -> None:
    """Bind the name ``fred`` to the checkout's package (a folder without ``__init__.py``), which a regular package
    of the same name elsewhere on ``sys.path`` (this project's) would otherwise shadow."""
    import importlib.machinery
    import importlib.util

    spec = importlib.machinery.ModuleSpec("fred", None, is_package=True)
    spec.submodule_search_locations = [os.path.join(os.path.abspath(checkout), "fred")]
    sys.modules["fred"] = importlib.util.module_from_spec(spec)


def main(checkout: str, command: str = "pipeline") -> int:
    """The command's answer as JSON on stdout; the released code's own prints go to stderr."""
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    here = Path(__file__).resolve().parent
    sys.path[:] = [os.path.abspath(checkout)] + [p for p in sys.path if Path(p or ".").resolve() != here]
    _released_fred(checkout)
    answer.write(json.dumps({"pipeline": _runs, "explainers": _explainers, "explained": _explained}[command]()))
    answer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
