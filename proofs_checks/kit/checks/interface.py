"""Checks of the interface: the outputs the tags declare are there, and invalid arguments are refused.

An explanation carries ``best_ids``, and ``importances`` and ``found`` when declared; ``explain`` refuses, with
ValueError or TypeError, a p outside (0, 1), an eps outside (0, 1], a max_len or n_samples below 1 or not an
integer, a document without tokens and a label that is not a column of the classifier's output.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from fred_constants import EPS, MAX_LEN, P

from ..black_boxes import LINEAR, Spy, lenient_classifier, linear_box
from ..tags import get_tags
from .harness import CheckRun, build_explainer, check_needing, n_samples_if_settable, same_values

#: The document of the validation checks.
SHORT_TOKENS = ("red", "green", "blue", "cyan", "gold", "pink")
#: 12-token linear models (each token 1/64) at p = 1/2 and eps = 0.15; a drop of k tokens is k / (2 c + 12) E[f] for
#: the intercept c / 64. With c = 26 and 29 the first size reaching eps E[f] is 10 (the default l_max) and 11, so
#: max_len 9, 10 and 11 tell apart; with c = 27.3 and 27.36 size 10's drop is 0.15015 E[f] and 0.14988 E[f], so (in
#: exact mode) a default eps outside [0.14988, 0.15015] tells apart too.
DEFAULTS_BOXES = tuple(linear_box(tuple(f"t{i:02d}" for i in range(12)), (1 / 64,) * 12, c / 64)
                       for c in (26, 29, 27.3, 27.36))


@check_needing()
def check_declared_outputs_are_present(make_explainer) -> None:
    """The tags tell the truth about the outputs: ``importances`` holds one number per position when declared,
    ``found`` a bool when declared; ``best_ids`` is always there."""
    tags = get_tags(make_explainer)
    run = CheckRun(make_explainer, tags, LINEAR, exact=tags.exact, p=P, eps=EPS, max_len=3)
    exp = run.explanation
    assert hasattr(exp, "best_ids"), f"the explanation ({type(exp).__name__}) has no best_ids"
    if tags.importances:
        got = getattr(exp, "importances", None)
        assert got is not None and np.shape(got) == (LINEAR.b,), (
            f"tags.importances is True but importances is {got!r} (expected {LINEAR.b} numbers)")
    if tags.found:
        got = getattr(exp, "found", None)
        assert isinstance(got, (bool, np.bool_)), f"tags.found is True but found is {got!r}"


@check_needing()
def check_defaults_are_the_papers(make_explainer) -> None:
    """Algorithm 1's defaults (line 402: "By default, we set eps = 0.15, l_max = 10, p = 0.5, and compute the sample
    size n according to Lemma 2") are explain's: on 12-token models where max_len 9, 10 and 11, and eps a little
    above or below 0.15, give different explanations, ``explain(text)`` equals ``explain(text, label=None, p=0.5,
    eps=0.15, max_len=10, n_samples=None)`` (a Monte Carlo explainer must be seeded; its drops are estimates, so only
    exact mode pins eps this closely). Over the JSON-lines protocol the kit's client sends every argument, so a
    server's own defaults are out of this check's sight."""
    tags = get_tags(make_explainer)
    if not tags.exact:
        tags.require("seeded")
    for box in DEFAULTS_BOXES:
        explainer = build_explainer(make_explainer, box.classifier_fn(), tags.exact)
        implicit = explainer.explain(box.text)
        explicit = explainer.explain(box.text, label=None, p=P, eps=EPS, max_len=MAX_LEN, n_samples=None)
        fields = ["best_ids"] + ["found"] * tags.found + ["importances"] * tags.importances
        differ = [name for name in fields if not same_values(getattr(implicit, name), getattr(explicit, name))]
        assert not differ, (f"explain(text) and explain(text, p={P}, eps={EPS}, max_len={MAX_LEN}) differ in "
                            f"{', '.join(differ)} on {box!r}: " + "; ".join(
                                f"{name} {getattr(implicit, name)} vs {getattr(explicit, name)}" for name in differ))


def _regression(texts):
    """One number per text (a regression output): the share of SHORT_TOKENS' positions kept."""
    return lenient_classifier(SHORT_TOKENS)(texts)[:, 1]


def _refuses(make_explainer, name: str, bad: Sequence, regression: bool = False) -> None:
    """Every value of ``bad`` for argument ``name`` raises ValueError or TypeError; a valid call works. The model
    returns two class scores per text, or (``regression``) one number, whose valid label is None."""
    tags = get_tags(make_explainer)
    spy = Spy(_regression if regression else lenient_classifier(SHORT_TOKENS))
    explainer = build_explainer(make_explainer, spy, False)
    valid = dict(text=" ".join(SHORT_TOKENS), label=None if regression else 1, p=P, eps=EPS, max_len=3,
                 n_samples=n_samples_if_settable(tags, 16))
    explainer.explain(**valid)  # a valid call must work, else refusing proves nothing
    accepted, wrong = [], []
    for value in bad:
        try:
            explainer.explain(**{**valid, name: value})
        except (ValueError, TypeError):
            continue
        except Exception as err:  # noqa: BLE001 - any other exception is reported, not raised
            wrong.append(f"{value!r} raised {type(err).__name__}: {err}")
        else:
            accepted.append(repr(value))
    problems = ([f"accepted {', '.join(accepted)}"] if accepted else []) + wrong
    assert not problems, f"{name}: " + "; ".join(problems) + " (expected ValueError or TypeError)"


@check_needing("settable_p")
def check_invalid_p_is_refused(make_explainer) -> None:
    """p is a probability in (0, 1) (section 2.3; p = 0 perturbs nothing, p = 1 everything): 0, 1, -0.25, 1.5, nan
    and the string '0.5' raise ValueError or TypeError."""
    _refuses(make_explainer, "p", (0.0, 1.0, -0.25, 1.5, math.nan, "0.5"))


@check_needing()
def check_invalid_eps_is_refused(make_explainer) -> None:
    """eps is a fraction in (0, 1] (Eq. 2): 0, -0.1, 1.5, nan and '0.15' raise ValueError or TypeError."""
    _refuses(make_explainer, "eps", (0.0, -0.1, 1.5, math.nan, "0.15"))


@check_needing()
def check_invalid_max_len_is_refused(make_explainer) -> None:
    """max_len (l_max) is an integer >= 1: 0, -1, 2.5, 10.5 (above b = 6, where min(max_len, b) would hide it) and
    '3' raise ValueError or TypeError."""
    _refuses(make_explainer, "max_len", (0, -1, 2.5, 10.5, "3"))


@check_needing("settable_n_samples")
def check_invalid_n_samples_is_refused(make_explainer) -> None:
    """n_samples is an integer >= 1: 0, -5, 2.5 and '100' raise ValueError or TypeError."""
    _refuses(make_explainer, "n_samples", (0, -5, 2.5, "100"))


@check_needing()
def check_invalid_text_is_refused(make_explainer) -> None:
    """The document is a str with at least one token: '', '   ', None, 42 and a list of words raise ValueError or
    TypeError."""
    _refuses(make_explainer, "text", ("", "   ", None, 42, ["red", "green"]))


@check_needing()
def check_invalid_label_is_refused(make_explainer) -> None:
    """label is a column of the classifier's output: 2 and -1 (two classes), 1.5 and '1' raise ValueError or
    TypeError; a model returning one number per text (regression) has no column, so 0 and 1 are refused there."""
    _refuses(make_explainer, "label", (2, -1, 1.5, "1"))
    _refuses(make_explainer, "label", (0, 1), regression=True)
