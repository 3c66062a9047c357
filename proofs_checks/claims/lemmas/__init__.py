"""Lemma 1 and Lemma 2.

The empirical drops converge (Lemma 1) and the number of samples (Lemma 2): their claims and the helpers only they
use.
"""

__all__: list[str] = []
