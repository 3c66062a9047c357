"""The per-document CSV store (fred.evaluation.store): what a resumed run keeps of a file cut short."""

from __future__ import annotations

import math

from fred.evaluation import store

EXPLAINERS = ("fred", "lime", "shap")


def _row(doc: int, explainer: str) -> dict:
    """A row of every column, its numbers long enough that a cut inside one still parses (1/3, 1/7...), and on the
    last documents an explanation holding a comma and quotes, which the writer quotes."""
    j = EXPLAINERS.index(explainer)
    words = ["good,", '"great"', "food"][: 1 + (doc + j) % 3]
    return {"doc": doc, "test_index": 10 * doc + 3, "explainer": explainer, "score": 1 / (doc + 3),
            "n_tokens": 7 + doc, "k": len(words), "explanation": " ".join(words),
            "ids": " ".join(map(str, range(len(words)))), "n_positive": 2 + j, "sufficiency": -1 / (7 + j),
            "sufficiency_alone": 1 / (9 + doc), "comprehensiveness": 2 / (11 + j),
            "robustness": math.nan if j == 2 else 1 / (3 + j), "aucmorf": math.nan if doc == 1 else 5 / (13 + doc),
            "aucmorf_authors": 6 / (17 + j), "time": 0.001 / (doc + 1) + j, "proportion": len(words) / (7 + doc)}


def _comparable(rows):
    return [{c: "nan" if isinstance(v, float) and math.isnan(v) else v for c, v in r.items()} for r in rows]


def test_a_store_cut_anywhere_in_its_last_document_keeps_exactly_the_whole_documents(tmp_path):
    """Four documents appended as a run appends them, then the file cut at every byte offset from the start of the
    last document's rows to its end: the documents a resumed run keeps (store.read_documents, then the rewrite) are
    exactly those whose every row's line, newline included, lies before the cut (located here in the bytes of the
    file, not parsed), with the values written; the run computes every other one again. Catches a line cut inside
    its last number (0.1333 cut to 0.13) read as a whole row, which made the cut document count as complete with a
    wrong value, never recomputed (the store before issue 27); a document missing an explainer's row kept; or a
    whole document lost."""
    path = tmp_path / "run.csv"
    rows = {doc: [_row(doc, e) for e in EXPLAINERS] for doc in range(4)}
    store.write_rows(path, [])
    with open(path, "a", newline="", encoding="utf-8") as handle:
        for doc in rows:
            store.append_rows(handle, rows[doc])
    content = path.read_bytes()
    # Where each row's line ends, newline included: the header is the first line, then the rows in order.
    ends = [i + 2 for i in range(len(content) - 1) if content[i:i + 2] == b"\r\n"]
    assert len(ends) == 1 + 4 * len(EXPLAINERS) and ends[-1] == len(content)
    row_ends = dict(zip([(doc, e) for doc in rows for e in EXPLAINERS], ends[1:]))
    last_start = ends[len(ends) - len(EXPLAINERS) - 1]
    kept_counts = set()
    for cut in range(last_start, len(content) + 1):
        path.write_bytes(content[:cut])
        expected = [doc for doc in rows if all(row_ends[doc, e] <= cut for e in EXPLAINERS)]
        kept = store.read_documents(path, EXPLAINERS)
        assert _comparable(kept) == _comparable([r for doc in expected for r in rows[doc]]), cut
        pending = [doc for doc in rows if doc not in {r["doc"] for r in kept}]
        assert pending == [doc for doc in rows if doc not in expected], cut
        store.write_rows(path, kept)  # what the run does before appending the documents it computes again
        assert _comparable(store.read_documents(path, EXPLAINERS)) == _comparable(kept), cut
        kept_counts.add(len(expected))
    assert kept_counts == {3, 4}  # the cuts both lose the last document and, at the end, keep it
