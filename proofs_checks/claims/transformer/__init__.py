"""A transformer: MiniLM.

Lemma 1 and the selection on a transformer (the bundled MiniLM encoder).
"""

__all__: list[str] = []
