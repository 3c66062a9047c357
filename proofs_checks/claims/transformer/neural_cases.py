"""The MiniLM classifier of the ``minilm-*`` claims and its short documents, with their exact tables.

The model is the evaluation's ``minilm`` (MiniLM-L6 sentence embeddings, then a logistic regression) fitted on the
Restaurants training split the evaluation uses (``train_test_split(test_size=0.25, random_state=0)``). The documents
are the first positively classified test reviews of each length in :data:`LENGTHS` (test-split order). Each
document's table is f (the positive class's probability) on all 2^b mask patterns, computed by the model itself,
so every drop the claims compare with is exact (Eq. 1) although no closed form exists for this model.

Both the ``neural`` extra and the Restaurants file (not shipped with the package: ``$FRED_DATA_DIR``, or
``../shared/data`` beside a source checkout) are needed; without them :func:`minilm_setting` returns the reason, naming
the file and the variable, and the claims report their steps as not run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from sklearn.model_selection import train_test_split

from analytic import table_from_classifier
from fred.evaluation.datasets import TEST_SIZE, dataset_file, load_dataset
from fred.evaluation.models import make_model
from fred.evaluation.neural import load_minilm

#: Document lengths (tokens) of the checked documents: 2^8 = 256 texts at most per table.
LENGTHS = (5, 6, 7, 8)
POSITIVE = 1


@dataclass(frozen=True, eq=False)
class NeuralCase:
    """A test review, its position in the test split, and f over its 2^b mask patterns (codes as in
    analytic.referee)."""

    test_index: int
    tokens: tuple[str, ...]
    table: np.ndarray

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    def describe(self) -> dict:
        return {"test_index": self.test_index, "document": self.text, "b": len(self.tokens)}


@dataclass(frozen=True, eq=False)
class NeuralSetting:
    """The fitted classifier (texts -> probabilities), its test accuracy, and the documents."""

    model: object
    accuracy: float
    cases: tuple[NeuralCase, ...]

    def classifier_fn(self, texts):
        return self.model.predict_proba(list(texts))

    def describe(self) -> dict:
        return {"model": "MiniLM-L6 embeddings + LogisticRegression, Restaurants train split (750 reviews)",
                "test_accuracy": self.accuracy, "documents": [c.describe() for c in self.cases],
                "texts_encoded": int(self.model.encoded_)}


@lru_cache(maxsize=1)
def minilm_setting() -> tuple[NeuralSetting | None, str | None]:
    """(setting, None), or (None, why it cannot be built here). Built once per process."""
    try:
        dataset_file("restaurants")
    except FileNotFoundError as error:
        return None, f"the Restaurants reviews (restaurants.tsv, not shipped with the package) are not found: {error}"
    try:
        load_minilm()  # ImportError without the neural extra (torch, sentence-transformers)
    except ImportError as error:
        return None, str(error)
    data = load_dataset("restaurants")
    x_train, x_test, y_train, y_test = train_test_split(list(data.texts), data.labels, test_size=TEST_SIZE,
                                                        random_state=0)
    model = make_model("minilm").fit(x_train, y_train)
    predicted = model.predict(x_test)
    cases, lengths = [], set()
    for index, (text, label) in enumerate(zip(x_test, predicted)):
        b = len(text.split())
        if label == POSITIVE and b in LENGTHS and b not in lengths:
            lengths.add(b)
            tokens = tuple(text.split())
            cases.append(NeuralCase(index, tokens, table_from_classifier(model.predict_proba, list(tokens),
                                                                         label=POSITIVE)))
    cases.sort(key=lambda c: len(c.tokens))
    return NeuralSetting(model, float(np.mean(predicted == np.asarray(y_test))), tuple(cases)), None


def not_run_note(why: str) -> str:
    """The note of a ``minilm-*`` step that cannot run here, ``why`` being :func:`minilm_setting`'s reason."""
    return f"Not run here: {why}; the claim is not machine-checked on this machine."
