"""The one argument parser of the project's command lines: argparse, whose usage errors are one line.

The developers' guide asks that a command-line usage error exit with status 2 and print one line. argparse's own
errors (an unknown option, a bad choice, a missing value) print the whole usage block first; :class:`OneLineParser`
prints only ``PROG: error: MESSAGE``. ``python -m proofs_checks``, ``python -m fred.evaluation``, the tools and the
benchmarks all use it.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


def usage_error(prog: str, message: str) -> int:
    r"""Print the one-line usage error ``PROG: error: MESSAGE`` (whitespace runs in ``message`` made single spaces)
    on stderr and return the exit status 2, for a ``main`` that returns its status after parsing succeeded.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = usage_error("demo", "--claims: unknown id(s)\n  nope")
    >>> status, err.getvalue()
    (2, 'demo: error: --claims: unknown id(s) nope\n')
    """
    sys.stderr.write(_line(prog, message))
    return 2


def _line(prog: str, message: str) -> str:
    return f"{prog}: error: {' '.join(message.split())}\n"


class OneLineParser(argparse.ArgumentParser):
    """:class:`argparse.ArgumentParser` whose usage errors are one line on stderr and exit status 2.

    >>> OneLineParser(prog="demo").parse_args(["--nope"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 after one line on stderr (argparse prints the whole usage block first)."""
        self.exit(2, _line(self.prog, message))
