"""Where and with what a number was computed: the one environment recorder of the project.

Used by the claim report, the evaluation runner and the benchmarks, so that every
result file names its machine and package versions the same way.
"""

from __future__ import annotations

import os
import platform
from importlib import metadata
from typing import Sequence

#: Packages every record names; callers add the ones their numbers also depend on.
CORE_PACKAGES = ("fred-theory", "numpy", "scipy", "sympy", "scikit-learn")


def environment(packages: Sequence[str] = ()) -> dict:
    """Python, platform, processor, CPU count, and the installed version of each package (None if absent)."""
    versions = {}
    for name in dict.fromkeys((*CORE_PACKAGES, *packages)):  # ordered, without repeats
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {"python": platform.python_version(), "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count(), "packages": versions}


def describe(env: dict) -> str:
    """One line for a Markdown or text report: processor, cores, Python and package versions."""
    versions = ", ".join(f"{name} {version or 'not installed'}" for name, version in env["packages"].items())
    return f"{env['processor']}, {env['cpus']} cores, {env['platform']}, Python {env['python']}; {versions}"
