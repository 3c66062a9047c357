"""Claim-by-claim checks of the FRED paper."""

__all__: list[str] = []
