"""The paper's experiment tables as data: the 34 comparison tables of section 4 and appendix B.2, and the accuracy
table of appendix B.1 (``tab:model_accuracy``).

Transcribed from the LaTeX source of the paper (``../shared/paper/fred-paper.tex``): each comparison table is named
by its ``\\label`` and carries its caption as written, with the line where its first row is printed and its
underlined cells, so a verdict that rests on it can name it. ``tests/claims/test_experiment_tables.py`` re-parses
the source (when it is present) and checks that every number here is the one printed there.

The runner prints the table of its setting beside its own numbers (:func:`paper_table`);
``proofs_checks.paper.tables`` reads the tables from here and analyses them. The data live on this side
because ``fred.evaluation`` never imports ``proofs_checks``.

Each row is six ``(mean, std)`` pairs in the order of :data:`PAPER_COLUMNS`, the columns of the paper's tables;
:data:`BETTER` holds their arrows (suffic. ↓, compreh. ↑, robust. ↑, aucmorf ↓, time ↓, proport. ↓).
"""

from __future__ import annotations

#: The columns of every comparison table, in the paper's order.
PAPER_COLUMNS = ("sufficiency", "comprehensiveness", "robustness", "aucmorf", "time", "proportion")
#: +1 when higher is better, -1 when lower is better: the arrows printed in the tables' headers.
BETTER = {"sufficiency": -1, "comprehensiveness": 1, "robustness": 1, "aucmorf": -1, "time": -1, "proportion": -1}
#: The rows of every comparison table, in the printed order.
PAPER_EXPLAINERS = ("fred", "fredpos", "lime", "shap", "anchor")

#: Every comparison table in the order of the source: (label, place, caption).
TABLE_INDEX: tuple[tuple[str, str, str], ...] = (
    ('exp-tab:restaurants_roberta_5', 'section 4',
     'Comparison on Roberta for Restaurant reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_forest_5', 'section 4',
     'Comparison on Random forest classifier for Yelp reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_distilbert_5', 'section 4',
     'Comparison on DistilBERT for IMDb ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_roberta_5', 'section 4',
     'Comparison on Roberta for IMDb ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:tweets_tree_5', 'section 4',
     'Comparison on a decision tree for Tweets ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:tweets_forest_5', 'section 4',
     'Comparison on random forest classifier for Tweets ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_logistic_1', 'appendix B.2',
     'Comparison on a logistic classifier for Restaurant reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_logistic_5', 'appendix B.2',
     'Comparison on a logistic classifier for Restaurant reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_tree_1', 'appendix B.2',
     'Comparison on a decision tree for Restaurant reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_tree_5', 'appendix B.2',
     'Comparison on a decision tree for Restaurant reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_forest_1', 'appendix B.2',
     'Comparison on a random forest classifier for Restaurant reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_forest_5', 'appendix B.2',
     'Comparison on a random forest classifier for Restaurant reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_distilbert_1', 'appendix B.2',
     'Comparison on DistilBERT for Restaurant reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_distilbert_5', 'appendix B.2',
     'Comparison on DistilBERT for Restaurant reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:restaurants_roberta_1', 'appendix B.2',
     'Comparison on Roberta for Restaurant reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_logistic_1', 'appendix B.2',
     'Comparison on logistic classifier for Yelp reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_logistic_5', 'appendix B.2',
     'Comparison on logistic classifier for Yelp reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_tree_1', 'appendix B.2',
     'Comparison on decision tree for Yelp reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_tree_5', 'appendix B.2',
     'Comparison on decision tree for Yelp reviews ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_forest_1', 'appendix B.2',
     'Comparison on random forest classifier for Yelp reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_distilbert_1', 'appendix B.2',
     'Comparison on DistilBERT for Yelp reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_distilbert_5', 'appendix B.2',
     'Comparison on DistilBERT for Yelp reviews ($p=0.5$, $n=70$, $\\epsilon=0.15$).'),
    ('exp-tab:yelp_roberta_1', 'appendix B.2',
     'Comparison on Roberta for Yelp reviews ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_logistic_1', 'appendix B.2',
     'Comparison on logistic classifier for IMDb ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_logistic_5', 'appendix B.2',
     'Comparison on logistic classifier for IMDb ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_tree_1', 'appendix B.2',
     'Comparison on decision tree for IMDb ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_tree_5', 'appendix B.2',
     'Comparison on decision tree for IMDb ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_forest_1', 'appendix B.2',
     'Comparison on random forest classifier for IMDb ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_forest_5', 'appendix B.2',
     'Comparison on random forest classifier for IMDb ($p=0.5$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_distilbert_1', 'appendix B.2',
     'Comparison on DistilBERT for IMDb ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:imdb_roberta_1', 'appendix B.2',
     'Comparison on Roberta for IMDb ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:tweets_tree_1', 'appendix B.2',
     'Comparison on decision tree for tweets hate speech detection ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:tweets_forest_1', 'appendix B.2',
     'Comparison on random forest classifier for tweets hate speech detection ($p=0.1$, $\\epsilon=0.15$).'),
    ('exp-tab:tweets_distilbert_1', 'appendix B.2',
     'Comparison on DistilBERT for tweets hate speech detection ($p=0.1$, $\\epsilon=0.15$).'),
)

#: Per table label, per explainer (in the order of :data:`PAPER_EXPLAINERS`), six ``(mean, std)`` pairs in the
#: order of :data:`PAPER_COLUMNS`.
TABLE_ROWS: dict[str, dict[str, tuple[tuple[float, float], ...]]] = {
    'exp-tab:restaurants_roberta_5': {
        'fred': ((0.517, 0.49), (0.548, 0.49), (0.925, 0.22), (0.146, 0.11), (35.814, 1.69), (0.127, 0.06)),
        'fredpos': ((0.517, 0.49), (0.542, 0.49), (0.92, 0.23), (0.198, 0.16), (35.249, 1.57), (0.127, 0.06)),
        'lime': ((0.527, 0.49), (0.528, 0.5), (0.925, 0.22), (0.162, 0.13), (38.834, 2.72), (0.127, 0.06)),
        'shap': ((0.766, 0.42), (0.323, 0.46), (1.0, 0.0), (0.306, 0.21), (1.899, 1.74), (0.127, 0.06)),
        'anchor': ((0.509, 0.49), (0.538, 0.5), (0.85, 0.32), (0.454, 0.45), (15.491, 20.4), (0.126, 0.06)),
    },
    'exp-tab:yelp_forest_5': {
        'fred': ((-0.142, 0.11), (0.114, 0.04), (0.804, 0.21), (0.759, 0.13), (0.418, 0.18), (0.117, 0.14)),
        'fredpos': ((-0.123, 0.12), (0.08, 0.05), (0.833, 0.23), (0.74, 0.09), (0.452, 0.21), (0.071, 0.1)),
        'lime': ((-0.126, 0.11), (0.083, 0.04), (0.933, 0.16), (0.782, 0.08), (0.332, 0.1), (0.061, 0.08)),
        'shap': ((-0.132, 0.11), (0.073, 0.05), (0.972, 0.09), (0.776, 0.08), (0.638, 0.23), (0.071, 0.1)),
        'anchor': ((-0.049, 0.16), (0.032, 0.05), (0.754, 0.33), (0.942, 0.09), (2.53, 6.26), (0.038, 0.04)),
    },
    'exp-tab:imdb_distilbert_5': {
        'fred': ((-0.002, 0.01), (0.02, 0.01), (0.602, 0.15), (0.97, 0.01), (9.406, 0.87), (0.387, 0.13)),
        'fredpos': ((0.002, 0.01), (0.017, 0.01), (0.499, 0.14), (0.975, 0.01), (9.754, 0.65), (0.381, 0.13)),
        'lime': ((0.001, 0.01), (0.019, 0.01), (0.897, 0.1), (0.972, 0.01), (11.052, 1.31), (0.292, 0.15)),
        'shap': ((0.0, 0.01), (0.016, 0.01), (1.0, 0.0), (0.975, 0.01), (1.934, 0.86), (0.381, 0.13)),
        'anchor': ((0.02, 0.01), (0.003, 0.0), (1.0, 0.0), (0.995, 0.01), (0.633, 0.06), (0.039, 0.02)),
    },
    'exp-tab:imdb_roberta_5': {
        'fred': ((0.201, 0.39), (0.249, 0.43), (0.864, 0.23), (0.204, 0.17), (47.849, 4.14), (0.069, 0.05)),
        'fredpos': ((0.454, 0.49), (0.209, 0.4), (0.91, 0.27), (0.328, 0.26), (48.098, 4.51), (0.038, 0.02)),
        'lime': ((0.348, 0.46), (0.219, 0.41), (0.81, 0.37), (0.295, 0.33), (66.732, 8.62), (0.038, 0.02)),
        'shap': ((0.621, 0.47), (0.149, 0.35), (1.0, 0.0), (0.475, 0.32), (15.147, 4.37), (0.038, 0.02)),
        'anchor': ((0.463, 0.48), (0.228, 0.42), (0.64, 0.41), (0.777, 0.4), (55.617, 115.33), (0.037, 0.02)),
    },
    'exp-tab:tweets_tree_5': {
        'fred': ((0.87, 0.34), (0.93, 0.26), (0.975, 0.12), (0.079, 0.04), (0.054, 0.01), (0.14, 0.05)),
        'fredpos': ((0.88, 0.32), (0.93, 0.26), (0.954, 0.14), (0.078, 0.04), (0.065, 0.01), (0.14, 0.05)),
        'lime': ((0.87, 0.34), (0.92, 0.27), (0.881, 0.22), (0.082, 0.06), (0.129, 0.01), (0.14, 0.05)),
        'shap': ((0.88, 0.32), (0.91, 0.29), (1.0, 0.0), (0.088, 0.08), (0.034, 0.16), (0.14, 0.05)),
        'anchor': ((0.89, 0.31), (0.8, 0.4), (0.65, 0.39), (0.109, 0.14), (0.582, 0.48), (0.138, 0.05)),
    },
    'exp-tab:tweets_forest_5': {
        'fred': ((0.781, 0.21), (0.295, 0.19), (0.892, 0.21), (0.156, 0.05), (0.512, 0.04), (0.108, 0.03)),
        'fredpos': ((0.784, 0.2), (0.386, 0.15), (0.958, 0.15), (0.149, 0.05), (0.379, 0.05), (0.108, 0.03)),
        'lime': ((0.784, 0.2), (0.384, 0.15), (0.974, 0.14), (0.159, 0.05), (0.452, 0.05), (0.108, 0.03)),
        'shap': ((0.784, 0.2), (0.383, 0.15), (1.0, 0.0), (0.156, 0.05), (0.155, 0.15), (0.108, 0.03)),
        'anchor': ((0.788, 0.2), (0.281, 0.19), (0.493, 0.4), (0.221, 0.1), (8.019, 4.09), (0.108, 0.03)),
    },
    'exp-tab:restaurants_logistic_1': {
        'fred': ((-0.118, 0.09), (0.13, 0.05), (0.866, 0.2), (0.709, 0.09), (0.055, 0.02), (0.227, 0.13)),
        'fredpos': ((-0.094, 0.11), (0.097, 0.06), (0.876, 0.21), (0.721, 0.09), (0.059, 0.02), (0.159, 0.09)),
        'lime': ((-0.111, 0.09), (0.102, 0.06), (0.968, 0.1), (0.726, 0.09), (0.13, 0.02), (0.159, 0.09)),
        'shap': ((-0.12, 0.09), (0.1, 0.06), (1.0, 0.0), (0.712, 0.09), (0.065, 0.37), (0.159, 0.09)),
        'anchor': ((-0.058, 0.15), (0.072, 0.06), (0.772, 0.3), (0.874, 0.1), (0.121, 0.19), (0.136, 0.07)),
    },
    'exp-tab:restaurants_logistic_5': {
        'fred': ((-0.119, 0.09), (0.12, 0.05), (0.926, 0.15), (0.707, 0.09), (0.075, 0.03), (0.216, 0.14)),
        'fredpos': ((-0.089, 0.11), (0.086, 0.07), (0.924, 0.2), (0.718, 0.09), (0.075, 0.02), (0.128, 0.07)),
        'lime': ((-0.105, 0.1), (0.093, 0.06), (0.982, 0.09), (0.726, 0.09), (0.128, 0.02), (0.128, 0.07)),
        'shap': ((-0.114, 0.09), (0.092, 0.06), (1.0, 0.0), (0.712, 0.09), (0.065, 0.36), (0.128, 0.07)),
        'anchor': ((-0.054, 0.15), (0.069, 0.07), (0.784, 0.3), (0.874, 0.1), (0.122, 0.19), (0.127, 0.07)),
    },
    'exp-tab:restaurants_tree_1': {
        'fred': ((0.03, 0.17), (0.94, 0.24), (0.96, 0.14), (0.138, 0.14), (0.057, 0.02), (0.158, 0.09)),
        'fredpos': ((0.04, 0.2), (0.75, 0.43), (0.947, 0.15), (0.183, 0.16), (0.062, 0.02), (0.137, 0.08)),
        'lime': ((0.02, 0.14), (0.75, 0.43), (0.894, 0.21), (0.11, 0.09), (0.132, 0.01), (0.137, 0.08)),
        'shap': ((0.01, 0.1), (0.69, 0.46), (1.0, 0.0), (0.132, 0.11), (0.054, 0.2), (0.137, 0.08)),
        'anchor': ((0.02, 0.14), (0.63, 0.48), (0.968, 0.15), (0.381, 0.45), (0.19, 0.76), (0.111, 0.05)),
    },
    'exp-tab:restaurants_tree_5': {
        'fred': ((0.02, 0.14), (0.62, 0.49), (0.807, 0.28), (0.116, 0.09), (0.067, 0.02), (0.116, 0.05)),
        'fredpos': ((0.03, 0.17), (0.65, 0.48), (0.938, 0.17), (0.167, 0.17), (0.08, 0.03), (0.113, 0.05)),
        'lime': ((0.02, 0.14), (0.65, 0.48), (0.822, 0.27), (0.11, 0.09), (0.132, 0.01), (0.113, 0.05)),
        'shap': ((0.01, 0.1), (0.6, 0.49), (1.0, 0.0), (0.132, 0.11), (0.051, 0.15), (0.113, 0.05)),
        'anchor': ((0.02, 0.14), (0.63, 0.48), (0.968, 0.15), (0.381, 0.45), (0.19, 0.76), (0.111, 0.05)),
    },
    'exp-tab:restaurants_forest_1': {
        'fred': ((0.04, 0.15), (0.192, 0.09), (0.919, 0.17), (0.562, 0.13), (0.134, 0.02), (0.16, 0.07)),
        'fredpos': ((0.084, 0.17), (0.156, 0.11), (0.942, 0.18), (0.544, 0.11), (0.14, 0.02), (0.126, 0.06)),
        'lime': ((0.061, 0.14), (0.157, 0.11), (0.974, 0.12), (0.516, 0.1), (0.218, 0.01), (0.126, 0.06)),
        'shap': ((0.054, 0.13), (0.15, 0.11), (1.0, 0.0), (0.495, 0.09), (0.172, 0.21), (0.126, 0.06)),
        'anchor': ((0.069, 0.15), (0.129, 0.13), (0.877, 0.24), (0.778, 0.18), (0.733, 0.88), (0.118, 0.05)),
    },
    'exp-tab:restaurants_forest_5': {
        'fred': ((0.047, 0.15), (0.162, 0.12), (0.955, 0.15), (0.512, 0.11), (0.219, 0.03), (0.146, 0.08)),
        'fredpos': ((0.072, 0.15), (0.156, 0.12), (0.942, 0.18), (0.523, 0.1), (0.233, 0.03), (0.138, 0.08)),
        'lime': ((0.063, 0.15), (0.162, 0.12), (0.98, 0.09), (0.516, 0.09), (0.329, 0.02), (0.138, 0.08)),
        'shap': ((0.055, 0.14), (0.157, 0.12), (1.0, 0.0), (0.5, 0.09), (0.187, 0.27), (0.138, 0.08)),
        'anchor': ((0.075, 0.15), (0.139, 0.13), (0.862, 0.27), (0.77, 0.17), (0.837, 0.98), (0.135, 0.08)),
    },
    'exp-tab:restaurants_distilbert_1': {
        'fred': ((-0.017, 0.01), (0.003, 0.0), (0.91, 0.17), (0.997, 0.01), (7.273, 0.4), (0.145, 0.17)),
        'fredpos': ((-0.014, 0.01), (-0.004, 0.01), (0.571, 0.26), (1.002, 0.01), (7.271, 0.32), (0.363, 0.23)),
        'lime': ((-0.018, 0.01), (0.001, 0.0), (0.943, 0.17), (0.998, 0.01), (7.806, 0.34), (0.164, 0.16)),
        'shap': ((-0.014, 0.01), (-0.004, 0.01), (1.0, 0.0), (1.015, 0.01), (0.183, 0.2), (0.363, 0.23)),
        'anchor': ((-0.016, 0.01), (-0.003, 0.0), (1.0, 0.0), (1.008, 0.01), (0.5, 0.23), (0.121, 0.07)),
    },
    'exp-tab:restaurants_distilbert_5': {
        'fred': ((0.003, 0.01), (0.023, 0.01), (0.961, 0.08), (0.97, 0.01), (7.331, 0.4), (0.7, 0.18)),
        'fredpos': ((0.007, 0.01), (0.015, 0.01), (0.882, 0.15), (0.978, 0.02), (7.372, 0.3), (0.461, 0.32)),
        'lime': ((0.006, 0.01), (0.017, 0.01), (0.982, 0.08), (0.971, 0.01), (7.833, 0.53), (0.455, 0.31)),
        'shap': ((0.007, 0.01), (0.015, 0.01), (1.0, 0.0), (0.974, 0.01), (0.18, 0.2), (0.461, 0.32)),
        'anchor': ((0.014, 0.01), (0.006, 0.01), (0.912, 0.25), (0.988, 0.01), (0.981, 1.31), (0.13, 0.09)),
    },
    'exp-tab:restaurants_roberta_1': {
        'fred': ((0.487, 0.49), (0.766, 0.42), (0.916, 0.2), (0.151, 0.12), (35.276, 1.48), (0.158, 0.08)),
        'fredpos': ((0.577, 0.49), (0.528, 0.5), (0.953, 0.18), (0.23, 0.18), (34.953, 1.49), (0.13, 0.06)),
        'lime': ((0.507, 0.49), (0.538, 0.5), (0.93, 0.21), (0.162, 0.13), (38.554, 2.36), (0.13, 0.06)),
        'shap': ((0.756, 0.42), (0.323, 0.46), (1.0, 0.0), (0.306, 0.21), (1.814, 1.58), (0.13, 0.06)),
        'anchor': ((0.509, 0.49), (0.538, 0.5), (0.85, 0.32), (0.454, 0.45), (15.556, 20.26), (0.126, 0.06)),
    },
    'exp-tab:yelp_logistic_1': {
        'fred': ((-0.2, 0.09), (0.101, 0.03), (0.551, 0.27), (0.722, 0.07), (0.251, 0.15), (0.088, 0.07)),
        'fredpos': ((-0.193, 0.09), (0.088, 0.03), (0.571, 0.29), (0.721, 0.07), (0.266, 0.16), (0.075, 0.06)),
        'lime': ((-0.207, 0.09), (0.094, 0.03), (0.897, 0.18), (0.79, 0.07), (0.28, 0.12), (0.075, 0.06)),
        'shap': ((-0.209, 0.09), (0.086, 0.03), (1.0, 0.0), (0.748, 0.07), (0.188, 0.49), (0.075, 0.06)),
        'anchor': ((-0.012, 0.23), (0.034, 0.05), (0.658, 0.37), (0.948, 0.07), (0.983, 2.53), (0.041, 0.05)),
    },
    'exp-tab:yelp_logistic_5': {
        'fred': ((-0.205, 0.09), (0.103, 0.02), (0.749, 0.23), (0.724, 0.07), (0.355, 0.21), (0.09, 0.08)),
        'fredpos': ((-0.188, 0.1), (0.068, 0.04), (0.754, 0.29), (0.718, 0.07), (0.398, 0.24), (0.069, 0.09)),
        'lime': ((-0.196, 0.1), (0.067, 0.04), (0.866, 0.23), (0.79, 0.07), (0.287, 0.12), (0.06, 0.07)),
        'shap': ((-0.188, 0.1), (0.066, 0.04), (1.0, 0.0), (0.747, 0.08), (0.171, 0.3), (0.069, 0.09)),
        'anchor': ((-0.031, 0.23), (0.037, 0.05), (0.629, 0.39), (0.945, 0.07), (1.123, 2.85), (0.043, 0.06)),
    },
    'exp-tab:yelp_tree_1': {
        'fred': ((0.24, 0.43), (0.84, 0.37), (0.899, 0.23), (0.144, 0.27), (0.292, 0.17), (0.042, 0.05)),
        'fredpos': ((0.25, 0.43), (0.81, 0.39), (0.842, 0.31), (0.194, 0.33), (0.32, 0.18), (0.041, 0.05)),
        'lime': ((0.2, 0.4), (0.79, 0.41), (0.936, 0.18), (0.105, 0.19), (0.324, 0.14), (0.041, 0.05)),
        'shap': ((0.18, 0.38), (0.73, 0.44), (0.966, 0.12), (0.143, 0.23), (0.177, 0.15), (0.041, 0.05)),
        'anchor': ((0.24, 0.43), (0.56, 0.5), (0.837, 0.31), (0.477, 0.48), (9.167, 47.26), (0.028, 0.03)),
    },
    'exp-tab:yelp_tree_5': {
        'fred': ((0.2, 0.4), (0.56, 0.5), (0.811, 0.28), (0.102, 0.16), (0.357, 0.21), (0.03, 0.03)),
        'fredpos': ((0.19, 0.39), (0.57, 0.5), (0.818, 0.29), (0.122, 0.19), (0.445, 0.27), (0.03, 0.03)),
        'lime': ((0.2, 0.4), (0.58, 0.49), (0.83, 0.26), (0.105, 0.19), (0.328, 0.14), (0.03, 0.03)),
        'shap': ((0.18, 0.38), (0.55, 0.5), (0.972, 0.11), (0.143, 0.23), (0.175, 0.15), (0.03, 0.03)),
        'anchor': ((0.25, 0.43), (0.56, 0.5), (0.84, 0.31), (0.477, 0.48), (9.164, 47.25), (0.028, 0.03)),
    },
    'exp-tab:yelp_forest_1': {
        'fred': ((-0.126, 0.11), (0.107, 0.04), (0.653, 0.28), (0.749, 0.1), (0.306, 0.13), (0.081, 0.08)),
        'fredpos': ((-0.107, 0.12), (0.1, 0.04), (0.634, 0.3), (0.753, 0.09), (0.328, 0.14), (0.076, 0.09)),
        'lime': ((-0.138, 0.1), (0.102, 0.04), (0.909, 0.17), (0.782, 0.08), (0.345, 0.13), (0.074, 0.08)),
        'shap': ((-0.159, 0.09), (0.086, 0.05), (0.968, 0.09), (0.776, 0.08), (0.64, 0.25), (0.076, 0.09)),
        'anchor': ((-0.05, 0.16), (0.032, 0.05), (0.757, 0.33), (0.942, 0.09), (2.522, 6.23), (0.04, 0.04)),
    },
    'exp-tab:yelp_distilbert_1': {
        'fred': ((-0.011, 0.01), (0.012, 0.01), (0.477, 0.19), (0.983, 0.02), (11.324, 3.49), (0.141, 0.12)),
        'fredpos': ((-0.011, 0.01), (0.007, 0.01), (0.359, 0.16), (0.986, 0.01), (11.816, 3.69), (0.146, 0.13)),
        'lime': ((-0.012, 0.01), (0.008, 0.01), (0.837, 0.21), (0.986, 0.01), (16.691, 6.84), (0.125, 0.14)),
        'shap': ((-0.011, 0.01), (0.005, 0.01), (1.0, 0.0), (0.994, 0.01), (2.827, 1.16), (0.146, 0.13)),
        'anchor': ((-0.007, 0.01), (0.0, 0.0), (0.865, 0.32), (0.999, 0.01), (1.452, 1.11), (0.038, 0.04)),
    },
    'exp-tab:yelp_distilbert_5': {
        'fred': ((0.003, 0.01), (0.019, 0.01), (0.517, 0.13), (0.966, 0.01), (16.013, 4.38), (0.222, 0.14)),
        'fredpos': ((0.007, 0.01), (0.017, 0.01), (0.425, 0.11), (0.975, 0.02), (16.32, 4.36), (0.232, 0.17)),
        'lime': ((0.004, 0.01), (0.017, 0.01), (0.799, 0.15), (0.973, 0.01), (25.053, 9.54), (0.197, 0.14)),
        'shap': ((0.006, 0.01), (0.016, 0.01), (1.0, 0.0), (0.973, 0.01), (4.612, 1.58), (0.232, 0.17)),
        'anchor': ((0.003, 0.01), (0.011, 0.01), (0.52, 0.29), (0.981, 0.01), (184.02, 228.83), (0.134, 0.13)),
    },
    'exp-tab:yelp_roberta_1': {
        'fred': ((0.145, 0.33), (0.18, 0.38), (0.419, 0.29), (0.656, 0.36), (44.358, 7.37), (0.096, 0.09)),
        'fredpos': ((0.17, 0.34), (0.1, 0.3), (0.393, 0.38), (0.716, 0.33), (45.003, 8.14), (0.065, 0.07)),
        'lime': ((0.103, 0.28), (0.1, 0.3), (0.601, 0.34), (0.676, 0.39), (69.072, 21.34), (0.065, 0.07)),
        'shap': ((0.244, 0.4), (0.031, 0.17), (1.0, 0.0), (0.77, 0.31), (8.455, 3.4), (0.065, 0.07)),
        'anchor': ((0.419, 0.43), (0.05, 0.22), (0.626, 0.43), (0.926, 0.25), (22.924, 47.58), (0.033, 0.04)),
    },
    'exp-tab:imdb_logistic_1': {
        'fred': ((-0.122, 0.05), (0.045, 0.02), (0.465, 0.11), (0.873, 0.05), (0.194, 0.04), (0.151, 0.08)),
        'fredpos': ((-0.117, 0.05), (0.043, 0.02), (0.416, 0.09), (0.872, 0.05), (0.211, 0.04), (0.146, 0.09)),
        'lime': ((-0.141, 0.05), (0.048, 0.02), (0.947, 0.1), (0.908, 0.03), (0.204, 0.03), (0.142, 0.09)),
        'shap': ((-0.141, 0.05), (0.047, 0.02), (1.0, 0.0), (0.876, 0.05), (0.202, 0.3), (0.146, 0.09)),
        'anchor': ((-0.09, 0.09), (0.02, 0.02), (0.591, 0.35), (0.964, 0.03), (0.671, 0.74), (0.056, 0.04)),
    },
    'exp-tab:imdb_logistic_5': {
        'fred': ((-0.103, 0.04), (0.066, 0.02), (0.595, 0.13), (0.876, 0.05), (0.603, 0.12), (0.294, 0.13)),
        'fredpos': ((-0.097, 0.04), (0.063, 0.02), (0.539, 0.1), (0.874, 0.05), (0.687, 0.14), (0.296, 0.12)),
        'lime': ((-0.138, 0.05), (0.052, 0.02), (0.95, 0.1), (0.911, 0.03), (0.375, 0.05), (0.175, 0.1)),
        'shap': ((-0.112, 0.04), (0.066, 0.02), (1.0, 0.0), (0.88, 0.04), (0.336, 0.44), (0.296, 0.12)),
        'anchor': ((-0.099, 0.08), (0.02, 0.02), (0.622, 0.31), (0.964, 0.03), (1.213, 1.53), (0.057, 0.04)),
    },
    'exp-tab:imdb_tree_1': {
        'fred': ((0.25, 0.43), (0.69, 0.46), (0.792, 0.29), (0.174, 0.24), (0.145, 0.03), (0.059, 0.04)),
        'fredpos': ((0.27, 0.44), (0.53, 0.5), (0.749, 0.35), (0.341, 0.36), (0.16, 0.03), (0.048, 0.03)),
        'lime': ((0.2, 0.4), (0.55, 0.5), (0.82, 0.27), (0.091, 0.08), (0.199, 0.02), (0.048, 0.03)),
        'shap': ((0.16, 0.37), (0.48, 0.5), (0.933, 0.19), (0.146, 0.19), (0.185, 0.13), (0.048, 0.03)),
        'anchor': ((0.15, 0.36), (0.46, 0.5), (0.777, 0.3), (0.542, 0.48), (1.946, 8.13), (0.035, 0.01)),
    },
    'exp-tab:imdb_tree_5': {
        'fred': ((0.16, 0.37), (0.44, 0.5), (0.736, 0.3), (0.098, 0.09), (0.172, 0.03), (0.039, 0.02)),
        'fredpos': ((0.22, 0.41), (0.42, 0.49), (0.855, 0.26), (0.304, 0.34), (0.213, 0.04), (0.035, 0.02)),
        'lime': ((0.19, 0.39), (0.47, 0.5), (0.726, 0.31), (0.091, 0.08), (0.2, 0.02), (0.035, 0.02)),
        'shap': ((0.18, 0.38), (0.44, 0.5), (0.921, 0.22), (0.146, 0.19), (0.182, 0.14), (0.035, 0.02)),
        'anchor': ((0.18, 0.38), (0.46, 0.5), (0.775, 0.31), (0.542, 0.48), (1.972, 8.24), (0.033, 0.01)),
    },
    'exp-tab:imdb_forest_1': {
        'fred': ((-0.141, 0.09), (0.091, 0.03), (0.489, 0.18), (0.84, 0.09), (0.319, 0.03), (0.139, 0.1)),
        'fredpos': ((-0.136, 0.09), (0.069, 0.03), (0.401, 0.23), (0.847, 0.08), (0.324, 0.03), (0.122, 0.1)),
        'lime': ((-0.163, 0.09), (0.082, 0.03), (0.904, 0.16), (0.861, 0.06), (0.363, 0.02), (0.111, 0.07)),
        'shap': ((-0.173, 0.1), (0.072, 0.03), (0.961, 0.11), (0.821, 0.08), (0.822, 0.22), (0.122, 0.1)),
        'anchor': ((-0.095, 0.11), (0.007, 0.03), (0.813, 0.32), (0.987, 0.06), (0.995, 2.98), (0.043, 0.03)),
    },
    'exp-tab:imdb_forest_5': {
        'fred': ((-0.175, 0.09), (0.124, 0.04), (0.582, 0.17), (0.904, 0.11), (0.78, 0.14), (0.299, 0.14)),
        'fredpos': ((-0.141, 0.1), (0.077, 0.05), (0.639, 0.25), (0.87, 0.1), (0.736, 0.16), (0.215, 0.19)),
        'lime': ((-0.158, 0.11), (0.076, 0.04), (0.916, 0.15), (0.861, 0.06), (0.589, 0.04), (0.113, 0.09)),
        'shap': ((-0.167, 0.11), (0.086, 0.05), (0.972, 0.06), (0.821, 0.08), (1.39, 0.35), (0.215, 0.19)),
        'anchor': ((-0.093, 0.11), (0.008, 0.03), (0.807, 0.32), (0.987, 0.06), (1.719, 5.1), (0.046, 0.04)),
    },
    'exp-tab:imdb_distilbert_1': {
        'fred': ((-0.011, 0.01), (0.007, 0.0), (0.46, 0.18), (0.993, 0.01), (9.092, 0.73), (0.155, 0.09)),
        'fredpos': ((-0.011, 0.01), (0.004, 0.0), (0.344, 0.15), (0.99, 0.01), (9.346, 0.92), (0.167, 0.08)),
        'lime': ((-0.014, 0.01), (0.005, 0.0), (0.872, 0.18), (0.991, 0.01), (11.029, 1.29), (0.119, 0.07)),
        'shap': ((-0.012, 0.01), (0.002, 0.01), (1.0, 0.0), (0.995, 0.01), (1.827, 0.56), (0.167, 0.08)),
        'anchor': ((-0.008, 0.01), (-0.001, 0.0), (0.99, 0.1), (1.001, 0.01), (0.645, 0.09), (0.044, 0.03)),
    },
    'exp-tab:imdb_roberta_1': {
        'fred': ((0.278, 0.44), (0.488, 0.49), (0.635, 0.35), (0.353, 0.36), (45.841, 3.75), (0.09, 0.06)),
        'fredpos': ((0.417, 0.48), (0.266, 0.44), (0.674, 0.35), (0.454, 0.35), (46.691, 4.01), (0.06, 0.03)),
        'lime': ((0.21, 0.4), (0.278, 0.44), (0.855, 0.28), (0.295, 0.33), (65.123, 7.64), (0.06, 0.03)),
        'shap': ((0.436, 0.48), (0.159, 0.36), (1.0, 0.0), (0.475, 0.32), (15.901, 5.05), (0.06, 0.03)),
        'anchor': ((0.453, 0.48), (0.228, 0.42), (0.642, 0.41), (0.777, 0.4), (54.867, 112.66), (0.038, 0.02)),
    },
    'exp-tab:tweets_tree_1': {
        'fred': ((0.87, 0.34), (0.95, 0.22), (0.982, 0.1), (0.078, 0.04), (0.046, 0.01), (0.143, 0.05)),
        'fredpos': ((0.88, 0.32), (1.0, 0.0), (0.952, 0.15), (0.078, 0.04), (0.052, 0.01), (0.148, 0.05)),
        'lime': ((0.87, 0.34), (0.99, 0.1), (0.907, 0.21), (0.082, 0.06), (0.125, 0.01), (0.148, 0.05)),
        'shap': ((0.88, 0.32), (0.97, 0.17), (1.0, 0.0), (0.088, 0.08), (0.035, 0.18), (0.148, 0.05)),
        'anchor': ((0.88, 0.32), (0.85, 0.36), (0.669, 0.39), (0.109, 0.14), (0.578, 0.47), (0.144, 0.05)),
    },
    'exp-tab:tweets_forest_1': {
        'fred': ((0.782, 0.21), (0.391, 0.15), (0.976, 0.09), (0.162, 0.06), (0.273, 0.06), (0.108, 0.03)),
        'fredpos': ((0.784, 0.2), (0.388, 0.15), (0.985, 0.09), (0.166, 0.06), (0.25, 0.07), (0.109, 0.03)),
        'lime': ((0.784, 0.2), (0.385, 0.14), (0.974, 0.14), (0.159, 0.05), (0.453, 0.05), (0.109, 0.03)),
        'shap': ((0.784, 0.2), (0.384, 0.15), (1.0, 0.0), (0.156, 0.05), (0.153, 0.14), (0.109, 0.03)),
        'anchor': ((0.788, 0.2), (0.281, 0.19), (0.493, 0.4), (0.221, 0.1), (7.841, 4.0), (0.109, 0.03)),
    },
    'exp-tab:tweets_distilbert_1': {
        'fred': ((-0.002, 0.01), (0.019, 0.01), (0.691, 0.21), (0.974, 0.01), (8.309, 0.88), (0.411, 0.1)),
        'fredpos': ((0.001, 0.01), (0.012, 0.01), (0.46, 0.16), (0.978, 0.01), (8.392, 0.91), (0.45, 0.13)),
        'lime': ((-0.005, 0.01), (0.016, 0.01), (0.979, 0.07), (0.972, 0.01), (9.414, 1.11), (0.427, 0.1)),
        'shap': ((-0.003, 0.01), (0.013, 0.01), (1.0, 0.0), (0.978, 0.01), (0.497, 0.33), (0.45, 0.13)),
        'anchor': ((-0.002, 0.01), (0.012, 0.01), (0.891, 0.2), (0.978, 0.01), (11.732, 11.18), (0.307, 0.17)),
    },
}

#: The 1-based line of the LaTeX source where each table's ``fred`` row is printed; its other rows follow on the
#: next lines in the order of :data:`PAPER_EXPLAINERS`.
FIRST_ROW_LINE: dict[str, int] = {
    'exp-tab:restaurants_roberta_5': 591, 'exp-tab:yelp_forest_5': 607, 'exp-tab:imdb_distilbert_5': 623,
    'exp-tab:imdb_roberta_5': 639, 'exp-tab:tweets_tree_5': 655, 'exp-tab:tweets_forest_5': 671,
    'exp-tab:restaurants_logistic_1': 1189, 'exp-tab:restaurants_logistic_5': 1205,
    'exp-tab:restaurants_tree_1': 1221, 'exp-tab:restaurants_tree_5': 1237, 'exp-tab:restaurants_forest_1': 1253,
    'exp-tab:restaurants_forest_5': 1269, 'exp-tab:restaurants_distilbert_1': 1285,
    'exp-tab:restaurants_distilbert_5': 1301, 'exp-tab:restaurants_roberta_1': 1317,
    'exp-tab:yelp_logistic_1': 1333, 'exp-tab:yelp_logistic_5': 1349, 'exp-tab:yelp_tree_1': 1365,
    'exp-tab:yelp_tree_5': 1381, 'exp-tab:yelp_forest_1': 1397, 'exp-tab:yelp_distilbert_1': 1413,
    'exp-tab:yelp_distilbert_5': 1429, 'exp-tab:yelp_roberta_1': 1445, 'exp-tab:imdb_logistic_1': 1461,
    'exp-tab:imdb_logistic_5': 1477, 'exp-tab:imdb_tree_1': 1493, 'exp-tab:imdb_tree_5': 1509,
    'exp-tab:imdb_forest_1': 1525, 'exp-tab:imdb_forest_5': 1541, 'exp-tab:imdb_distilbert_1': 1557,
    'exp-tab:imdb_roberta_1': 1573, 'exp-tab:tweets_tree_1': 1589, 'exp-tab:tweets_forest_1': 1605,
    'exp-tab:tweets_distilbert_1': 1621,
}

#: The underlined cells, which mark the best value of a column (only the six tables of section 4 have any):
#: label -> metric -> the explainers whose cell is underlined, in the order of the rows.
UNDERLINED: dict[str, dict[str, tuple[str, ...]]] = {
    'exp-tab:restaurants_roberta_5': {
        'sufficiency': ('anchor',), 'comprehensiveness': ('fred',), 'robustness': ('shap',), 'aucmorf': ('fred',),
        'time': ('shap',), 'proportion': ('anchor',),
    },
    'exp-tab:yelp_forest_5': {
        'sufficiency': ('fred',), 'comprehensiveness': ('fred',), 'robustness': ('shap',), 'aucmorf': ('fredpos',),
        'time': ('lime',), 'proportion': ('anchor',),
    },
    'exp-tab:imdb_distilbert_5': {
        'sufficiency': ('fred',), 'comprehensiveness': ('fred',), 'robustness': ('shap', 'anchor'),
        'aucmorf': ('fred',), 'time': ('anchor',), 'proportion': ('anchor',),
    },
    'exp-tab:imdb_roberta_5': {
        'sufficiency': ('fred',), 'comprehensiveness': ('fred',), 'robustness': ('shap',), 'aucmorf': ('fred',),
        'time': ('shap',), 'proportion': ('anchor',),
    },
    'exp-tab:tweets_tree_5': {
        'sufficiency': ('fred', 'lime'), 'comprehensiveness': ('fred', 'fredpos'), 'robustness': ('shap',),
        'aucmorf': ('fredpos',), 'time': ('shap',), 'proportion': ('anchor',),
    },
    'exp-tab:tweets_forest_5': {
        'sufficiency': ('fred',), 'comprehensiveness': ('fredpos',), 'aucmorf': ('fredpos',), 'time': ('shap',),
    },
}

#: Appendix B.1, table ``tab:model_accuracy``: the test accuracy of each (dataset, model) as printed.
MODEL_ACCURACY_LABEL = "tab:model_accuracy"
#: That table's caption, as printed.
MODEL_ACCURACY_CAPTION = (
    "Accuracy of machine learning models evaluated on datasets used in the experiments. An asterisk (*) denotes "
    "models that were trained specifically on the corresponding dataset. RoBERTa and DistilBERT are leveraged here "
    "as pre-trained models, meaning their weights were not further fine-tuned on the individual datasets."
)
#: (dataset, model) -> test accuracy, as printed in that table.
MODEL_ACCURACY: dict[tuple[str, str], float] = {
    ("Restaurants", "Logistic Regression"): 0.808, ("Restaurants", "Decision Tree"): 0.676,
    ("Restaurants", "Random Forest"): 0.748, ("Restaurants", "RoBERTa"): 0.972, ("Restaurants", "DistilBERT"): 0.500,
    ("Yelp", "Logistic Regression"): 0.892, ("Yelp", "Decision Tree"): 0.748, ("Yelp", "Random Forest"): 0.868,
    ("Yelp", "RoBERTa"): 0.988, ("Yelp", "DistilBERT"): 0.472,
    ("IMDB", "Logistic Regression"): 0.710, ("IMDB", "Decision Tree"): 0.700, ("IMDB", "Random Forest"): 0.834,
    ("IMDB", "RoBERTa"): 0.950, ("IMDB", "DistilBERT"): 0.500,
    ("Tweets", "Logistic Regression"): 0.930, ("Tweets", "Decision Tree"): 0.941, ("Tweets", "Random Forest"): 0.959,
    ("Tweets", "RoBERTa"): 0.273, ("Tweets", "DistilBERT"): 0.929,
}

#: How tab:model_accuracy names the datasets and models of the comparison tables' labels.
ACCURACY_NAMES = {"restaurants": "Restaurants", "yelp": "Yelp", "imdb": "IMDB", "tweets": "Tweets",
                  "logistic": "Logistic Regression", "tree": "Decision Tree", "forest": "Random Forest",
                  "roberta": "RoBERTa", "distilbert": "DistilBERT"}

#: The label of each p's tables: ``exp-tab:{dataset}_{model}_1`` at p = 0.1, ``_5`` at p = 0.5.
_P_SUFFIX = {0.1: "1", 0.5: "5"}


def paper_table(dataset: str, model: str, p: float) -> dict[str, tuple[tuple[float, float], ...]] | None:
    """The rows of the paper's table for this setting (eps = 0.15), or None when the paper has none.

    >>> paper_table("yelp", "forest", 0.5)["shap"][4]  # SHAP's time (s): mean, std
    (0.638, 0.23)
    >>> paper_table("yelp", "minilm", 0.5) is None
    True
    """
    suffix = _P_SUFFIX.get(round(float(p), 6))
    return None if suffix is None else TABLE_ROWS.get(f"exp-tab:{dataset}_{model}_{suffix}")
