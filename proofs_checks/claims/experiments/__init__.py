"""The experiments.

What the paper's experiments report (section 4 and the appendix), checked on its tables and our committed runs.
"""

__all__: list[str] = []
