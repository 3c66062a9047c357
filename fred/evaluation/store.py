"""The per-document CSV of an evaluation run: appended to as documents complete, read back when a run resumes.

One row per document and explainer (:data:`ROW_COLUMNS`). A document's rows are appended in one write, flushed to
disk before the next document (:func:`append_rows`), so an interrupted run leaves whole documents followed by at
most one document's rows cut short, its last line possibly cut in the middle. :func:`read_documents` keeps the
documents with one whole row per explainer; the run computes the others again and rewrites the file with what it
keeps (:func:`write_rows`, never half a file).

A line is whole when it ends with its newline, which the writer puts at the end of every line: a line cut before
it may still parse, a number in its last column shortened (``0.125`` cut to ``0.12``), so it is never read.
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path
from typing import Sequence

#: Columns of the per-document CSV, in order, with their types.
ROW_COLUMNS = {"doc": int, "test_index": int, "explainer": str, "score": float, "n_tokens": int, "k": int,
               "explanation": str, "ids": str, "n_positive": int, "sufficiency": float, "sufficiency_alone": float,
               "comprehensiveness": float, "robustness": float, "aucmorf": float, "aucmorf_authors": float,
               "time": float, "proportion": float}


def _parse(row: dict) -> dict:
    return {c: t(row[c]) if t is not float or row[c] not in ("", "nan") else math.nan
            for c, t in ROW_COLUMNS.items()}


def read_rows(path: Path) -> list[dict]:
    """The whole, typed rows of a per-document CSV, in file order; a line without its newline (a write cut short)
    or that does not parse is left out (module docstring). An absent file has no rows."""
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        text = handle.read()
    rows = []
    for raw in csv.DictReader(io.StringIO(text[: text.rfind("\n") + 1], newline="")):
        if any(raw.get(c) is None for c in ROW_COLUMNS):
            continue
        try:
            rows.append(_parse(raw))
        except ValueError:
            continue
    return rows


def complete_documents(rows: Sequence[dict], explainers: Sequence[str]) -> list[dict]:
    """The rows of the documents that have exactly one row per explainer (the first of each document and explainer
    kept), by document then in the order of ``explainers``."""
    by_doc: dict[int, dict[str, dict]] = {}
    for r in rows:
        by_doc.setdefault(r["doc"], {}).setdefault(r["explainer"], r)
    return [by_doc[d][e] for d in sorted(by_doc) if set(by_doc[d]) == set(explainers) for e in explainers]


def read_documents(path: Path, explainers: Sequence[str]) -> list[dict]:
    """The rows of the documents ``path`` holds whole, one whole row per explainer (:func:`read_rows`,
    :func:`complete_documents`): what a resumed run keeps; it computes every other document again."""
    return complete_documents(read_rows(path), explainers)


def write_rows(path: Path, rows: Sequence[dict]) -> None:
    """Replace ``path`` by a CSV of ``rows`` (written beside it, then renamed: never half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(ROW_COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def append_rows(handle, rows: Sequence[dict]) -> None:
    """One document's rows in one write, flushed to disk before the next document."""
    buffer = io.StringIO()
    csv.DictWriter(buffer, fieldnames=list(ROW_COLUMNS)).writerows(rows)
    handle.write(buffer.getvalue())
    handle.flush()
    os.fsync(handle.fileno())
