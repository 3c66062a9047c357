"""Every command line's usage error is one line and exit status 2 (the guide's rule; fred/command_line.py).

Catches a command line built on plain argparse, whose own errors (an unknown option, a bad choice) print the whole
usage block before the error, and a tool or benchmark that drifts back to it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import proofs_checks.__main__ as proofs_checks_cli
from fred.evaluation import __main__ as evaluation_cli
from fred.evaluation import accuracy

ROOT = Path(__file__).resolve().parents[1]
#: The one tool allowed plain argparse: it also runs on older checkouts (PYTHONPATH), which lack fred.command_line.
PLAIN_ARGPARSE = {"tools/kit_outcomes.py", "fred/command_line.py"}


@pytest.mark.parametrize("main, argv", [
    (proofs_checks_cli.main, ["--no-such-option"]),
    (proofs_checks_cli.main, ["--only", "everything"]),
    (proofs_checks_cli.main, ["plots", "--no-such-option"]),
    (evaluation_cli.main, ["--no-such-option"]),
    (accuracy.main, ["--no-such-option"]),
])
def test_an_argparse_error_is_one_line_and_exit_2(main, argv, capsys):
    """An argparse error of a package's command line: exit status 2, one line on stderr, nothing on stdout."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "error:" in err, err


def test_every_command_line_uses_the_one_line_parser():
    """No module, tool or benchmark builds a plain argparse.ArgumentParser (fred.command_line.OneLineParser
    instead), the one documented exception aside."""
    plain = [str(path.relative_to(ROOT)) for folder in ("fred", "proofs_checks", "analytic", "tools", "benchmarks")
             for path in (ROOT / folder).rglob("*.py")
             if re.search(r"argparse\.ArgumentParser\(", path.read_text(encoding="utf-8"))]
    assert sorted(set(plain) - PLAIN_ARGPARSE) == []
