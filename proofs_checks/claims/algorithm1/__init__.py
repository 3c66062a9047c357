"""Algorithm 1.

The search: the beam against the exhaustive search, and the printed pseudo-code.
"""

__all__: list[str] = []
