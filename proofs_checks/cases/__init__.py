"""Case families that several claim families or figures share: linear and tabled models, Lemma 1's Monte Carlo runs and selection cases, the LIME runs."""

__all__: list[str] = []
