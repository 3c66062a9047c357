"""Helpers shared by test modules of several folders (import them; never copy them into a test file)."""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings
from scipy import stats

from proofs_checks import check_explainer
from proofs_checks.statistics.seeds import SEED_ENV

#: A quarter of the profile's examples (at least 5), for strategies that fit scikit-learn models.
SLOW = settings(max_examples=max(5, settings.default.max_examples // 4))


def clopper_pearson(successes: int, trials: int, delta: float) -> tuple[float, float]:
    """Exact binomial interval with coverage >= 1 - delta, by scipy's root-finding (binomtest): kept on purpose beside
    the checking side's one interval (:func:`proofs_checks.statistics.intervals.clopper_pearson`, beta quantiles) as
    the independent computation the tests compare with."""
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=1 - delta, method="exact")
    return ci.low, ci.high


def drops_by_enumeration(f, b: int, p, *, baseline: str = "mean") -> tuple[object, dict[tuple[int, ...], object]]:
    """The tests' own referee, independent of ``analytic``: (reference, drop of every non-empty position set).

    ``f`` maps a pattern (a tuple of b bits, 1 = perturbed) to the model's value; sums run over the 2^b patterns
    in the arithmetic of ``f`` and ``p`` (Fractions give rational results, sympy numbers exact ones). The
    reference is E[f] (baseline "mean") or f(original) (baseline "original").
    """
    patterns = list(itertools.product((0, 1), repeat=b))
    weight = {z: p ** sum(z) * (1 - p) ** (b - sum(z)) for z in patterns}
    value = {z: f(z) for z in patterns}
    reference = sum(weight[z] * value[z] for z in patterns) if baseline == "mean" else value[(0,) * b]
    drops = {}
    for size in range(1, b + 1):
        for s in itertools.combinations(range(b), size):
            rows = [z for z in patterns if all(z[i] for i in s)]
            drops[s] = reference - sum(weight[z] * value[z] for z in rows) / sum(weight[z] for z in rows)
    return reference, drops


def without_authors_checkout(check):
    """``check()`` run with ``$FRED_AUTHORS_CHECKOUT`` unset (the CI setting: the released code absent), the
    variable restored afterwards."""
    saved = os.environ.pop("FRED_AUTHORS_CHECKOUT", None)
    try:
        return check()
    finally:
        if saved is not None:
            os.environ["FRED_AUTHORS_CHECKOUT"] = saved


#: Marks a test that runs the authors' released code: skipped, with the reason, when its checkout is absent.
needs_authors_checkout = pytest.mark.skipif(not os.environ.get("FRED_AUTHORS_CHECKOUT"),
                                            reason="FRED_AUTHORS_CHECKOUT is not set: the authors' released code "
                                                   "is absent")


def load_tool(name: str):
    """The script ``tools/<name>.py`` as a module (tools/ is not a package), registered in ``sys.modules`` under
    ``name`` because dataclasses look their module up there."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def step_ending(result, suffix: str):
    """The first step of ``result`` whose id ends with ``suffix``."""
    return next(s for s in result.steps if s.id.endswith(suffix))


def joint_by_designs(b: int, n: int, max_len: int) -> Fraction:
    """P(every non-empty set of <= max_len of the b positions is perturbed in some row) at p = 1/2, by counting
    the 2**(n b) equally likely designs (row r is bits r*b .. r*b + b - 1 of the design's number)."""
    if n * b > 20:
        raise ValueError("too many designs")
    designs = np.arange(2 ** (n * b), dtype=np.int64)
    rows = [(designs >> (r * b)) & (2**b - 1) for r in range(n)]
    ok = np.ones(designs.size, dtype=bool)
    for size in range(1, min(max_len, b) + 1):
        for subset in itertools.combinations(range(b), size):
            code = sum(1 << i for i in subset)
            ok &= np.logical_or.reduce([(row & code) == code for row in rows])
    return Fraction(int(ok.sum()), 2 ** (n * b))


def claim_step(result, claim: str, name: str):
    """The one step of ``result`` whose id is ``<claim>.<name>``."""
    (found,) = [s for s in result.steps if s.id == f"{claim}.{name}"]
    return found


def assert_fails_exactly(entry, monkeypatch):
    """The kit fails exactly ``entry.kit_fails`` on ``entry``, without errors, at the default seeds; returns the
    report."""
    monkeypatch.delenv(SEED_ENV, raising=False)
    report = check_explainer(entry.factory)
    failed = {o.name for o in report.outcomes if o.status == "failed"}
    assert failed == entry.kit_fails, str(report)
    assert report.counts()["error"] == 0, str(report)
    return report
