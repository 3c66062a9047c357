"""Hypothesis strategies for checking a FRED explainer: the public face of :mod:`proofs_checks.kit.strategies`.

Documents (random tokens, and review snippets with real words, stop words and negations), coefficients, p, eps,
fitted models, tables and the black boxes the conformance kit explains, shipped beside the kit (as
``hypothesis.extra`` ships beside hypothesis) so that a researcher testing a modified explainer draws the same inputs
as the kit and this project's tests. Needs hypothesis (the ``dev`` extra).
"""

from .kit.strategies import (
    AWKWARD_TOKENS,
    BLACK_BOX_KINDS,
    CLAUSES,
    NEGATIONS,
    NEGATIVE_WORDS,
    POSITIVE_WORDS,
    STOP_WORDS,
    SUBJECT_WORDS,
    WORDS,
    FittedTfidf,
    ShortcutCase,
    bag_of_words_models,
    black_box_tables,
    black_boxes,
    coefficients,
    documents,
    epsilons,
    fitted_tfidf_models,
    multiplicities,
    probabilities,
    review_documents,
    review_models,
    shortcut_models,
    vocabularies,
)

__all__ = [
    "AWKWARD_TOKENS",
    "BLACK_BOX_KINDS",
    "CLAUSES",
    "NEGATIONS",
    "NEGATIVE_WORDS",
    "POSITIVE_WORDS",
    "STOP_WORDS",
    "SUBJECT_WORDS",
    "WORDS",
    "FittedTfidf",
    "ShortcutCase",
    "bag_of_words_models",
    "black_box_tables",
    "black_boxes",
    "coefficients",
    "documents",
    "epsilons",
    "fitted_tfidf_models",
    "multiplicities",
    "probabilities",
    "review_documents",
    "review_models",
    "shortcut_models",
    "vocabularies",
]
