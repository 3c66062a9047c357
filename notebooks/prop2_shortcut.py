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
# # Proposition 2: shortcut detection, and where it fails
#
# **Claim (Prop. 2).** For $f(z) = \prod_{j\in J} \mathbb 1\{w_j \in z\}$ with $m_1 < m_2 < \dots$, the optimal
# candidate removes $\min(m_1, \ell_{max})$ occurrences of the rarest word and nothing else.
#
# **What is true.** Removing $k < m_1$ occurrences already lowers $\mathbb E[f] = \prod_j (1 - p^{m_j})$, to
# $(1 - p^{m_1 - k}) \prod_{j \ge 2}(1 - p^{m_j})$. When that drop reaches $\varepsilon\,\mathbb E[f]$ FRED stops
# earlier: the minimal size is $l^* \le m_1$ (`analytic.shortcut_minimal_size`), equal to $m_1$ only when
# $\varepsilon > 1 - (1-p)/(1-p^{m_1})$. The claim is false at the default $\varepsilon = 0.15$ for $m_1 \ge 2$.
#
# **Check.** On "good" (3 times) and "fresh" (4 times): the closed form against exact enumeration, and
# FRED with the exact sampler across $\varepsilon$.

# %%
import numpy as np
from IPython.display import Image

from proofs_checks.figures import notebook_settings, prop2_shortcut_data, prop2_shortcut_figure, save_figure

settings = notebook_settings()
data = prop2_shortcut_data(seed=settings.seed, quick=settings.quick)

# %% [markdown]
# ## The check in numbers

# %%
for word, closed, enumerated in zip(data.words, data.closed, data.enumerated):
    print(f"{word}: drop after removing k = 0.. occurrences {np.round(closed, 4).tolist()}")
    np.testing.assert_allclose(enumerated, closed, rtol=0, atol=1e-12)
print(f"eps={data.eps}: threshold {data.eps * data.mean_prediction:.4f}; l* = {data.l_star}, "
      f"Prop. 2 says m_1 = {min(data.m)}; FRED (exact) returns {[data.tokens[i] for i in data.exact_ids]}")
print(f"FRED Monte Carlo (n={data.n_samples}) returns {[data.tokens[i] for i in data.mc_ids]} with drop "
      f"{data.mc_drop:.4f}: with sampling noise it can stop even earlier than l* when a drop is near the threshold")
assert len(data.exact_ids) == data.l_star < min(data.m)

# %% [markdown]
# ## The figure

# %%
files = save_figure(prop2_shortcut_figure(data), settings.out, "prop2_shortcut")
Image(filename=str(files.png))
