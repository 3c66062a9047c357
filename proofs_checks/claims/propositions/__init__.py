"""Proposition 1 and Proposition 2.

Linear models (Proposition 1, with the importances and TF-IDF claims around it) and shortcut words (Proposition 2):
their claims and the helpers only they use.
"""

__all__: list[str] = []
