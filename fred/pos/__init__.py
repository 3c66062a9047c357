"""POS sampling (section 2.3): perturbed tokens become words of the same tag and opposite sentiment.

Usage (needs the ``pos`` extra for the default tagger and polarity)::

    from fred import Fred
    from fred.pos import PosSampler
    sampler = PosSampler(corpus)                  # tags the corpus once, builds D+ and D-
    explainer = Fred(classifier_fn, sampler=sampler, random_state=0)
    exp = explainer.explain(text)
    exp.sampler_stats                              # category sizes, fall-back rate of this explanation

The sampler, the law of its perturbation pattern and why there is no exact POS sampler: :mod:`fred.pos.sampler`;
its dictionaries :mod:`fred.pos.dictionaries`, tagger and polarity :mod:`fred.pos.tagging`, token splitting
:mod:`fred.pos.tokens`.
"""

from .sampler import PosSampler, PosStats

__all__ = ["PosSampler", "PosStats"]
