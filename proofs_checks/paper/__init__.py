"""The paper's data, as printed: its experiment tables (:mod:`.tables`) and the baselines' setting (:mod:`.baselines`)."""

__all__: list[str] = []
