"""Closed forms of the FRED paper's objects and the exact referee, written without importing ``fred``.

One module per object of the paper:

* :mod:`analytic.patterns`: the 2^b perturbation patterns: codes, probabilities, superset sums;
* :mod:`analytic.search`: Algorithm 1 and its beams on given drops, the one search of the checking side;
* :mod:`analytic.referee`: exact FRED, enumerating all 2^b perturbation patterns (Eqs. 1-2, Algorithm 1);
* :mod:`analytic.beam`: Algorithm 1 against a beam (fred's, the released code's) on tables, and box scans;
* :mod:`analytic.lemma1`: the limit of the empirical drop, its variance and a Hoeffding bound;
* :mod:`analytic.selection`: selection consistency (Lemma 1 to Eq. 4): margins, the agreement bound, the exact
  distribution of FRED's choice;
* :mod:`analytic.lemma2`: sample size, per-candidate and joint coverage;
* :mod:`analytic.tfidf`: TF-IDF of Definition 1 and linear models read from scikit-learn pipelines;
* :mod:`analytic.prop1_linear`: the linear model of Eq. (6) (Prop. 1);
* :mod:`analytic.prop1_l2norm`: the linear model on L2-normalised TF-IDF (outside Prop. 1);
* :mod:`analytic.prop2_shortcut`: the word-presence ("shortcut") model (Prop. 2);
* :mod:`analytic.algorithm1`: Algorithm 1 as printed (literal transcription) and the rule giving its output;
* :mod:`analytic.counterfactual`: counterfactuals on a linear score (section 2.4): minimal flipping sets and the
  probability that FRED's counterfactual is minimal.

Arguments come in the order ``(data, p, eps, max_len, *, baseline=...)``.
"""

from .algorithm1 import LiteralOutcome, algorithm1_literal, algorithm1_rule, pattern_rows
from .counterfactual import (
    counterfactual_sample_size,
    first_counterfactual_size_distribution,
    flip_sets,
    greedy_flip_positions,
    minimal_flip_probability,
    minimal_flip_probability_sym,
    minimal_flip_row_probability,
    minimal_flip_sets,
    minimal_flip_size,
    predicted_class,
)
from .patterns import (
    check_b,
    check_max_len,
    check_table,
    code_of,
    pattern_weights,
    popcounts,
    positions_of,
    superset_sums,
)
from .lemma1 import drop_asymptotic_variance, empirical_drop, hoeffding_drop_bound, lemma1_limit
from .lemma2 import (
    binomial_identity_sym,
    coverage,
    coverage_sym,
    covers,
    joint_coverage,
    joint_coverage_all_sizes,
    joint_coverage_bounds,
    joint_coverage_monte_carlo,
    joint_coverage_upper_bound,
    sample_size_numeric,
    sample_size_rational,
    sample_size_sym,
)
from .search import SearchOutcome, best_of_size, is_rational, search_batch, search_on_drops, tie_tolerance
from .selection import (
    AgreementBound,
    SelectionMargins,
    agreement_bound,
    agreement_probability,
    agreement_sample_size,
    candidate_failure,
    exact_selection,
    selection_distribution,
    selection_margins,
)
from .prop1_l2norm import L2NormalisedLinearModel, l2_table_sym
from .prop1_linear import (
    VALUE_TOL,
    is_top_set,
    kept_count_sym,
    linear_best_drops,
    linear_drop,
    linear_drop_as_written,
    linear_drop_sym,
    linear_expected_prediction,
    linear_expected_prediction_sym,
    linear_minimal_size,
    linear_optimal_counts,
    linear_optimal_positions,
    logistic_table_sym,
)
from .prop2_shortcut import (
    ShortcutModel,
    shortcut_claim_eps,
    shortcut_claim_eps_sym,
    shortcut_claim_holds,
    shortcut_conditional_as_written_sym,
    shortcut_conditional_sym,
    shortcut_drop,
    shortcut_drop_sym,
    shortcut_expected_prediction,
    shortcut_expected_prediction_sym,
    shortcut_minimal_size,
    shortcut_optimal_counts,
    shortcut_optimal_counts_bruteforce,
)
from .referee import (
    ExactExplanation,
    all_drops,
    all_drops_rational,
    best_drop_of_size,
    exact_drop,
    exact_explain,
    expected_prediction,
    expected_prediction_rational,
    linear_table,
    linear_table_rational,
    masked_texts,
    scaled_drops,
    table_classifier,
    table_from_classifier,
)
from .tfidf import LinearTfidfModel, check_vectorizer, idf

__all__ = [
    "agreement_bound",
    "agreement_probability",
    "agreement_sample_size",
    "AgreementBound",
    "algorithm1_literal",
    "algorithm1_rule",
    "all_drops",
    "all_drops_rational",
    "best_drop_of_size",
    "best_of_size",
    "binomial_identity_sym",
    "candidate_failure",
    "check_b",
    "check_max_len",
    "check_table",
    "check_vectorizer",
    "code_of",
    "counterfactual_sample_size",
    "coverage",
    "coverage_sym",
    "covers",
    "drop_asymptotic_variance",
    "empirical_drop",
    "exact_drop",
    "exact_explain",
    "exact_selection",
    "ExactExplanation",
    "expected_prediction",
    "expected_prediction_rational",
    "first_counterfactual_size_distribution",
    "flip_sets",
    "greedy_flip_positions",
    "hoeffding_drop_bound",
    "idf",
    "is_rational",
    "is_top_set",
    "joint_coverage",
    "joint_coverage_all_sizes",
    "joint_coverage_bounds",
    "joint_coverage_monte_carlo",
    "joint_coverage_upper_bound",
    "kept_count_sym",
    "l2_table_sym",
    "L2NormalisedLinearModel",
    "lemma1_limit",
    "linear_best_drops",
    "linear_drop",
    "linear_drop_as_written",
    "linear_drop_sym",
    "linear_expected_prediction",
    "linear_expected_prediction_sym",
    "linear_minimal_size",
    "linear_optimal_counts",
    "linear_optimal_positions",
    "linear_table",
    "linear_table_rational",
    "LinearTfidfModel",
    "LiteralOutcome",
    "logistic_table_sym",
    "masked_texts",
    "minimal_flip_probability",
    "minimal_flip_probability_sym",
    "minimal_flip_row_probability",
    "minimal_flip_sets",
    "minimal_flip_size",
    "pattern_rows",
    "pattern_weights",
    "popcounts",
    "positions_of",
    "predicted_class",
    "sample_size_numeric",
    "sample_size_rational",
    "sample_size_sym",
    "scaled_drops",
    "search_batch",
    "search_on_drops",
    "SearchOutcome",
    "selection_distribution",
    "selection_margins",
    "SelectionMargins",
    "shortcut_claim_eps",
    "shortcut_claim_eps_sym",
    "shortcut_claim_holds",
    "shortcut_conditional_as_written_sym",
    "shortcut_conditional_sym",
    "shortcut_drop",
    "shortcut_drop_sym",
    "shortcut_expected_prediction",
    "shortcut_expected_prediction_sym",
    "shortcut_minimal_size",
    "shortcut_optimal_counts",
    "shortcut_optimal_counts_bruteforce",
    "ShortcutModel",
    "superset_sums",
    "table_classifier",
    "table_from_classifier",
    "tie_tolerance",
    "VALUE_TOL",
]
