"""Counterexample search: hypothesis looks for inputs that break a statement and shrinks them."""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import HealthCheck, find, settings
from hypothesis.errors import NoSuchExample
from hypothesis.strategies import SearchStrategy

#: Settings of every search: derandomized so the report is reproducible, no example database.
SEARCH_SETTINGS = settings(
    database=None,
    derandomize=True,
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def minimal_counterexample(strategy: SearchStrategy, breaks: Callable[[Any], bool], max_examples: int = 400):
    """The shrunk example for which ``breaks`` is True, or None when the search finds none.

    Hypothesis shrinks towards small integers, short lists and the first
    elements of ``sampled_from``: strategies are written so that this order is
    "smaller document, simpler numbers first".
    """
    try:
        return find(strategy, breaks, settings=settings(SEARCH_SETTINGS, max_examples=max_examples))
    except NoSuchExample:
        return None
