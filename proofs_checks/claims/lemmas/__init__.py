"""Lemma 1 (the empirical drops converge) and Lemma 2 (choosing n): their claims and the helpers only they use."""

__all__: list[str] = []
