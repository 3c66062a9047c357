"""The one progress bar of the project: tqdm on a terminal, nothing in logs, CI or without tqdm."""

from __future__ import annotations

import os
import sys
from typing import Iterable, TypeVar

#: The type of the items a progress bar passes through.
T = TypeVar("T")


def interactive() -> bool:
    """Whether progress bars should show: stderr is a terminal and no ``CI`` variable is set."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def progress(items: Iterable[T], desc: str, total: int | None = None) -> Iterable[T]:
    """``items`` wrapped in a tqdm bar on a terminal; unchanged (and silent) otherwise or when tqdm is absent."""
    if not interactive():
        return items
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, desc=desc, total=total, leave=False, file=sys.stderr)
