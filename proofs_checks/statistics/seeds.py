"""Seeds of every statistical check, re-drawn from one environment variable.

Each statistical test and statistical report step has a fixed default seed. Setting
``FRED_STATISTICAL_SEED`` to an integer s replaces every default seed d by a seed drawn from
``numpy.random.SeedSequence([s, d])``, so one variable re-seeds all of them at once (and
differently from each other); unset, the defaults are used. A sweep over s checks that a verdict
does not hang on one lucky seed: with false-alarm probability delta per check, k checks and s seeds,
a correct implementation fails somewhere with probability at most k * s * delta.
"""

from __future__ import annotations

import os

import numpy as np

#: The environment variable that re-seeds every statistical check.
SEED_ENV = "FRED_STATISTICAL_SEED"


def statistical_seed(default: int) -> int:
    """``default``, or the seed drawn from ``SeedSequence([$FRED_STATISTICAL_SEED, default])`` when it is set.

    >>> statistical_seed(7) == 7 or "FRED_STATISTICAL_SEED" in os.environ
    True
    """
    value = os.environ.get(SEED_ENV)
    if value is None or value == "":
        return int(default)
    try:
        sweep = int(value)
    except ValueError:
        raise ValueError(f"{SEED_ENV} must be an integer >= 0, got {value!r}") from None
    if sweep < 0:
        raise ValueError(f"{SEED_ENV} must be an integer >= 0, got {value!r}")
    return int(np.random.SeedSequence([sweep, int(default)]).generate_state(1)[0])
