"""Dataset loading of the experiments (fred.evaluation.datasets) on the tiny synthetic data directory of
tests/evaluation/conftest.py: the yelp parser and its labels; and where the data directory is looked up."""

import pytest

from fred.evaluation import datasets
from fred.evaluation.datasets import load_dataset

# shap's import emits matplotlib deprecation notices unrelated to this code.
pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")


def test_yelp_parser_keeps_quoted_separators_and_newlines(data_dir):
    """A line-based or naive '|' split would cut the first text in two; catches that and lost labels."""
    data = load_dataset("yelp", data_dir)
    assert data.texts == ("he said great loved it second line", "cold food rude staff"), data.texts
    assert data.labels.tolist() == [1, 0] and data.n_dropped == 1


def test_non_binary_label_refused(tmp_path):
    """Catches a 1-5 star file silently mapped to binary labels: it must be refused."""
    (tmp_path / "yelp.csv").write_text("text|stars\nnice|5\n")
    with pytest.raises(ValueError, match="stars"):
        load_dataset("yelp", tmp_path)


def test_data_dir_outside_a_checkout_needs_a_path_or_the_variable(tmp_path, monkeypatch):
    """Catches the ``../shared/data`` fallback applying to an installed package (it would point into
    site-packages' parent) and an error that does not say how to point at the data."""
    monkeypatch.delenv(datasets.DATA_ENV, raising=False)
    monkeypatch.setattr(datasets, "_CHECKOUT", tmp_path / "site-packages")
    with pytest.raises(FileNotFoundError) as info:
        datasets.data_dir()
    assert "pass path=" in str(info.value) and datasets.DATA_ENV in str(info.value)
    assert not datasets.dataset_available("restaurants")
    assert datasets.data_dir(tmp_path) == tmp_path
    monkeypatch.setenv(datasets.DATA_ENV, str(tmp_path / "env"))
    assert datasets.data_dir() == tmp_path / "env"


def test_data_dir_in_a_checkout_falls_back_to_shared_data(tmp_path, monkeypatch):
    """Catches the checkout fallback computed from the wrong folder (the package moved one level down once)."""
    monkeypatch.delenv(datasets.DATA_ENV, raising=False)
    checkout = datasets._CHECKOUT  # the real one, before it is replaced below
    assert checkout != datasets.Path(datasets.__file__).resolve().parent  # fred/evaluation is not it
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "pyproject.toml").write_text("")
    monkeypatch.setattr(datasets, "_CHECKOUT", tmp_path / "repo")
    assert datasets.data_dir() == tmp_path / "shared" / "data"


def test_checkout_root_is_the_folder_holding_pyproject():
    """Catches ``_CHECKOUT`` pointing at ``fred/`` or ``fred/evaluation/`` instead of the repository root."""
    assert (datasets._CHECKOUT / "pyproject.toml").is_file()
    assert (datasets._CHECKOUT / "fred" / "evaluation" / "datasets.py").is_file()


def test_missing_file_names_both_ways_to_point_at_the_data(tmp_path):
    """Catches a bare FileNotFoundError from open() instead of one naming path= and FRED_DATA_DIR."""
    with pytest.raises(FileNotFoundError) as info:
        datasets.load_dataset("yelp", tmp_path)
    assert str(info.value) == f"{tmp_path / 'yelp.csv'} not found; pass path= or set FRED_DATA_DIR to the data directory"


def test_unknown_dataset_is_refused_by_name():
    """Catches an unknown dataset name reaching the file system."""
    with pytest.raises(ValueError, match="name must be one of"):
        datasets.dataset_file("imdb")
