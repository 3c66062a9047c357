"""The replay of generated examples (proofs_checks/kit/checks/harness.py, ``for_all``): a property run again with
the same strategy, seed and settings first gets the examples of its last passing run, and the result must be what
hypothesis alone gives. Each test compares with a run after ``forget_replays()``, which is hypothesis alone."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from proofs_checks import fred_factory
from proofs_checks.kit import run_check
from proofs_checks.kit.checks import (
    check_bag_of_words_permutation_equivariance,
    check_importances_on_random_black_boxes,
    check_prop2_shortcut_corrected,
    check_selection_solves_eq2,
    harness,
)
from proofs_checks.kit.planted import CATALOGUE
from proofs_checks.statistics.seeds import SEED_ENV

ENTRIES = {entry.name: entry for entry in CATALOGUE}
#: Checks that generate their inputs: two kinds of boxes, a mapped and a flat-mapped strategy.
GENERATING = (check_importances_on_random_black_boxes, check_selection_solves_eq2, check_prop2_shortcut_corrected,
              check_bag_of_words_permutation_equivariance)


@pytest.fixture(autouse=True)
def no_records():
    """Every test starts and ends without recorded examples (other tests' runs must not decide these)."""
    harness.forget_replays()
    yield
    harness.forget_replays()


def _cold(check, factory):
    harness.forget_replays()
    return run_check(check, factory).to_dict()


@pytest.mark.parametrize("entry, checks", [("toy_fred", GENERATING), ("one_minus_p", GENERATING[1:2])],
                         ids=["toy_fred", "one_minus_p"])
def test_replayed_outcomes_are_hypothesis_own(entry, checks):
    """After the reference recorded its examples, a correct variant (every replayed example passes) and a wrong one
    (a replayed example fails, hypothesis runs and shrinks) get the outcome, message and detail of a run without
    records. Catches a record served to another strategy or seed, a replay that hides a failure or reports its own
    unshrunk one, and a body handed an example an earlier explainer changed."""
    factory = ENTRIES[entry].factory
    for check in checks:
        cold = _cold(check, factory)
        harness.forget_replays()
        assert run_check(check, fred_factory).status == "passed"
        assert run_check(check, factory).to_dict() == cold, check.__name__
    assert entry != "one_minus_p" or cold["status"] == "failed"  # the replay's failure path was taken


def _draws(strategy, *, shrink=True, seed=5, fail=lambda x: False):
    """The examples ``for_all`` gives its body, in order (as they were given: the body then appends to each list),
    raising what the body raised."""
    seen = []

    def body(example, delta):
        seen.append(list(example) if isinstance(example, list) else example)
        if isinstance(example, list):
            example.append("changed by the body")
        if fail(example):  # raised, not asserted: the message must not show the lambda's address
            raise AssertionError(f"failed on {example}")

    harness.for_all(strategy, body, shrink=shrink, seed=seed)
    return seen


@pytest.mark.parametrize("shrink", [True, False], ids=["under hypothesis", "drawn first"])
def test_a_replay_gives_the_body_copies_of_the_examples_hypothesis_gave(shrink):
    """Runs after the first get its examples, in order, untouched by the earlier bodies (which append to them); at
    another seed, or from another strategy, they are that run's own. Catches a replay in another order, a mutable
    example shared between runs, and a record keyed without the seed or the strategy."""
    strategy = st.lists(st.integers(0, 50), min_size=1, max_size=4)
    first = _draws(strategy, shrink=shrink)
    assert _draws(strategy, shrink=shrink) == _draws(strategy, shrink=shrink) == first
    other_seed = _draws(strategy, shrink=shrink, seed=6)
    other_strategy = _draws(st.lists(st.integers(100, 150), min_size=1, max_size=4), shrink=shrink)
    harness.forget_replays()
    assert other_seed == _draws(strategy, shrink=shrink, seed=6) != first
    assert min(min(example) for example in other_strategy) >= 100


def test_the_seed_from_the_environment_keys_the_record(monkeypatch):
    """FRED_STATISTICAL_SEED changes hypothesis' seed, so it must change the record too. Catches a key holding the
    check's default seed instead of the seed hypothesis runs with."""
    strategy = st.lists(st.integers(0, 50), min_size=1, max_size=4)
    default = _draws(strategy)
    monkeypatch.setenv(SEED_ENV, "12345")
    replayed = _draws(strategy)
    harness.forget_replays()
    assert replayed == _draws(strategy) != default


def test_a_failure_on_replay_is_the_one_hypothesis_finds(monkeypatch):
    """A body failing on a recorded example raises what it raises without records: hypothesis' shrunk example.
    Catches the replay's unshrunk failure reported instead."""
    monkeypatch.setattr(harness, "SHRINK_FAILURES", True)
    strategy = st.integers(0, 1000)
    recorded = _draws(strategy)
    bad = max(recorded) - 1
    while bad in recorded:  # no recorded example is the shrunk one: the replay alone would report another
        bad -= 1
    with pytest.raises(AssertionError) as replayed:
        _draws(strategy, fail=lambda x: x >= bad)
    harness.forget_replays()
    with pytest.raises(AssertionError) as alone:
        _draws(strategy, fail=lambda x: x >= bad)
    assert str(replayed.value) == str(alone.value) == f"failed on {bad}"  # shrunk to the smallest failing value


def test_a_failure_seen_only_on_replay_is_reported():
    """A body that fails once and then passes (it depends on earlier calls) fails the property, although hypothesis
    run afterwards passes. Catches a replayed failure discarded because hypothesis did not reproduce it."""
    strategy = st.integers(0, 1000)
    _draws(strategy)
    calls = []

    def flaky(example, delta):
        calls.append(example)
        assert len(calls) > 1, "failed on the first call"

    with pytest.raises(AssertionError, match="failed on the first call"):
        harness.for_all(strategy, flaky, shrink=True, seed=5)
    assert len(calls) > 1  # hypothesis ran after the replay failed, and passed


class _Drawer:
    """Counts the draws of ``st.builds(self)``; its repr shows an address, so it does not say what it draws."""

    def __init__(self):
        self.calls = 0

    def __call__(self):
        self.calls += 1
        return self.calls


def _counted(name):
    """A named function counting its draws (its repr names it)."""
    def draw():
        draw.calls += 1
        return draw.calls
    draw.calls, draw.__name__, draw.__qualname__ = 0, name, name
    return draw


def test_only_strategies_their_repr_identifies_are_replayed(monkeypatch):
    """A strategy shown by an object's address is generated again each run; a named one is replayed, until
    REPLAYED_RUNS later runs pushed it out. Catches two strategies with the same address-free repr confused, and an
    unbounded record."""
    anonymous = _Drawer()
    _draws(st.builds(anonymous))
    calls = anonymous.calls
    _draws(st.builds(anonymous))
    assert anonymous.calls == 2 * calls
    named = _counted("drawn_by_name")
    _draws(st.builds(named))
    calls = named.calls
    _draws(st.builds(named))
    assert named.calls == calls  # replayed: no draw
    monkeypatch.setattr(harness, "REPLAYED_RUNS", 2)
    _draws(st.builds(named), seed=7)
    _draws(st.builds(named), seed=8)
    _draws(st.builds(named))
    assert named.calls > calls + 2  # the seed-5 record was dropped: drawn again


def test_a_replayed_example_runs_in_hypothesis_context():
    """Each replayed example sees what it saw when hypothesis generated it: the global random generators seeded for
    the test case and a test context (``note``, ``event``). Catches a replay calling the body directly, where an
    explainer drawing from ``random`` or ``numpy.random`` gets other numbers (a failure hidden or invented), and
    ``note`` raises."""
    import random

    import numpy as np
    from hypothesis import note

    def draws():
        seen = []

        def body(example, delta):
            note(f"example {example}")
            seen.append((example, random.random(), float(np.random.random())))

        harness.for_all(st.integers(0, 1000), body, shrink=True, seed=5)
        return seen

    first = draws()
    random.seed(12345)  # the process' own state differs between the runs; hypothesis seeds each test case
    np.random.seed(12345)
    assert draws() == first


class _Uncopyable:
    """Shown by a plain repr (so a strategy drawing it has a replay key), refused by deep copy like a lock."""

    def __repr__(self) -> str:
        return "_Uncopyable()"

    def __deepcopy__(self, memo):
        raise TypeError("cannot copy an _Uncopyable")


def test_an_example_that_cannot_be_copied_is_run_not_recorded():
    """A property over examples deep copy refuses runs under hypothesis every time, as before records existed.
    Catches the record raising TypeError where hypothesis alone passes."""
    for shrink in (True, False):
        for _ in range(2):
            assert _draws(st.tuples(st.integers(0, 9), st.just(_Uncopyable())), shrink=shrink)


class _Tally:
    """A mutable object with a plain repr, handed to every example of a run by ``st.just``."""

    def __init__(self):
        self.count = 0

    def __repr__(self) -> str:
        return "_Tally()"


@pytest.mark.parametrize("shrink", [True, False], ids=["under hypothesis", "drawn first"])
def test_an_object_the_examples_share_stays_shared_on_replay(shrink):
    """Within a run, hypothesis hands every example the same ``st.just`` object; a replay must too (one copy for
    all). Catches examples copied one by one, where a body counting on the shared object sees other counts and the
    identity between examples is lost."""

    def run():
        seen, first = [], []

        def body(example, delta):
            value, tally = example
            first.append(tally)
            tally.count += 1
            seen.append((value, tally.count, tally is first[0]))

        harness.for_all(st.tuples(st.integers(0, 3), st.just(_Tally())), body, shrink=shrink, seed=5)
        return seen

    cold = run()
    assert run() == cold and all(same for _, _, same in cold)


@pytest.mark.parametrize("error", [AssertionError, SystemExit], ids=["AssertionError", "SystemExit"])
def test_a_failure_hypothesis_shrinks_is_shrunk_after_a_replay(error, monkeypatch):
    """Hypothesis shrinks SystemExit (and pytest.fail's Failed) like an assertion; after a failed replay it must get
    to, so the reported example is its shrunk one. Catches a replay catching only Exception and letting the first
    recorded failing example through unshrunk."""
    monkeypatch.setattr(harness, "SHRINK_FAILURES", True)
    strategy = st.integers(0, 1000)
    recorded = _draws(strategy)
    bad = max(recorded) - 1
    while bad in recorded:
        bad -= 1

    def fails(example, delta):
        if example >= bad:
            raise error(f"failed on {example}")

    outcomes = []
    for forget in (False, True):
        if forget:
            harness.forget_replays()
        with pytest.raises(error) as raised:
            harness.for_all(strategy, fails, shrink=True, seed=5)
        outcomes.append(str(raised.value))
    assert outcomes == [f"failed on {bad}"] * 2
