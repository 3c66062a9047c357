"""What an explainer factory offers, declared once: the kit's (and the report's) capabilities object.

As scikit-learn's estimator tags, :class:`ExplainerTags` is read by every check before it builds an
explainer. Two kinds of fields:

* **capabilities** (``exact``, ``settable_p``, ``settable_n_samples``, ``importances``, ``found``,
  ``seeded``, ``fred_options``): a check (or claim) that needs one the explainer lacks is *not applicable* and
  says which;
* **declared variants** (``baseline``, ``search``): what the explainer computes where it departs from the paper
  on purpose. They never turn a check of the paper into a pass: checks compare with the paper's FRED (threshold
  eps E[f], exhaustive search). ``check_declared_baseline_is_used`` verifies the declared baseline, and the
  claim report (and a reader of the kit's report) reads both to explain a failure.

``expected_failures`` maps check names to the reason they are known to fail (strict xfails).

A factory declares its tags with the :func:`explainer_tags` decorator (or by setting ``fred_tags``); one that
declares nothing gets ``ExplainerTags()``: every capability but the exact mode and FRED's options, the paper's
variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Callable, Mapping

from fred import Fred
from fred_constants import BASELINES, STRATEGIES

from ..statistics.seeds import statistical_seed

#: Capability fields, with the phrase a "not applicable" reason uses for each.
CAPABILITIES = {
    "exact": "exact mode (factory(classifier_fn, exact=True) enumerating all 2**b patterns)",
    "settable_p": "settable perturbation probability p",
    "settable_n_samples": "settable number of Monte Carlo samples n_samples",
    "importances": "per-position importances (Eq. 5)",
    "found": "found flag",
    "seeded": "seeded randomness (the same call twice gives the same explanation)",
    "fred_options": "FRED's constructor options as factory keywords (search, beam_width, baseline, mask_token)",
}
#: Searches a factory may declare: Algorithm 1's ("exhaustive") or a beam ("beam", also what a factory around the
#: released code's beam declares): the first two of the project's strategies.
DECLARED_SEARCHES = STRATEGIES[:2]


class NotApplicable(Exception):
    """Raised by a check that needs a capability the explainer does not declare; the message is the reason."""


@dataclass(frozen=True)
class ExplainerTags:
    """Capabilities and declared variants of the explainers a factory builds.

    Parameters
    ----------
    exact : ``make_explainer(classifier_fn, exact=True)`` builds an explainer whose drops are the expectations
        of Eq. (1) (all 2**b patterns weighted p^k (1 - p)^(b - k)); checks then compare with the referee up to
        rounding. Without it, checks run the Monte Carlo explainer with tolerances from Hoeffding bounds.
    settable_p : ``explain`` honours its ``p`` argument.
    settable_n_samples : ``explain`` honours ``n_samples`` (the number of perturbed rows).
    importances : explanations carry ``importances``, one score per position of ``text.split()`` (Eq. 5).
    found : explanations carry ``found``, whether the selection reaches the threshold (Eq. 2).
    seeded : the factory fixes the randomness: two explainers it builds, and two calls of one explainer, give
        the same explanation for the same arguments.
    fred_options : the factory takes ``fred.Fred``'s constructor options as keywords (``search``, ``beam_width``,
        ``baseline``, ``mask_token``), as a modified ``Fred`` does; the claim report needs it for steps setting
        them. The kit's checks never do.
    baseline : ``"mean"`` (the paper: drops and threshold from E[f]) or ``"original"`` (the authors' released
        code: from f(xi)).
    search : ``"exhaustive"`` (Algorithm 1) or ``"beam"``.
    expected_failures : check name -> reason, for known failures (reported "xfailed", with the real message).
    """

    exact: bool = False
    settable_p: bool = True
    settable_n_samples: bool = True
    importances: bool = True
    found: bool = True
    seeded: bool = True
    fred_options: bool = False
    baseline: str = "mean"
    search: str = "exhaustive"
    expected_failures: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        for name in CAPABILITIES:
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"ExplainerTags.{name} must be a bool, got {type(getattr(self, name)).__name__}")
        if self.baseline not in BASELINES:
            raise ValueError(f"ExplainerTags.baseline must be one of {BASELINES}, got {self.baseline!r}")
        if self.search not in DECLARED_SEARCHES:
            raise ValueError(f"ExplainerTags.search must be one of {DECLARED_SEARCHES}, got {self.search!r}")
        if not isinstance(self.expected_failures, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.expected_failures.items()):
            raise TypeError("ExplainerTags.expected_failures must map check names (str) to reasons (str)")
        object.__setattr__(self, "expected_failures", MappingProxyType(dict(self.expected_failures)))

    def missing(self, *capabilities: str) -> str | None:
        """The reason a check needing ``capabilities`` is not applicable, or None when all are declared.

        >>> ExplainerTags().missing("found", "exact").split(" (factory")[0]
        'the explainer declares no exact mode'
        >>> ExplainerTags().missing("importances", "found") is None
        True
        """
        for name in capabilities:
            if name not in CAPABILITIES:
                raise ValueError(f"unknown capability {name!r}; one of {tuple(CAPABILITIES)}")
            if not getattr(self, name):
                return f"the explainer declares no {CAPABILITIES[name]} (tags.{name}=False)"
        return None

    def require(self, *capabilities: str) -> None:
        """Raise :class:`NotApplicable` when a capability is missing."""
        reason = self.missing(*capabilities)
        if reason is not None:
            raise NotApplicable(reason)

    def replace(self, **changes) -> "ExplainerTags":
        """A copy with some fields changed."""
        return ExplainerTags(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **changes})

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)},
                "expected_failures": dict(self.expected_failures)}


def explainer_tags(tags: ExplainerTags | None = None, **fields_) -> Callable:
    """Decorator declaring a factory's tags: ``@explainer_tags(exact=True)`` or ``@explainer_tags(tags)``."""
    if tags is not None and fields_:
        raise TypeError("pass an ExplainerTags or keyword fields, not both")
    declared = tags if tags is not None else ExplainerTags(**fields_)
    if not isinstance(declared, ExplainerTags):
        raise TypeError(f"tags must be an ExplainerTags, got {type(declared).__name__}")

    def declare(factory):
        factory.fred_tags = declared
        return factory

    return declare


def get_tags(make_explainer) -> ExplainerTags:
    """The tags a factory declares (``make_explainer.fred_tags``), else ``ExplainerTags()``."""
    tags = getattr(make_explainer, "fred_tags", None)
    if tags is None:
        return ExplainerTags()
    if not isinstance(tags, ExplainerTags):
        raise TypeError(f"{factory_name(make_explainer)}.fred_tags must be an ExplainerTags, "
                        f"got {type(tags).__name__}")
    return tags


def monte_carlo_mode(make_explainer) -> Callable:
    """The factory seen without its exact mode: the same explainers (``make_explainer(classifier_fn)``, as a user
    builds one), tags with ``exact=False``, so every check runs its Monte Carlo variant on them.

    >>> get_tags(monte_carlo_mode(fred_factory)).exact, monte_carlo_mode(fred_factory).__name__
    (False, 'fred_factory')
    """

    def sampled(classifier_fn, exact=False, **options):
        return make_explainer(classifier_fn, **options)

    sampled.__name__ = factory_name(make_explainer)
    sampled.fred_tags = get_tags(make_explainer).replace(exact=False)
    return sampled


def factory_name(make_explainer) -> str:
    """The name a report gives a factory: its ``__name__``, else its class's.

    >>> factory_name(fred_factory), factory_name(ExplainerTags())
    ('fred_factory', 'ExplainerTags')
    """
    return getattr(make_explainer, "__name__", type(make_explainer).__name__)


@explainer_tags(exact=True, fred_options=True)
def fred_factory(classifier_fn, exact: bool = False, random_state=None, **options):
    """The reference explainer as a kit factory: ``Fred(sampler="exact" or "mask")`` seeded with
    ``random_state``, by default 0 (re-drawn by ``FRED_STATISTICAL_SEED``); ``options`` go to ``Fred``."""
    seed = statistical_seed(0) if random_state is None else random_state
    return Fred(classifier_fn, sampler="exact" if exact else "mask", random_state=seed, **options)
