"""Tests of the conformance kit (proofs_checks.kit)."""
