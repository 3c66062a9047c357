"""The paper's claims, one module each, named by the claim id; ``CLAIMS`` maps the id to its check."""

from . import (
    algorithm1_beam,
    algorithm1_literal,
    counterfactuals_linear,
    experiment_anchors_confidence,
    experiment_distilbert_sentiment,
    experiment_faithfulness,
    experiment_mask_vs_pos,
    experiment_shap_efficiency,
    importance_linear,
    lemma1,
    lemma1_selection,
    lemma2,
    lemma2_any_p,
    lemma2_joint,
    minilm_lemma1,
    minilm_selection,
    prop1_l2norm,
    prop1_linear,
    prop1_logistic,
    prop1_step_link,
    prop2_shortcut,
    prop2_specular,
    tfidf_oov,
)

CLAIMS = {
    module.CLAIM: module.check
    for module in (lemma1, lemma1_selection, lemma2, lemma2_any_p, lemma2_joint, prop1_linear, importance_linear, prop1_logistic,
                   prop1_step_link, prop1_l2norm, tfidf_oov, prop2_shortcut, prop2_specular, algorithm1_beam,
                   algorithm1_literal, counterfactuals_linear, experiment_faithfulness, experiment_mask_vs_pos,
                   experiment_anchors_confidence, experiment_shap_efficiency, experiment_distilbert_sentiment,
                   minilm_lemma1, minilm_selection)
}

__all__ = ["CLAIMS"]
