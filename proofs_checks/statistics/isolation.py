"""Hypothesis draws that do not depend on which modules are loaded: the one workaround of a hypothesis internal.

Since 6.131, hypothesis' default provider mixes into generated data the literal constants of every loaded "local"
module (``hypothesis.internal.conjecture.providers._get_local_constants``, read by
``HypothesisProvider._maybe_draw_constant``). The same strategy under the same seed then draws other examples when
other modules are loaded: the command line, the Python API and a researcher's pytest load different modules, so
the kit's verdicts on one factory and seed depended on how it was called (issue 28, item 5). The kit's draws
(:mod:`proofs_checks.kit.checks.harness`), every claim's run (:mod:`proofs_checks.report`,
:mod:`proofs_checks.comparison`) and the test suite (``tests/conftest.py``) run inside
:func:`without_local_constants`. Hypothesis offers no
setting or public hook to turn this off (its changelog and issue tracker were searched; the alternative-backend
API replaces the whole provider), so :func:`without_local_constants` replaces the one internal function for the
duration of a run, and empties hypothesis' cache of the constants each choice may take (a cache filled by an
earlier run would otherwise keep the local constants). The global constants hypothesis ships with stay: they do
not depend on what is loaded.

Version guard: the patch is applied only when hypothesis has the two internals it replaces; with an older
hypothesis (no local constants) it does nothing. ``tests/kit/test_isolation.py`` fails if hypothesis changes under
it (the internal disappears, or stops being what makes the draws depend on the loaded modules).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import hypothesis
from hypothesis.internal.conjecture import providers

#: The first hypothesis release drawing local constants (6.131.1); the patch is needed from it on.
FIRST_VERSION = (6, 131, 1)
#: True when this hypothesis draws local constants through the internals :func:`without_local_constants` replaces.
PATCHABLE = (hypothesis.__version_info__ >= FIRST_VERSION and hasattr(providers, "_get_local_constants")
             and hasattr(providers, "CONSTANTS_CACHE"))
#: Hypothesis' own collector, kept so that a test can show what it does (tests/kit/test_isolation.py).
HYPOTHESIS_LOCAL_CONSTANTS = getattr(providers, "_get_local_constants", None)


def _no_local_constants() -> "providers.Constants":
    return providers.Constants()


@contextmanager
def without_local_constants() -> Iterator[None]:
    """Within the block, hypothesis draws no literal of a loaded module (see the module docstring); restores the
    previous behaviour after it, so a researcher's own tests run after the kit are untouched."""
    if not PATCHABLE:
        yield
        return
    previous = providers._get_local_constants
    providers._get_local_constants = _no_local_constants
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = previous
        providers.CONSTANTS_CACHE.cache.clear()

