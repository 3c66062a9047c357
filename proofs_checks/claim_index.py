"""Every claim of the report by id, in the report's order: ``CLAIMS`` maps the id to its check.

Registration is discovery: a module of a family folder (``proofs_checks/claims/<family>/``) whose ``CLAIM`` is a
:class:`~proofs_checks.verdicts.results.Claim` is a claim. The order is the families' (:data:`FAMILIES`, stated
once), then, within a family, the paper's line of the claim's first quote (its headline sentence), then the id.
The claims never import each other (an import-linter contract); this index, one layer above them, is what the
report, the comparison and the tests read.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from types import ModuleType

from .verdicts.results import Claim, ClaimResult

#: The claim families (the folders of ``proofs_checks/claims/``), in the report's order (stated here only).
FAMILIES: tuple[str, ...] = ("lemmas", "pos", "propositions", "algorithm1", "counterfactuals", "experiments", "metrics",
                             "transformer", "baselines")


def claim_modules() -> tuple[ModuleType, ...]:
    """Every claim module of every family, in the report's order.

    Imported by name because the family folders are discovered, not listed; import-linter sees this layer's
    dependency on the claims through :data:`FAMILIES`' package."""
    modules = []
    for family in FAMILIES:
        package = importlib.import_module(f"{__package__}.claims.{family}")
        found = [importlib.import_module(f"{package.__name__}.{info.name}")
                 for info in pkgutil.iter_modules(package.__path__)]
        claims = [m for m in found if isinstance(getattr(m, "CLAIM", None), Claim)]
        modules += sorted(claims, key=lambda m: (m.SOURCE[0].line, m.CLAIM))
    return tuple(modules)


#: claim id -> its module, in the report's order.
MODULES: dict[str, ModuleType] = {str(m.CLAIM): m for m in claim_modules()}
#: Claims added in the report's current revision (``Claim(..., new=True)`` in their module).
NEW_CLAIMS: tuple[str, ...] = tuple(claim_id for claim_id, m in MODULES.items() if m.CLAIM.new)
#: claim id -> its check, in the report's order.
CLAIMS: dict[str, Callable[[], ClaimResult]] = {claim_id: m.check for claim_id, m in MODULES.items()}
