"""Section 2.3: POS sampling.

What the paper says of its part-of-speech sampler (the replacement dictionaries, Figure 2's illustration, the word
swaps it motivates the scheme with), checked on the reference sampler (:mod:`fred.pos`) with its dictionaries built on
the Restaurants reviews.
"""

__all__: list[str] = []
