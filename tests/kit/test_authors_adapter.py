"""The adapter for the released explain_instance signature and the protocol server (proofs_checks/subject/_authors_driver.py)
that runs a checkout of it, tested on stand-ins (no checkout of the authors' code needed;
tests/kit/test_authors_code.py runs the real one)."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_checks import AUTHORS_TAGS, AuthorsExplainerAdapter, authors_factory, get_tags, released_fred
from proofs_checks.subject.authors import CHECKOUT_ENV, cleaned_positions


class Recorder:
    """Records the arguments of explain_instance; answers with positions of its cleaned text."""

    def __init__(self, classifier_fn=None):
        self.calls = []

    def explain_instance(self, example, **kwargs):
        self.calls.append((example, kwargs))
        return type("E", (), {"best_ids": [1, 0], "token_drops_ids": {0: 0.25, 1: -0.5}})()


def _kept(token: str) -> bool:
    """Independent reading of the released cleaning: a token survives if it has an ASCII letter, a decimal digit."""
    return any((c.isascii() and c.isalpha()) or c.isdecimal() for c in token)


@given(st.lists(st.text(alphabet="aZ9é!-,' \u0663", min_size=1, max_size=4), max_size=6).map(" ".join))
def test_cleaned_positions_keep_the_tokens_the_released_cleaning_keeps(text):
    """Catches a mapping that forgets a token emptied by the cleaning (all later positions would be shifted)."""
    assert cleaned_positions(text) == [i for i, token in enumerate(text.split()) if _kept(token)]


def test_adapter_passes_arguments_through_and_maps_positions():
    """p and n_samples reach explain_instance as perturb_proba and n_sample (n_samples=None leaves its default);
    positions of the cleaned text map back to text.split(), in the wrapped explainer's order; token_drops_ids
    become importances, NaN for the token the cleaning removed."""
    recorder = Recorder()
    adapter = AuthorsExplainerAdapter(recorder)
    exp = adapter.explain("Good , food", label=1, p=0.2, eps=0.3, max_len=2, n_samples=77)
    assert recorder.calls[-1] == ("Good , food", {"perturb_proba": 0.2, "eps": 0.3, "max_len": 2, "label": 1,
                                                  "n_sample": 77})
    assert exp.best_ids == (2, 0) and exp.found is None
    assert exp.importances[0] == 0.25 and math.isnan(exp.importances[1]) and exp.importances[2] == -0.5
    adapter.explain("a b")
    assert "n_sample" not in recorder.calls[-1][1]


def test_adapter_never_validates_on_the_wrapped_explainers_behalf():
    """The kit tests the explainer, not the adapter: p = 0 and a non-str text reach the wrapped explainer."""
    recorder = Recorder()
    adapter = AuthorsExplainerAdapter(recorder)
    adapter.explain("a b", p=0.0)
    assert recorder.calls[-1][1]["perturb_proba"] == 0.0
    exp = adapter.explain(None, p=1.5)
    assert recorder.calls[-1][0] is None and exp.best_ids == (1, 0) and exp.importances is None
    with pytest.raises(TypeError, match="explain_instance"):
        AuthorsExplainerAdapter(object())


def test_in_process_factory_has_the_authors_tags_and_no_exact_mode():
    """authors_factory(class) declares the released code's capabilities and refuses exact=True."""
    factory = authors_factory(Recorder)
    assert get_tags(factory) == AUTHORS_TAGS and get_tags(released_fred) == AUTHORS_TAGS
    assert isinstance(factory(lambda texts: None).explainer, Recorder)
    with pytest.raises(NotImplementedError):
        factory(lambda texts: None, exact=True)


FAKE_EXPLAINER = textwrap.dedent('''
    """A stand-in for the released fred/explainer.py, with its import-time dependencies."""
    import types

    import spacy
    from IPython.core.display import display, HTML
    from textblob import TextBlob

    nlp = spacy.load("en_core_web_lg")


    class MyTypeError(TypeError):
        pass


    class Fred:
        def __init__(self, classifier_fn, class_names=None, mask="UNK", pos=False, pos_dataset=None):
            self.classifier_fn = classifier_fn

        def explain_instance(self, example, perturb_proba=0.5, eps=0.15, max_len=10, beam_size=4, n_sample=5000,
                             label=None, verbose=False):
            print("the released code prints on stdout")
            if example == "raise":
                raise MyTypeError("refused")
            cleaned = " ".join(example.lower().split())
            scores = self.classifier_fn([cleaned, cleaned])
            return types.SimpleNamespace(best_ids=[1, 0], example=cleaned,
                                         token_drops_ids={0: perturb_proba, 1: float(scores[0][1]), 2: n_sample})
''')


@pytest.fixture
def fake_checkout(tmp_path):
    (tmp_path / "fred").mkdir()
    (tmp_path / "fred" / "__init__.py").write_text("")
    (tmp_path / "fred" / "explainer.py").write_text(FAKE_EXPLAINER)
    return tmp_path


def test_subprocess_runs_the_checkouts_fred_over_the_protocol(fake_checkout):
    """The driver imports fred from the checkout (not this project's), with spacy and textblob stubbed and
    IPython's display restored; prints on stdout do not break the protocol; classifier calls come back to this
    process; p and n_samples go through; positions and importances are mapped as in process; the factory declares
    the released code's tags."""
    seen = []

    def classifier_fn(texts):
        seen.append(list(texts))
        return np.array([[0.1, 0.9]] * len(texts))

    factory = authors_factory(checkout=fake_checkout)
    exp = factory(classifier_fn).explain("A , B c", p=0.3, n_samples=12)
    assert factory.hello["module"] == str(fake_checkout / "fred" / "explainer.py")
    assert get_tags(factory) == AUTHORS_TAGS and factory.__name__ == "authors_released_fred"
    assert seen == [["a , b c", "a , b c"]]
    assert exp.best_ids == (2, 0) and exp.importances[0] == 0.3 and math.isnan(exp.importances[1])
    assert exp.importances[2] == 0.9 and exp.importances[3] == 12
    with pytest.raises(NotImplementedError, match="no exact mode"):
        factory(classifier_fn, exact=True)
    factory.close()


def test_subprocess_errors_come_back_as_exceptions(fake_checkout):
    """An exception of the released code arrives as its builtin base class (a TypeError subclass as TypeError,
    which the validation checks count as a refusal); an exception of the kit's classifier is re-raised as
    itself once the released code has unwound (the protocol's abort); the process survives both."""
    factory = authors_factory(checkout=fake_checkout)
    ok = factory(lambda texts: np.ones((len(texts), 2)))
    with pytest.raises(TypeError, match="MyTypeError: refused"):
        ok.explain("raise")

    def broken(texts):
        raise KeyError("model down")

    with pytest.raises(KeyError, match="model down"):
        factory(broken).explain("a b")
    assert ok.explain("a b").best_ids == (1, 0)
    factory.close()


def test_missing_checkout_is_refused_with_the_variable_to_set(tmp_path, monkeypatch):
    """Without a checkout (argument or environment variable) the factory says what to set."""
    monkeypatch.delenv(CHECKOUT_ENV, raising=False)
    with pytest.raises(FileNotFoundError, match=CHECKOUT_ENV):
        authors_factory()
    with pytest.raises(FileNotFoundError, match="fred/explainer.py"):
        authors_factory(checkout=tmp_path)


def test_released_fred_reads_the_checkout_from_the_environment(fake_checkout, monkeypatch):
    """The command-line factory uses $FRED_AUTHORS_CHECKOUT."""
    monkeypatch.setenv(CHECKOUT_ENV, str(fake_checkout))
    exp = released_fred(lambda texts: np.ones((len(texts), 2)), exact=False).explain("x y")
    assert exp.best_ids == (1, 0)
