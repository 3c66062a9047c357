"""The pytest entry point of the distribution (``pytest11``, name ``fred``): the kit's three options, and the plugin
:mod:`proofs_checks.pytest_plugin` registered only when one of them is given.

Why a module of its own, outside every package: pytest loads an installed distribution's ``pytest11`` entry point
in every run of the environment, and importing anything under ``proofs_checks`` first imports the package face,
hence the whole kit, the claims, scikit-learn and hypothesis (about 2.5 s of CPU per pytest process, and a broken
import anywhere in ``proofs_checks`` would break every pytest run of the environment). This module imports pytest
only; without the options it adds three options to ``pytest --help`` and nothing else.

    pytest --fred-explainer mypkg.mod:make_explainer                 # one item per kit check
    pytest --fred-explainer mypkg.mod:make_explainer --fred-claims   # and one item per claim
    pytest --fred-explainer-cmd "python my_server.py"                # an explainer in another process
"""

from __future__ import annotations

import importlib

import pytest

#: The plugin proper, imported by name when an option asks for it (the reason is the module docstring's).
PLUGIN = "proofs_checks.pytest_plugin"


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's three options, in a ``fred`` group of ``pytest --help``."""
    group = parser.getgroup("fred", "FRED conformance kit (proofs_checks)")
    group.addoption("--fred-explainer", action="append", default=[], metavar="MODULE:FACTORY",
                    help="collect the kit's checks on this explainer factory, one item per check (repeatable)")
    group.addoption("--fred-explainer-cmd", action="append", default=[], metavar="COMMAND",
                    help="the same for an explainer served by COMMAND over the JSON-lines protocol of "
                         "docs/protocol.md (repeatable)")
    group.addoption("--fred-claims", action="store_true",
                    help="also collect one item per claim of the report, run against the reference FRED and the "
                         "explainer")


def pytest_configure(config: pytest.Config) -> None:
    """Register :data:`PLUGIN` when an option is given (its own ``pytest_configure`` then runs, pytest's configure
    hook being historic); nothing otherwise."""
    if config.getoption("fred_explainer") or config.getoption("fred_explainer_cmd") or config.getoption("fred_claims"):
        config.pluginmanager.register(importlib.import_module(PLUGIN), "fred-kit")
