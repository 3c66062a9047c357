"""Plant known bugs in a copy of the repository, one at a time, and report which tests catch each.

    python tools/plant_bugs.py [--out FILE] [pytest args...]

The working tree is never modified: ``git archive HEAD`` is unpacked into a temporary directory, each
mutation is applied there, and pytest runs from that directory (so ``import fred`` resolves to the copy).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from fred.command_line import OneLineParser
from fred.markdown_tables import markdown_table

ROOT = Path(__file__).resolve().parents[1]

#: (name, file, original text, replacement): the bugs issue 3 asks to plant.
MUTATIONS = (
    ("mask sampler perturbs with 1 - p", "fred/sampling.py",
     "perturbed = rng.random((n_samples, n_tokens)) < p", "perturbed = rng.random((n_samples, n_tokens)) < 1 - p"),
    ("exact sampler weights with 1 - p", "fred/sampling.py",
     "weights = np.exp(k * math.log(p) + (n_tokens - k) * math.log1p(-p))",
     "weights = np.exp(k * math.log1p(-p) + (n_tokens - k) * math.log(p))"),
    ("exact sampler without weights", "fred/sampling.py",
     "weights = np.exp(k * math.log(p) + (n_tokens - k) * math.log1p(-p))", "weights = np.full(len(k), 1.0 / len(k))"),
    ("> instead of >= (tolerance kept)", "fred/search.py",
     "if drops[top] >= threshold - tie_tol:", "if drops[top] > threshold - tie_tol:"),
    ("> instead of >= (no tolerance)", "fred/search.py",
     "if drops[top] >= threshold - tie_tol:", "if drops[top] > threshold:"),
    ("baselines swapped", "fred/explainer.py",
     'reference = mean_prediction if self.baseline == "mean" else f_text',
     'reference = f_text if self.baseline == "mean" else mean_prediction'),
)


def run(pytest_args: list[str]) -> list[tuple[str, list[str]]]:
    results = []
    for name, path, old, new in MUTATIONS:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            target = Path(tmp, path)
            text = target.read_text()
            if text.count(old) != 1:
                raise SystemExit(f"mutation {name!r}: expected the original text once in {path}")
            target.write_text(text.replace(old, new))
            out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", *pytest_args],
                                 cwd=tmp, capture_output=True, text=True).stdout
            failed = sorted(set(re.findall(r"^FAILED (\S+?)(?:\[| - |$)", out, re.M)))
            results.append((name, failed))
    return results


def main() -> int:
    parser = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="write the Markdown table here too")
    args, pytest_args = parser.parse_known_args()
    table = markdown_table(["planted bug", "tests that fail"],
                           [[name, f"{len(failed)}: " + (", ".join(f"`{f}`" for f in failed) or "**none**")]
                            for name, failed in run(pytest_args or ["tests"])])
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
