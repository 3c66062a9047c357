"""The authors' released code (github gianluigilopardo/fred) as a client of the conformance kit.

That code is used as an external program only (it has no license): :func:`authors_factory` runs it as a server
of the kit's JSON-lines protocol (``docs/protocol.md``), ``proofs_checks/subject/_authors_driver.py`` started by
:func:`proofs_checks.subject.protocol.command_factory` (its package is named ``fred``, like this project's), from a
checkout whose path is given or read from ``$FRED_AUTHORS_CHECKOUT``. Its public signature::

    Fred(classifier_fn, class_names=None, mask='UNK', pos=False, pos_dataset=None)
    explain_instance(example, perturb_proba=0.5, eps=0.15, max_len=10, beam_size=4, n_sample=5000,
                     label=None, verbose=False)

It lowercases the example and deletes every character other than ASCII letters, digits and whitespace before
splitting it, so its positions refer to the cleaned text; its explanation has ``best_ids`` and
``token_drops_ids`` (position -> drop of that singleton), and no "found".

The mapping to the kit's protocol is one piece of code, in the driver (``_authors_driver.answer_fields``):
p and n_samples pass through, positions of the cleaned text map back to positions of ``text.split()``,
``token_drops_ids`` are the importances, and no argument is validated on the wrapped explainer's behalf (the kit
tests the explainer, not the adapter). :class:`AuthorsExplainerAdapter` applies the same mapping in this process,
to any object with the released signature. Its tags (:data:`AUTHORS_TAGS`) say what the code offers.

The released package seeds numpy's global generator once, at import (42): in one process, successive
explanations draw successive samples, so the explainer is not ``seeded`` in the kit's sense, and
``FRED_STATISTICAL_SEED`` cannot re-draw its samples. Each factory gets its own process, so a kit run on a fresh
factory is reproducible.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Callable

from fred_constants import EPS, MAX_LEN, RELEASED_BASELINE, P

from ..kit.explanations import AdaptedExplanation
from ..kit.tags import ExplainerTags
from ._authors_driver import answer_fields, cleaned_positions
from .protocol import CommandFactory, command_factory

# cleaned_positions is defined beside the mapping it serves, in the driver, and public here.
__all__ = ["AUTHORS_TAGS", "CHECKOUT_ENV", "AuthorsExplainerAdapter", "authors_factory",
           "cleaned_positions", "released_command", "released_fred"]

#: Environment variable holding the path of a checkout of the authors' repository.
CHECKOUT_ENV = "FRED_AUTHORS_CHECKOUT"
#: What the released code offers: Monte Carlo only, p and n settable, importances, no found flag, one global
#: seed per process, drops and threshold from f(xi), a width-4 beam.
AUTHORS_TAGS = ExplainerTags(exact=False, settable_p=True, settable_n_samples=True, importances=True, found=False,
                             seeded=False, baseline=RELEASED_BASELINE, search="beam")
_DRIVER = Path(__file__).with_name("_authors_driver.py")


class AuthorsExplainerAdapter:
    """The kit's ``explain`` over an object with the released ``explain_instance`` signature.

    ``best_ids`` keep the wrapped explainer's order (the released code lists positions in the order its beam
    added them); positions of the cleaned text are mapped to positions of ``text.split()``. ``importances``
    hold ``token_drops_ids`` at those positions, NaN where the wrapped explainer gives no drop (a token removed
    by its cleaning). Arguments are passed as given (``n_samples=None`` leaves the wrapped default).
    """

    def __init__(self, explainer):
        if not callable(getattr(explainer, "explain_instance", None)):
            raise TypeError(f"explainer must have explain_instance(...), got {type(explainer).__name__}")
        self.explainer = explainer

    def explain(self, text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None) -> AdaptedExplanation:
        """The released code's ``explain_instance`` with the kit's arguments renamed (``perturb_proba``,
        ``n_sample``), its answer read as an explanation."""
        kwargs = {"perturb_proba": p, "eps": eps, "max_len": max_len, "label": label}
        if n_samples is not None:
            kwargs["n_sample"] = n_samples
        exp = self.explainer.explain_instance(text, **kwargs)
        fields = answer_fields(text, exp.best_ids, getattr(exp, "token_drops_ids", None))
        importances = fields["importances"]
        return AdaptedExplanation(tuple(fields["best_ids"]), None, None if importances is None else
                                  tuple(math.nan if v is None else v for v in importances))


def released_command(checkout: str | os.PathLike | None = None, tags: ExplainerTags = AUTHORS_TAGS,
                     **init) -> list[str]:
    """The command serving the released code of ``checkout`` (default ``$FRED_AUTHORS_CHECKOUT``) over the
    protocol, declaring ``tags``, with ``fred.explainer.Fred``'s keywords ``init`` (JSON values).

    FileNotFoundError when the checkout holds no ``fred/explainer.py``.
    """
    checkout = checkout if checkout is not None else os.environ.get(CHECKOUT_ENV)
    if not checkout or not (Path(checkout) / "fred" / "explainer.py").is_file():
        raise FileNotFoundError(f"no checkout of the authors' repository (a folder holding fred/explainer.py) at "
                                f"{checkout!r}; set {CHECKOUT_ENV} or pass checkout=")
    return [sys.executable, str(_DRIVER), str(Path(checkout).resolve()), json.dumps(tags.to_dict()),
            json.dumps(init)]


def authors_factory(explainer_class=None, *, checkout: str | os.PathLike | None = None,
                    tags: ExplainerTags = AUTHORS_TAGS, **init) -> Callable:
    """A kit factory over explainers with the released ``explain_instance`` signature.

    With ``explainer_class``, ``explainer_class(classifier_fn, **init)`` in this process; without, the released
    code from ``checkout`` (default ``$FRED_AUTHORS_CHECKOUT``) as a protocol server, one process per factory
    (:class:`proofs_checks.subject.protocol.CommandFactory`; ``hello["module"]`` is the file of the ``fred.explainer`` it
    imported, checked to lie in the checkout). ``exact=True`` raises NotImplementedError (no exact mode).
    """
    if explainer_class is None:
        command = released_command(checkout, tags, **init)
        factory = command_factory(command)
        if not Path(factory.hello.get("module", "")).resolve().is_relative_to(command[2]):
            factory.close()
            raise RuntimeError(f"the driver imported fred from {factory.hello.get('module')!r}, not from "
                               f"{command[2]}")
        return factory

    def make_explainer(classifier_fn, exact: bool = False):
        if exact:
            raise NotImplementedError("the released explain_instance has no exact mode")
        return AuthorsExplainerAdapter(explainer_class(classifier_fn, **init))

    make_explainer.__name__ = f"authors_{explainer_class.__name__}"
    make_explainer.fred_tags = tags
    return make_explainer


_RELEASED: dict[str, CommandFactory] = {}


def released_fred(classifier_fn, exact: bool = False):
    """Kit factory of the released code from ``$FRED_AUTHORS_CHECKOUT``, one subprocess per checkout and Python
    process (for ``python -m proofs_checks --explainer proofs_checks.subject.authors:released_fred``)."""
    checkout = os.environ.get(CHECKOUT_ENV, "")
    if checkout not in _RELEASED:
        _RELEASED[checkout] = authors_factory(checkout=checkout or None)
    return _RELEASED[checkout](classifier_fn, exact=exact)


released_fred.fred_tags = AUTHORS_TAGS
