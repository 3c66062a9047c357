"""The experiments' scikit-learn pipelines, built in one place."""

from __future__ import annotations

import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from fred.evaluation.models import MODELS, make_model


@pytest.mark.parametrize("name, kind", [("logistic", LogisticRegression), ("tree", DecisionTreeClassifier),
                                        ("forest", RandomForestClassifier)])
def test_make_model_is_default_tfidf_then_the_named_classifier(name, kind):
    """Catches a pipeline that is not scikit-learn's default TfidfVectorizer() then the named classifier with
    its defaults (the paper's models), or a seed not reaching trees and forests."""
    pipe = make_model(name, seed=7)
    assert [type(step) for _, step in pipe.steps] == [TfidfVectorizer, kind]
    assert pipe[0].get_params() == TfidfVectorizer().get_params()
    params = pipe[-1].get_params()
    want = kind().get_params()
    if name in ("tree", "forest"):  # logistic regression keeps its default (lbfgs ignores it)
        want["random_state"] = 7
    assert params == want
    assert name in MODELS


def test_make_model_refuses_unknown_names():
    """Catches an unknown model name turning into a KeyError deep inside a dict."""
    with pytest.raises(ValueError, match=r"name must be one of \('logistic', 'tree', 'forest', 'minilm'\), got 'svm'"):
        make_model("svm")
