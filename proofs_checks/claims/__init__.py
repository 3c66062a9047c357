"""The paper's claims, one module each; ``CLAIMS`` maps a fixed claim id to its check."""

from . import algorithm1_beam, importance_linear, lemma1, lemma2, prop1_l2norm, prop1_linear, prop1_logistic, prop2_shortcut

CLAIMS = {
    module.CLAIM: module.check
    for module in (lemma1, lemma2, prop1_linear, importance_linear, prop1_logistic, prop1_l2norm, prop2_shortcut,
                   algorithm1_beam)
}

__all__ = ["CLAIMS"]
