"""Tests that defend one claim's verdict in the report (proofs_checks/claims/), one module per claim id."""
