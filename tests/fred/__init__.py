"""Tests of the explainer (the ``fred`` package): API, exact and Monte Carlo samplers, search, fast path, POS sampler."""
