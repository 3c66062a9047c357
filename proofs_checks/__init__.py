"""Claim-by-claim checks of the FRED paper and a conformance kit for modified explainers.

* ``python -m proofs_checks`` prints the claim report (``--json``, ``--markdown FILE``);
* :func:`check_explainer` / :func:`parametrize_with_checks` run the kit against your own explainer
  factory (protocol in :mod:`proofs_checks.kit`); ``python -m proofs_checks --explainer module:factory``
  does the same from the shell.
"""

from .authors_adapter import AuthorsExplainerAdapter, authors_factory
from .kit import CheckOutcome, KitReport, check_explainer, fred_factory, parametrize_with_checks, yield_checks
from .report import Report, run_claims
from .results import ClaimResult, StepResult

__all__ = [
    "AuthorsExplainerAdapter",
    "CheckOutcome",
    "ClaimResult",
    "KitReport",
    "Report",
    "StepResult",
    "authors_factory",
    "check_explainer",
    "fred_factory",
    "parametrize_with_checks",
    "run_claims",
    "yield_checks",
]
