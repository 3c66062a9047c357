"""Tests of the figures (proofs_checks.figures) and the notebooks that draw them."""
