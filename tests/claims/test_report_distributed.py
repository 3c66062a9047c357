"""The claim report distributed on a dask cluster (``python -m proofs_checks --workers N``): same verdicts."""

from __future__ import annotations

import pytest

from proofs_checks import run_claims

pytest.importorskip("distributed")

#: A quick claim of each shape: symbolic and exhaustive (lemma2), exact FRED runs (prop2-specular, tfidf-oov),
#: a statistical step with its own seed (lemma1), one that reads committed results (experiment-shap-efficiency).
IDS = ["lemma1", "lemma2", "prop2-specular", "tfidf-oov", "experiment-shap-efficiency"]


@pytest.mark.slow
def test_two_worker_processes_give_the_serial_report():
    """Catches a distributed report whose claims run with other seeds, in another order, or lose a step: every
    claim's JSON (verdicts, steps, values, counterexample) equals the serial run's; the cluster is recorded."""
    serial = run_claims(IDS)
    distributed = run_claims(IDS, workers=2)
    assert [c.to_dict() for c in distributed.claims] == [c.to_dict() for c in serial.claims]
    assert distributed.environment["cluster"]["workers"] == 2
    assert "cluster" not in serial.environment


def test_bad_worker_count_is_refused():
    """Catches a negative or non-integer worker count reaching dask."""
    with pytest.raises(ValueError, match="workers must be an integer >= 0"):
        run_claims(["lemma2"], workers=-1)
