"""Summarise a finished ``mutmut run``: score per module and the diff of every surviving mutant.

Run from the directory that holds ``mutants/`` (the copy mutmut ran in)::

    python tools/mutmut_report.py            # per-module table, then survivors
    python tools/mutmut_report.py --table    # the table only

mutmut stores each mutant as a copy of its function inside ``mutants/<path>``
and its exit code in ``mutants/<path>.meta``; the diff shown is the mutant's
function against the original, reduced to the changed lines. Statuses are
mutmut's own (``mutmut.stats.status_by_exit_code``); the score counts timeouts
as killed, as mutmut does.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code  # mutmut's own exit code -> status table

from fred.command_line import OneLineParser
from fred.markdown_tables import markdown_table

#: Columns of the table, in mutmut's own words (any other status, e.g. "segfault", gets a column too).
COLUMNS = ("killed", "timeout", "survived", "no tests", "not checked")


def functions_of(source: str) -> dict[str, str]:
    tree = ast.parse(source)
    return {node.name: ast.get_source_segment(source, node) for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def mutant_diff(functions: dict[str, str], key: str) -> list[str]:
    name = key.rsplit(".", 1)[1]
    orig = re.sub(r"__mutmut_\d+$", "__mutmut_orig", name)
    before = functions[orig].replace(orig, "f").splitlines()
    after = functions[name].replace(name, "f").splitlines()
    return [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("---", "+++")]


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", default="mutants", help="mutmut's output directory")
    parser.add_argument("--table", action="store_true", help="print the score table only")
    args = parser.parse_args()
    root = Path(args.mutants)
    rows, survivors = [], []
    for meta in sorted(root.rglob("*.py.meta")):
        path = meta.relative_to(root).with_suffix("")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        counts = Counter(status_by_exit_code[c] for c in codes.values())
        rows.append((".".join(path.with_suffix("").parts), counts))
        functions = functions_of((root / path).read_text())
        survivors += [(key, mutant_diff(functions, key)) for key, c in codes.items()
                      if status_by_exit_code[c] == "survived"]
    total = sum((c for _, c in rows), Counter())
    columns = list(COLUMNS) + sorted(set(total) - set(COLUMNS))
    table = []
    for name, c in rows + [("**total**", total)]:
        tested = c["killed"] + c["timeout"] + c["survived"]
        score = f"{100 * (c['killed'] + c['timeout']) / tested:.1f}%" if tested else "-"
        table.append([name, sum(c.values()), *(c[k] for k in columns), score])
    print(markdown_table(["module", "mutants", *columns, "score"], table))
    if not args.table:
        for key, diff in survivors:
            print(f"\n== {key}")
            print("\n".join(diff))


if __name__ == "__main__":
    main()
