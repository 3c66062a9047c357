"""The explainer the claim report checks: the reference FRED, or a user's factory (``--explainer module:factory``).

Every claim module builds its explainers with :func:`explainer`, never with ``fred.Fred`` directly, so the
same code checks any factory of the kit's protocol (:mod:`proofs_checks.kit`). :func:`checking` sets the
factory for the claims run inside it; outside it the subject is the kit's ``fred_factory``.

A step that needs what the subject cannot give raises :class:`~proofs_checks.kit.NotApplicable` with the
reason, which makes the whole claim "not applicable" for that subject:

* ``exact=True`` needs the ``exact`` tag (an explainer enumerating all 2^b patterns);
* FRED's own constructor options (``search``, ``beam_width``, ``baseline``, ``mask_token``) need the
  ``fred_options`` tag (a factory that builds ``Fred``, or a modified ``Fred``, accepts them as keywords),
  except a ``baseline`` or ``search`` equal to the one the subject's tags declare;
* ``random_state`` (independent replicates of a statistical step) is passed to a factory whose signature takes
  it; a factory that fixes its randomness (``seeded``) and takes none cannot give independent replicates (a step
  whose union bound needs none says ``replicates=False`` and runs it with its own seeding);
* an attribute of ``fred.Explanation`` beyond the kit's protocol (``drop``, ``threshold``, the samples,
  ``counterfactuals``) that the subject's explanations lack; ``found`` and ``importances`` need their tags. A step
  that checks such a value only where it is reported reads it with :func:`optional`.

``Subject.requests`` counts the explainers a claim asked for, so a claim that never asks is reported as not involving
the explainer (its verdict is the paper's, whatever the subject) rather than as kept or broken by it.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from ..kit import ExplainerTags, NotApplicable, fred_factory, get_tags
from ..kit.tags import factory_name

#: FRED's constructor options a claim may set; they need the ``fred_options`` tag.
FRED_OPTIONS = ("search", "beam_width", "baseline", "mask_token")


@dataclass
class Subject:
    """A factory under check, its tags, and how many explainers the claims have asked it for."""

    factory: Callable
    tags: ExplainerTags
    requests: int = 0

    @property
    def name(self) -> str:
        """The factory's name, as the kit's report gives it (:func:`~proofs_checks.kit.tags.factory_name`)."""
        return factory_name(self.factory)

    @property
    def takes_random_state(self) -> bool:
        """Whether the factory accepts a ``random_state`` keyword (the claims' replicates need it)."""
        try:
            params = inspect.signature(self.factory).parameters.values()
        except (TypeError, ValueError):
            return False
        return any(p.name == "random_state" or p.kind is p.VAR_KEYWORD for p in params)


_SUBJECT: contextvars.ContextVar[Subject | None] = contextvars.ContextVar("proofs_checks_subject", default=None)


def current() -> Subject:
    """The subject of the claims being run (the reference ``fred_factory`` outside :func:`checking`)."""
    subject = _SUBJECT.get()
    return subject if subject is not None else Subject(fred_factory, get_tags(fred_factory))


@contextlib.contextmanager
def checking(factory: Callable) -> Iterator[Subject]:
    """Run the claims inside the block against ``factory``; yields the :class:`Subject` (its request count)."""
    subject = Subject(factory, get_tags(factory))
    token = _SUBJECT.set(subject)
    try:
        yield subject
    finally:
        _SUBJECT.reset(token)


def explainer(classifier_fn: Callable, *, exact: bool = False, random_state=None, replicates: bool = True,
              **options):
    """An explainer of ``classifier_fn`` from the current subject.

    Parameters
    ----------
    classifier_fn : the black box (list of texts -> scores).
    exact : enumerate all 2^b patterns (Eq. 1) instead of sampling (Eq. 3); needs the ``exact`` tag.
    random_state : seed of this explainer, for steps that need independent replicates; passed to factories that
        take it. None keeps the factory's own seeding.
    replicates : False for a step whose runs need not be independent (it combines them by a union bound, whose
        false-alarm probability holds for any dependence): a factory that fixes its randomness and takes no
        ``random_state`` is then used with its own seeding instead of making the step not applicable.
    **options : FRED's constructor options (:data:`FRED_OPTIONS`); need the ``fred_options`` tag.

    Raises
    ------
    NotApplicable
        When the subject lacks what the step needs (the message is the reason).
    """
    subject = current()
    unknown = sorted(set(options) - set(FRED_OPTIONS))
    if unknown:
        raise TypeError(f"options must be among {FRED_OPTIONS}, got {unknown}")
    if exact:
        subject.tags.require("exact")
    # An option the subject declares as its own variant (tags.baseline, tags.search) is met without being set.
    declared = {"baseline": subject.tags.baseline, "search": subject.tags.search}
    needed = sorted(k for k, v in options.items() if declared.get(k) != v)
    reason = subject.tags.missing("fred_options")
    if needed and reason is not None:
        raise NotApplicable(f"a step sets FRED's own options {needed}: {reason}")
    kwargs = dict(options) if reason is None else {}
    if random_state is not None:
        if subject.takes_random_state:
            kwargs["random_state"] = random_state
        elif subject.tags.seeded and replicates:
            raise NotApplicable("a statistical step needs independent replicates, but the factory fixes its "
                                "randomness (tags.seeded=True) and takes no random_state")
    subject.requests += 1
    if exact:
        kwargs["exact"] = True  # only when asked: the protocol's factories need not take exact=False
    return _Explainer(subject.factory(classifier_fn, **kwargs), subject.tags)


def optional(explanation, name: str):
    """``explanation.name``, or None when the subject's explanations do not report it: for a step that checks a
    value where the explainer reports it (e.g. the selection's ``drop``, beyond the kit's protocol) and checks the
    rest without it, instead of making the whole claim not applicable."""
    try:
        return getattr(explanation, name)
    except NotApplicable:
        return None


class _Explainer:
    """The subject's explainer, whose explanations say what they lack instead of raising AttributeError."""

    def __init__(self, inner, tags: ExplainerTags):
        self._inner, self._tags = inner, tags

    def explain(self, text: str, **kwargs):
        return _Explanation(self._inner.explain(text, **kwargs), text, kwargs.get("label"), self._tags)

    def __getattr__(self, name):
        return getattr(self._inner, name)


class _Explanation:
    """An explanation read by a claim: ``tokens`` and ``best`` follow from ``best_ids`` and the text, ``label``
    from the call when it named one, ``importances`` are an array; ``found``
    and ``importances`` need their tags; any other attribute the explanation lacks (``drop``, ``threshold``,
    ``sample_perturbed``, ``counterfactuals``, ...) makes the claim not applicable, naming it."""

    def __init__(self, inner, text: str, label: int | None, tags: ExplainerTags):
        self._inner, self._text, self._label, self._tags = inner, text, label, tags

    def __getattr__(self, name):
        if name in ("found", "importances"):
            self._tags.require(name)
        try:
            value = getattr(self._inner, name)
        except AttributeError:
            if name == "tokens":
                return tuple(self._text.split())
            if name == "label" and self._label is not None:
                return self._label
            if name == "best":
                tokens = self._text.split()
                return tuple(tokens[i] for i in self._inner.best_ids)
            raise NotApplicable(f"a step reads explanation.{name}, which this explainer's explanations do not "
                                "have") from None
        if value is None and name in ("found", "importances"):
            raise NotApplicable(f"a step reads explanation.{name}, which this explanation leaves None")
        # The protocol allows any sequence of scores; the claims compute with arrays.
        return np.asarray(value, dtype=float) if name == "importances" else value
