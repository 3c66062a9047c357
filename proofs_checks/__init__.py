"""Claim-by-claim checks of the FRED paper and a conformance kit for modified explainers.

* ``python -m proofs_checks`` prints the claim report (``--json``, ``--markdown FILE``);
* :func:`check_explainer` / :func:`parametrize_with_checks` run the kit against your own explainer
  factory, whose capabilities an :class:`ExplainerTags` declares (protocol in :mod:`proofs_checks.kit`);
  ``python -m proofs_checks --explainer module:factory`` does the same from the shell;
* :func:`authors_factory` runs the kit on the authors' released code (:mod:`proofs_checks.subject.authors`).
"""

from .kit import (
    CheckOutcome,
    ExplainerTags,
    KitReport,
    NotApplicable,
    check_explainer,
    explainer_tags,
    fred_factory,
    get_tags,
    parametrize_with_checks,
    yield_checks,
)
from .report import Report, run_claims
from .subject.authors import AUTHORS_TAGS, AuthorsExplainerAdapter, authors_factory, released_fred
from .verdicts.results import ClaimResult, StepResult

__all__ = [
    "AUTHORS_TAGS",
    "AuthorsExplainerAdapter",
    "CheckOutcome",
    "ClaimResult",
    "ExplainerTags",
    "KitReport",
    "NotApplicable",
    "Report",
    "StepResult",
    "authors_factory",
    "check_explainer",
    "explainer_tags",
    "fred_factory",
    "get_tags",
    "parametrize_with_checks",
    "released_fred",
    "run_claims",
    "yield_checks",
]
