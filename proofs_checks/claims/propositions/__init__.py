"""Proposition 1 (linear models) and Proposition 2 (the shortcut), with the importances and TF-IDF claims around
them."""

__all__: list[str] = []
