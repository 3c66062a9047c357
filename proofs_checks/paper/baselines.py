"""The one setting the `baseline-*` claims, their figure and ``tools/baseline_limits.py`` explain LIME, SHAP and
Anchors on, and how a step says that a package of the ``eval`` extra is absent.

The models are fitted on a small inline corpus (:data:`CORPUS`, no data file): ``TfidfVectorizer(norm=None)`` +
``LogisticRegression`` is a TF-IDF linear model of the paper's Definition 1 (its decision function is Eq. 6,
additive over positions), and ``TfidfVectorizer()`` (L2 norm, the evaluation's vectorizer) + the same regression
is the model the evaluation explains. The documents (:data:`DOCUMENTS`) are short enough for the exact referee.

The packages are the ones the evaluation pins (``pyproject.toml``, extra ``eval``). A plain install has none of
them: a step that needs one is then *inconclusive* (it ran on no sample), and its note names the extra
(:data:`EVAL_EXTRA`), which ``tools/wheel_check.py`` reads.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from analytic import L2NormalisedLinearModel, LinearTfidfModel

from ..verdicts.results import Claim, Quote, StepResult

#: The inline reviews and labels the baseline claims' models are fitted on.
CORPUS: tuple[tuple[str, int], ...] = (
    ("the food was good and the staff friendly", 1), ("good food great service", 1),
    ("great place friendly staff", 1), ("the service was slow and the food bad", 0),
    ("bad food and rude staff", 0), ("slow service bad place", 0), ("good staff but slow service", 1),
    ("the place was bad", 0),
)
#: The document of ``tools/baseline_limits.py`` and of the LIME figure (b = 7).
DOCUMENT = "the food was good but service slow"
#: The claims' documents: b = 3 to 8 words of the corpus' vocabulary, with a repeat and a stop word.
DOCUMENTS: tuple[str, ...] = (
    "good food great service",
    "the staff was rude",
    "slow service but good food",
    DOCUMENT,
    "the food was good and the staff friendly",
    "bad place bad food but friendly staff",
)
#: The regularisation of both fitted regressions (strong enough weights that each document has a clear class).
C_REGULARISATION = 10.0
#: The paper on how it ran the baselines (appendix B.1), quoted by the three baseline claims.
ALL_DEFAULTS = Quote(1164, r"We use the official implementation (respectively available and licensed at "
                           r"\url{https://github.com/marcotcr/anchor}, \url{https://github.com/shap/shap}, "
                           r"\url{https://github.com/marcotcr/lime}) of these methods with all default parameters.")
#: The install command of the packages the evaluation compares FRED with; a step that needs one says this.
EVAL_EXTRA = "pip install 'fred-theory[eval]'"
#: Distribution name -> import name of the baseline packages (anchor-exp installs the module ``anchor``).
EVAL_PACKAGES = {"lime": "lime", "shap": "shap", "anchor-exp": "anchor", "spacy": "spacy"}


def fitted_model() -> LinearTfidfModel:
    """``TfidfVectorizer(norm=None)`` + ``LogisticRegression(C=10)`` on :data:`CORPUS`, as Definition 1's model:
    f(z) = lambda^T phi(z) + lambda_0, additive over positions (weights ``position_weights``)."""
    texts, labels = zip(*CORPUS)
    vectorizer = TfidfVectorizer(norm=None)
    model = LogisticRegression(C=C_REGULARISATION).fit(vectorizer.fit_transform(texts), labels)
    return LinearTfidfModel.from_pipeline(vectorizer, model)


def fitted_l2_model() -> tuple[L2NormalisedLinearModel, dict[str, float]]:
    """The evaluation's vectorizer, ``TfidfVectorizer()`` (L2 norm), + ``LogisticRegression(C=10)`` on
    :data:`CORPUS`: the model (its decision function) and the idf of each word."""
    texts, labels = zip(*CORPUS)
    vectorizer = TfidfVectorizer()
    model = LogisticRegression(C=C_REGULARISATION).fit(vectorizer.fit_transform(texts), labels)
    words = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    idf = dict(zip(words, (float(v) for v in vectorizer.idf_)))
    return L2NormalisedLinearModel(dict(zip(words, model.coef_[0])), idf, float(model.intercept_[0])), idf


def two_columns(f):
    """A black box with f as column 1 (the class LIME and SHAP explain) and -f as column 0.

    >>> two_columns(lambda texts: np.array([len(t) for t in texts], float))(["ab", "c"]).tolist()
    [[-2.0, 2.0], [-1.0, 1.0]]
    """
    def both(texts) -> np.ndarray:
        values = np.asarray(f(list(texts)), dtype=float)
        return np.column_stack([-values, values])
    return both


def missing(distribution: str) -> str | None:
    """None when ``distribution`` (a key of :data:`EVAL_PACKAGES`) can be imported, else the note a step gives:
    what is absent and :data:`EVAL_EXTRA`.

    >>> missing("no-such-package")
    Traceback (most recent call last):
    ...
    ValueError: distribution must be one of ['lime', 'shap', 'anchor-exp', 'spacy'], got 'no-such-package'
    """
    if distribution not in EVAL_PACKAGES:
        raise ValueError(f"distribution must be one of {list(EVAL_PACKAGES)}, got {distribution!r}")
    if find_spec(EVAL_PACKAGES[distribution]) is not None:
        return None
    return (f"Not run here: {distribution} is not installed (the evaluation's package; install it with "
            f"{EVAL_EXTRA}), so this step saw no sample and is evidence neither way.")


def package_versions() -> dict[str, str | None]:
    """The installed version of each baseline package (None when absent), recorded in the steps' values."""
    found: dict[str, str | None] = {}
    for name in EVAL_PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def absent_step(claim: Claim, step: str, role: str, evidence: str, distributions: tuple[str, ...], *,
                reading: str | None = None, values: dict | None = None) -> StepResult | None:
    """None when every package of ``distributions`` is installed; else the step as it stands without them:
    inconclusive (it saw no sample), its note :func:`missing`'s, its values ``installed: False`` and the package.

    >>> absent_step(Claim("c"), "s1", "statement", "exhaustive", ()) is None  # nothing needed, nothing absent
    True
    """
    absent = [name for name in distributions if missing(name) is not None]
    installed = not absent
    if installed:
        return None
    return claim.checked(step, role, evidence, " ".join(missing(name) for name in absent), holds=installed,
                         conclusive=installed, reading=reading,
                         values={**(values or {}), "package": ", ".join(absent), "installed": installed})
