"""What the ``baseline-*`` claims share: they check LIME, SHAP and Anchors, never an explainer of FRED.

The planted-claims battery (tests/kit/test_planted_claims.py) leaves them out on that ground, instead of running
each once more against an explainer that cannot explain; this module checks the ground.
"""

from __future__ import annotations

import grimp

from proofs_checks.claim_index import CLAIMS, MODULES
from proofs_checks.verdicts.results import KINDS

#: The claims of the baselines family (its folder, proofs_checks/claims/baselines/).
BASELINE_IDS = [claim for claim, module in MODULES.items() if module.__name__.split(".")[-2] == "baselines"]
#: The one module through which a claim reaches the explainer under test (a factory), its docstring says.
SUBJECT = "proofs_checks.subject.explainer"


def test_the_baselines_family_is_the_baseline_claims():
    """Catches a baseline-* claim filed in another family (the battery would run it against explainers), a claim of
    the family named otherwise, and the kind removed."""
    assert sorted(BASELINE_IDS) == sorted(c for c in CLAIMS if c.startswith("baseline-")) and BASELINE_IDS
    assert "baseline" in KINDS


def test_baseline_claims_cannot_reach_an_explainer():
    """Catches a baseline claim that imports, even indirectly, the subject (the factory under test): the battery's
    reason to skip these claims would then be false."""
    graph = grimp.build_graph("proofs_checks", "fred", "analytic", "fred_constants", cache_dir=None)
    for claim in BASELINE_IDS:
        module = MODULES[claim].__name__
        assert SUBJECT not in graph.find_upstream_modules(module), claim
