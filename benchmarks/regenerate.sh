#!/bin/sh
# Regenerate benchmarks/RESULTS.md in one run on one machine:
#   bench_compare.py (rewrites the file), then bench_explain.py and bench_speed.py (append).
#
# Usage (from anywhere, with the project's environment active and $FRED_DATA_DIR set):
#
#   FRED_AUTHORS_CHECKOUT=/path/to/authors/checkout sh benchmarks/regenerate.sh ["note on the conditions"]
#
# Environment:
#   FRED_AUTHORS_CHECKOUT  the authors' released code (their columns stay empty when unset or absent)
#   BEFORE                 commit whose fred/ is the "before" of bench_speed.py (default 32b52be, the last
#                          commit before issue 17); extracted with `git archive` into a temporary directory
#   REPEATS                timed runs per cell (default 5)
#   PYTHON                 interpreter (default python)
set -eu
cd "$(dirname "$0")/.."
BEFORE=${BEFORE:-32b52be}
REPEATS=${REPEATS:-5}
PYTHON=${PYTHON:-python}
NOTE=${1:-}
before_dir=$(mktemp -d)
trap 'rm -rf "$before_dir"' EXIT
git archive "$BEFORE" fred | tar -x -C "$before_dir"
"$PYTHON" benchmarks/bench_compare.py --repeats "$REPEATS" --out benchmarks/RESULTS.md --note "$NOTE"
"$PYTHON" benchmarks/bench_explain.py --repeats "$REPEATS" --append benchmarks/RESULTS.md
"$PYTHON" benchmarks/bench_speed.py --repeats "$REPEATS" --before "$before_dir" --before-label "commit $BEFORE" \
    --append benchmarks/RESULTS.md --note "$NOTE"
"$PYTHON" benchmarks/bench_dask.py --append benchmarks/RESULTS.md --note "$NOTE"
