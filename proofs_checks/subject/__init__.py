"""The explainer under test: a factory seen as an explainer (:mod:`.explainer`), the released code behind an adapter (:mod:`.authors`, :mod:`.authors_probe`, :mod:`.authors_pipeline`) and the JSON-lines protocol (:mod:`.protocol`)."""

__all__: list[str] = []
