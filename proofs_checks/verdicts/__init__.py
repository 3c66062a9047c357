"""What a check returns and how a verdict follows: results and the verdict rule (:mod:`.results`), the paper's words a claim quotes (:mod:`.quotes`), counterexamples' records (:mod:`.counterexamples`)."""

__all__: list[str] = []
