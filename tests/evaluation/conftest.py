"""A tiny synthetic data directory for the evaluation tests (no shared data needed)."""

import csv

import numpy as np
import pytest

GOOD = ["great", "loved", "tasty", "friendly", "amazing"]
BAD = ["awful", "cold", "rude", "bland", "slow"]
FILLER = ["the", "food", "was", "and", "service", "place", "really"]

YELP_ROWS = [
    ('He said "great" | loved it\nsecond line!', "1"),
    ("Cold food, rude staff.", "0"),
    ("???", "1"),  # empty after preprocessing: dropped
]


def write_data(directory, n_reviews=40):
    """restaurants.tsv (``n_reviews`` synthetic reviews) and a yelp.csv whose texts hold |, quotes and newlines."""
    rng = np.random.default_rng(0)
    with open(directory / "restaurants.tsv", "w", newline="") as handle:
        handle.write("Review\tLiked\n")
        for i in range(n_reviews):
            label = i % 2
            words = list(rng.choice(GOOD if label else BAD, size=2)) + list(rng.choice(FILLER, size=3 + i % 4))
            rng.shuffle(words)
            handle.write(" ".join(words).capitalize() + ".\t" + str(label) + "\n")
    with open(directory / "yelp.csv", "w", newline="") as handle:
        writer = csv.writer(handle, delimiter="|", quotechar='"', quoting=csv.QUOTE_MINIMAL)
        writer.writerow(["text", "stars"])
        writer.writerows(YELP_ROWS)


@pytest.fixture()
def data_dir(tmp_path):
    write_data(tmp_path)
    return tmp_path


@pytest.fixture()
def larger_data_dir(tmp_path):
    """200 synthetic reviews: about 25 positively classified test documents for the runner's tests."""
    directory = tmp_path / "data"
    directory.mkdir()
    write_data(directory, n_reviews=200)
    return directory
