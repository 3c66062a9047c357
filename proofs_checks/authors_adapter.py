"""Adapters from other explainer signatures to the conformance kit's protocol."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AdaptedExplanation:
    """The fields the kit reads; None where the wrapped explainer gives nothing."""

    best_ids: tuple[int, ...]
    found: bool | None = None
    importances: tuple[float, ...] | None = None


class AuthorsExplainerAdapter:
    """Wrap an object with the authors' public ``explain_instance(example, eps, max_len, label=...)``.

    That signature has no p and no sample size (the authors' code fixes p = 1/2 and derives n from alpha),
    so ``p`` other than 1/2 raises ValueError and ``n_samples`` is ignored; the returned object's
    ``best_ids`` (positions of ``text.split()``) is what the kit reads, and ``word_drops`` (a dict
    position -> drop, when present) becomes ``importances``.
    """

    supports_p = False

    def __init__(self, explainer):
        if not hasattr(explainer, "explain_instance"):
            raise TypeError(f"explainer must have explain_instance(...), got {type(explainer).__name__}")
        self.explainer = explainer

    def explain(self, text, label=None, p=0.5, eps=0.15, max_len=10, n_samples=None):
        if not (isinstance(p, float) and p == 0.5):
            raise ValueError(f"p must be 0.5 for explain_instance explainers (fixed in their code), got {p!r}")
        exp = self.explainer.explain_instance(text, eps=eps, max_len=max_len, label=label)
        drops = getattr(exp, "word_drops", None)
        importances = tuple(drops[i] for i in range(len(text.split()))) if isinstance(drops, dict) else None
        return AdaptedExplanation(tuple(sorted(int(i) for i in exp.best_ids)), None, importances)


def authors_factory(explainer_class):
    """A kit factory building ``explainer_class(classifier_fn)`` wrapped in :class:`AuthorsExplainerAdapter`."""

    def make_explainer(classifier_fn, exact: bool = False):
        if exact:
            raise NotImplementedError("explain_instance explainers have no exact mode")
        return AuthorsExplainerAdapter(explainer_class(classifier_fn))

    make_explainer.__name__ = f"authors_{explainer_class.__name__}"
    return make_explainer
