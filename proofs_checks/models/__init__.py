"""The models the claims and the kit share: the linear TF-IDF family (:mod:`.family`) and models given by a table of scores (:mod:`.tabled_scores`)."""

__all__: list[str] = []
