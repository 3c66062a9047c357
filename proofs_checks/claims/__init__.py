"""The paper's claims, one module each, in one folder per paper object (its *family*).

A claim module ``claims/<family>/<claim_id>.py`` names its id once, ``CLAIM = Claim("<claim-id>")``, and
defines ``check()``; a family's other modules are the helpers only that family uses. Families never import each
other, and no claim imports another (import-linter and tests/test_layers.py). :mod:`proofs_checks.claim_index`
discovers the claim modules and states the report's order.
"""

__all__: list[str] = []
