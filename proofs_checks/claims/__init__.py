"""The paper's claims, one module each, named by the claim id; ``CLAIMS`` maps the id to its check."""

from . import (
    algorithm1_beam,
    importance_linear,
    lemma1,
    lemma2,
    lemma2_any_p,
    lemma2_joint,
    prop1_l2norm,
    prop1_linear,
    prop1_logistic,
    prop2_shortcut,
)

CLAIMS = {
    module.CLAIM: module.check
    for module in (lemma1, lemma2, lemma2_any_p, lemma2_joint, prop1_linear, importance_linear, prop1_logistic,
                   prop1_l2norm, prop2_shortcut, algorithm1_beam)
}

__all__ = ["CLAIMS"]
