"""Randomness and statistics shared by the kit and the claims: seeds (:mod:`.seeds`), the one Clopper-Pearson interval (:mod:`.intervals`), hypothesis draws independent of loaded modules (:mod:`.isolation`)."""

__all__: list[str] = []
