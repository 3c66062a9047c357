"""Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default ``dev``, ``ci`` under CI)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "ci",
    max_examples=50,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=500,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
