"""The one argument parser of the project's command lines: argparse, whose usage errors are one line.

The developers' guide asks that a command-line usage error exit with status 2 and print one line. argparse's own
errors (an unknown option, a bad choice, a missing value) print the whole usage block first; :class:`OneLineParser`
prints only ``PROG: error: MESSAGE``. ``python -m proofs_checks``, ``python -m fred.evaluation``, the tools and the
benchmarks all use it.
"""

from __future__ import annotations

import argparse
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """:class:`argparse.ArgumentParser` whose usage errors are one line on stderr and exit status 2.

    >>> OneLineParser(prog="demo").parse_args(["--nope"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")
