"""The kit's checks: one ``check_<property>(make_explainer)`` per property, each naming what it defends.

:mod:`.harness` holds what they share (the registry :data:`CHECKS`, the run of one explanation with its
tolerance, generated inputs, drawn independently of the loaded modules by :mod:`proofs_checks.statistics.isolation`); the checks are
grouped by what they check, in the order the kit runs them (:data:`PARTS`): :mod:`.sampling` (the perturbation
law, the sample size), :mod:`.drops` (importances, Lemma 1), :mod:`.selection` (Eq. 2 and Algorithm 1's search,
what must not move the selection, review snippets where a negation decides), :mod:`.propositions` (the exhaustive
search, Props. 1 and 2, the threshold) and :mod:`.interface` (declared outputs, invalid arguments).
"""

from .drops import (
    check_importances_are_exact_drops,
    check_importances_on_random_black_boxes,
    check_lemma1_drops_converge,
    check_lemma1_selection_converges,
)
from .harness import (
    CHECKS,
    DELTA,
    EXAMPLES,
    MC_EXAMPLES,
    N_LAW,
    N_MONTE_CARLO,
    N_STATISTICAL,
    PARTS,
    yield_checks,
)
from .interface import (
    check_declared_outputs_are_present,
    check_defaults_are_the_papers,
    check_invalid_eps_is_refused,
    check_invalid_label_is_refused,
    check_invalid_max_len_is_refused,
    check_invalid_n_samples_is_refused,
    check_invalid_p_is_refused,
    check_invalid_text_is_refused,
)
from .propositions import (
    check_declared_baseline_is_used,
    check_prop1_linear_corrected,
    check_prop2_shortcut_corrected,
    check_search_is_exhaustive_on_beam_counterexample,
    check_threshold_is_eps_times_mean_prediction,
)
from .sampling import (
    check_default_n_samples_is_lemma2,
    check_document_reaches_the_model_unchanged,
    check_mask_token_is_unseen,
    check_n_samples_is_honoured,
    check_perturbation_rate_is_p,
    check_positions_perturbed_independently,
    check_rows_keep_or_mask_each_token,
)
from .selection import (
    check_bag_of_words_permutation_equivariance,
    check_best_ids_are_sorted_unique_positions,
    check_default_label_is_the_predicted_class,
    check_found_matches_the_threshold,
    check_labels_zero_and_one,
    check_larger_eps_never_gives_smaller_size,
    check_max_len_is_respected,
    check_negation_decides_the_selection,
    check_regression_output,
    check_review_snippets_solve_eq2,
    check_same_seed_same_explanation,
    check_selection_invariant_to_positive_scaling,
    check_selection_solves_eq2,
    check_threshold_is_reached_at_equality,
    check_unperturbed_candidate_is_never_selected,
)

__all__ = [
    "CHECKS",
    "DELTA",
    "EXAMPLES",
    "MC_EXAMPLES",
    "N_LAW",
    "N_MONTE_CARLO",
    "N_STATISTICAL",
    "PARTS",
    "check_bag_of_words_permutation_equivariance",
    "check_best_ids_are_sorted_unique_positions",
    "check_declared_baseline_is_used",
    "check_declared_outputs_are_present",
    "check_defaults_are_the_papers",
    "check_default_label_is_the_predicted_class",
    "check_default_n_samples_is_lemma2",
    "check_document_reaches_the_model_unchanged",
    "check_found_matches_the_threshold",
    "check_importances_are_exact_drops",
    "check_importances_on_random_black_boxes",
    "check_invalid_eps_is_refused",
    "check_invalid_label_is_refused",
    "check_invalid_max_len_is_refused",
    "check_invalid_n_samples_is_refused",
    "check_invalid_p_is_refused",
    "check_invalid_text_is_refused",
    "check_labels_zero_and_one",
    "check_larger_eps_never_gives_smaller_size",
    "check_lemma1_drops_converge",
    "check_lemma1_selection_converges",
    "check_mask_token_is_unseen",
    "check_max_len_is_respected",
    "check_negation_decides_the_selection",
    "check_n_samples_is_honoured",
    "check_perturbation_rate_is_p",
    "check_positions_perturbed_independently",
    "check_prop1_linear_corrected",
    "check_prop2_shortcut_corrected",
    "check_regression_output",
    "check_review_snippets_solve_eq2",
    "check_rows_keep_or_mask_each_token",
    "check_same_seed_same_explanation",
    "check_search_is_exhaustive_on_beam_counterexample",
    "check_selection_invariant_to_positive_scaling",
    "check_selection_solves_eq2",
    "check_threshold_is_eps_times_mean_prediction",
    "check_threshold_is_reached_at_equality",
    "check_unperturbed_candidate_is_never_selected",
    "yield_checks",
]
