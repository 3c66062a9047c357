"""Conformance kit: run the paper's guarantees against your own (modified) FRED, like scikit-learn's check_estimator.

Protocol
--------
A *factory* ``make_explainer(classifier_fn, exact=False)`` returns an object with

    explain(text, label=None, p=0.5, eps=0.15, max_len=10, n_samples=None) -> explanation

whose explanation has ``best_ids`` (positions of ``text.split()``) and, when its tags declare them, ``found``
(bool) and ``importances`` (one score s_i per position, Eq. 5). ``classifier_fn`` maps a list of texts to an
(n, k) array of class scores, or an (n,) array (regression). ``exact=True`` asks for an explainer enumerating all
2**b perturbation patterns (as ``Fred(sampler="exact")``), so its drops are expectations.

What the factory offers is declared once in an :class:`ExplainerTags` (``@explainer_tags(exact=True)``): checks
needing a capability it lacks are not applicable ("skipped", with the reason). Without an exact mode the checks
run the Monte Carlo explainer with tolerances from Hoeffding bounds at false-alarm probability :data:`DELTA` per
check (``n_samples`` of order 10^4-10^5).

Modules, bottom up: :mod:`.tags` (capabilities, ``fred_factory``), :mod:`.black_boxes` (the models explained, the
spy), :mod:`.strategies` (generated inputs, re-exported by :mod:`proofs_checks.strategies`), :mod:`.tolerances`
(the Monte Carlo tolerances and what the exact referee accepts), :mod:`.checks` (one ``check_<property>`` per
property, by part), :mod:`.runner` (outcomes, report, pytest entry point).

Use
---
>>> from proofs_checks import check_explainer, fred_factory
>>> report = check_explainer(fred_factory)          # doctest: +SKIP
>>> report.ok                                        # doctest: +SKIP
True

In pytest, ``@parametrize_with_checks([make_explainer])`` yields one test per check; known failures go in the
tags' ``expected_failures`` (or the ``expected_failures=`` argument) and run as strict xfails; a key that names no
check raises ValueError. Each outcome's ``message`` is short (at most 400 characters, the failing example
included); its ``detail`` (in ``to_dict()`` and ``--json``) is everything the check reported.
"""

from .checks import CHECKS, DELTA, EXAMPLES, MC_EXAMPLES, N_LAW, N_MONTE_CARLO, N_STATISTICAL, yield_checks
from .runner import CheckOutcome, KitReport, check_explainer, parametrize_with_checks, run_check
from .tags import ExplainerTags, NotApplicable, explainer_tags, fred_factory, get_tags, monte_carlo_mode

__all__ = [
    "CHECKS",
    "CheckOutcome",
    "DELTA",
    "EXAMPLES",
    "ExplainerTags",
    "KitReport",
    "MC_EXAMPLES",
    "NotApplicable",
    "N_LAW",
    "N_MONTE_CARLO",
    "N_STATISTICAL",
    "check_explainer",
    "explainer_tags",
    "fred_factory",
    "get_tags",
    "monte_carlo_mode",
    "parametrize_with_checks",
    "run_check",
    "yield_checks",
]
