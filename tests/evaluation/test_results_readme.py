"""results/README.md quotes only numbers that its cited result files hold.

Every paragraph or list item of the README that quotes a decimal number must cite, in backticks, at least one file
of ``results/``, and each decimal it quotes (outside code spans) must appear in one of the files it cites. Catches
the README going stale when a run is redone (it once quoted first-50-document Yelp figures beside 100-document
files) and numbers quoted from memory.
"""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "results"
CITED = re.compile(r"`([A-Za-z0-9_.\-]+\.(?:md|csv|json))`")
CODE = re.compile(r"`[^`]*`")
NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e-?\d+)?(?![\w.]*\d)")


def _blocks(text: str) -> list[str]:
    """Paragraphs, list items and table rows: what one citation covers."""
    blocks, current = [], []
    for line in text.splitlines():
        starts = re.match(r"\s*(?:[-*]|\d+\.)\s", line) or line.startswith("|") or not line.strip()
        if starts and current:
            blocks.append(" ".join(current))
            current = []
        if line.strip():
            current.append(line.strip())
    if current:
        blocks.append(" ".join(current))
    return blocks


def test_every_quoted_number_is_in_a_cited_file():
    readme = (RESULTS / "README.md").read_text(encoding="utf-8")
    problems = []
    for block in _blocks(readme):
        numbers = NUMBER.findall(CODE.sub("", block))
        if not numbers:
            continue
        files = [RESULTS / name for name in CITED.findall(block) if (RESULTS / name).is_file()]
        if not files:
            problems.append(f"no result file cited for {numbers}: {block[:120]}")
            continue
        texts = [f.read_text(encoding="utf-8") for f in files]
        missing = [x for x in numbers if not any(x in t for t in texts)]
        if missing:
            problems.append(f"{missing} not in {[f.name for f in files]}: {block[:120]}")
    assert not problems, "\n".join(problems)


def test_cited_files_exist():
    """Catches a README citing a result file that was renamed or never committed."""
    readme = (RESULTS / "README.md").read_text(encoding="utf-8")
    missing = sorted({n for n in CITED.findall(readme) if not (RESULTS / n).is_file()})
    assert not missing, missing
