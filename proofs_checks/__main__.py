"""``python -m proofs_checks``: the claim report (placeholder until the report lands)."""

import fred

print(f"fred {fred.__name__}: explainer available; claim report not implemented yet")
