"""The paper's claims, one module each, named by the claim id (``claims/<claim_id>.py``, ``CLAIM = "<claim-id>"``).

The claims never import each other (an import-linter contract). :mod:`proofs_checks.claim_index` lists them.
"""

__all__: list[str] = []
