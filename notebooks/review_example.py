# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The paper's Figure 1 on a real review
#
# **What the paper shows (Figure 1).** For one review FRED returns (a) the minimal subset of tokens whose
# perturbation drops the confidence by $\varepsilon$ (here 0.5, as in the paper's figure), (b) a saliency map of
# the per-token scores $s_i$ (Eq. 5), and (c) $k = 3$ counterfactual samples with minimal perturbation
# classified otherwise.
#
# **Here.** A `TfidfVectorizer` + `LogisticRegression` is trained on the 1000 reviews of `restaurants.tsv`
# (read in place from `../shared/data`, or `$FRED_DATA_DIR`); the review shown is the most confidently positive
# one of 6-10 tokens on which FRED finds a subset and 3 counterfactuals. Without the data file the notebook
# says so and stops.

# %%
from IPython.display import Image, display

from proofs_checks.figures import notebook_settings, review_example_data, review_example_figure, save_figure

settings = notebook_settings()
try:
    data = review_example_data(seed=settings.seed, quick=settings.quick)
except FileNotFoundError as missing:
    data = None
    print(f"skipped: {missing}")

# %% [markdown]
# ## The explanation in numbers

# %%
if data is not None:
    exp = data.explanation
    print(exp)  # FRED's own text rendering, as in the paper's Figure 1 (a) and (c)
    print("importances s_i:", [(t, round(float(s), 3)) for t, s in zip(exp.tokens, exp.importances)])
    for cf in data.counterfactuals:
        assert cf.predicted_class == "negative" and cf.score < 0.5, cf

# %% [markdown]
# ## The figure

# %%
if data is not None:
    files = save_figure(review_example_figure(data), settings.out, "review_example")
    display(Image(filename=str(files.png)))
