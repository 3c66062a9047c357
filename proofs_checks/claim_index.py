"""Every claim of the report by id, in the report's order: ``CLAIMS`` maps the id to its check.

The claims never import each other (an import-linter contract); this index, one layer above them, is what the
report, the comparison and the tests read.
"""

from __future__ import annotations

from .claims import (
    algorithm1_beam,
    algorithm1_literal,
    baseline_anchors,
    baseline_lime,
    baseline_shap,
    counterfactuals_linear,
    experiment_anchors_confidence,
    experiment_distilbert_sentiment,
    experiment_faithfulness,
    experiment_lime_shap_close,
    experiment_mask_vs_pos,
    experiment_proportion_matching,
    experiment_shap_efficiency,
    experiment_trends,
    importance_linear,
    lemma1,
    lemma1_selection,
    lemma2,
    lemma2_any_p,
    lemma2_joint,
    metric_aucmorf,
    metric_aucmorf_proportion,
    metric_sufficiency,
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

#: Claims added in this revision of the report (issue 29: what the paper says of the baselines LIME, SHAP, Anchors).
NEW_CLAIMS: tuple[str, ...] = ("baseline-lime", "baseline-shap", "baseline-anchors")

CLAIMS = {
    module.CLAIM: module.check
    for module in (lemma1, lemma1_selection, lemma2, lemma2_any_p, lemma2_joint, prop1_linear, importance_linear,
                   prop1_logistic, prop1_step_link, prop1_l2norm, tfidf_oov, prop2_shortcut, prop2_specular,
                   algorithm1_beam, algorithm1_literal, counterfactuals_linear, experiment_faithfulness, experiment_mask_vs_pos,
                   experiment_anchors_confidence, experiment_shap_efficiency, experiment_distilbert_sentiment,
                   experiment_proportion_matching, experiment_trends, experiment_lime_shap_close,
                   metric_sufficiency, metric_aucmorf, metric_aucmorf_proportion,
                   minilm_lemma1, minilm_selection, baseline_lime, baseline_shap, baseline_anchors)
}

