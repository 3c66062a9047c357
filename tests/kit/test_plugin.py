"""The pytest plugin (proofs_checks/pytest_plugin.py, issue 28 item 2), run by pytester on cheap factories and a
few checks (``-k``): its items are the kit's outcomes as ``check_explainer`` gives them, its claim items follow the
comparison's rule, it adds nothing without its options, and pytest's own options work on its items."""

from __future__ import annotations

import importlib
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import fred_pytest
from proofs_checks import check_explainer
from proofs_checks.kit import CHECKS

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "docs" / "examples" / "explainer_server.py"

#: Written into pytester's folder: a wrong factory (it clamps p instead of refusing it; it declares no seeded
#: randomness), the same one declaring expected failures (one real, one that passes), and a factory that cannot
#: build anything.
FACTORIES = '''
from proofs_checks import explainer_tags, fred_factory


class ClampedP:
    def __init__(self, classifier_fn, exact=False, random_state=None):
        self.fred = fred_factory(classifier_fn, exact, random_state)

    def explain(self, text, label=None, p=0.5, eps=0.15, max_len=10, n_samples=None):
        p = min(max(p, 0.01), 0.99) if isinstance(p, float) else p
        return self.fred.explain(text, label=label, p=p, eps=eps, max_len=max_len, n_samples=n_samples)


@explainer_tags(seeded=False)
def clamped_p(classifier_fn, exact=False, random_state=None):
    return ClampedP(classifier_fn, exact, random_state)


@explainer_tags(expected_failures={"check_invalid_p_is_refused": "clamps p on purpose",
                                   "check_invalid_eps_is_refused": "a wrong declaration: eps is refused"})
def clamped_p_declared(classifier_fn, exact=False, random_state=None):
    return ClampedP(classifier_fn, exact, random_state)


def broken(classifier_fn, exact=False, random_state=None):
    raise RuntimeError("this factory builds nothing")


not_callable = 3
'''

#: Fast checks that, over the factories above, give every status of the kit.
CHOSEN = ("check_declared_outputs_are_present", "check_invalid_p_is_refused", "check_invalid_eps_is_refused",
          "check_default_label_is_the_predicted_class", "check_same_seed_same_explanation")
#: What pytest reports for each kit status (an xfail is a skip carrying ``wasxfail``).
PYTEST_OUTCOME = {"passed": "passed", "failed": "failed", "error": "failed", "xpassed": "failed",
                  "skipped": "skipped", "xfailed": "xfailed"}


@pytest.fixture
def factories(pytester):
    """pytester's folder holding ``plugin_factories.py``, importable by the runs and by the test itself."""
    pytester.makepyfile(plugin_factories=FACTORIES)
    pytester.syspathinsert()
    return pytester


def _outcomes(recorder) -> dict[str, tuple[str, str]]:
    """Node id -> (pytest's outcome, the item's fred_status) from the reports of an inline run."""
    out = {}
    for report in recorder.getreports("pytest_runtest_logreport"):
        if report.when == "call" or (report.when == "setup" and not report.passed):
            outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
            out[report.nodeid] = (outcome, dict(report.user_properties).get("fred_status"))
    return out


def _reasons(recorder) -> dict[str, str]:
    """Node id -> the reason pytest shows for a skip or an xfail."""
    return {r.nodeid: r.wasxfail if hasattr(r, "wasxfail") else r.longrepr[2]
            for r in recorder.getreports("pytest_runtest_logreport") if r.skipped}


def test_the_entry_point_loads_the_plugin_and_without_options_it_adds_nothing(pytester):
    """Catches a missing pytest11 entry point, and a plugin that changes a run that does not ask for it (items added
    to a project's own collection, the item plugin registered anyway)."""
    pytester.makepyfile(test_one="def test_a():\n    pass\n")
    recorder = pytester.inline_run("--collect-only")
    session = recorder.getcall("pytest_collection_finish").session
    assert session.config.pluginmanager.get_plugin("fred") is fred_pytest
    assert session.config.pluginmanager.get_plugin("fred-kit") is None
    assert session.config.pluginmanager.get_plugin("fred-items") is None
    assert [item.nodeid for item in session.items] == ["test_one.py::test_a"]


def test_without_options_no_pytest_run_imports_the_project(pytester):
    """In a fresh interpreter, a pytest run without the plugin's options never imports ``proofs_checks`` (nor
    fred or hypothesis through it). Catches an entry point that imports the package face, which costs every pytest
    run of the environment seconds and breaks them all when any module of proofs_checks fails to import."""
    pytester.makepyfile(test_light="""
import sys

def test_nothing_of_the_project_was_imported():
    assert [m for m in ("proofs_checks", "fred", "analytic") if m in sys.modules] == []
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist", "-q")
    assert result.ret == pytest.ExitCode.OK, result.outlines[-15:]


def test_one_item_per_check_per_factory_with_the_issues_ids(factories):
    """Catches a check missing or collected twice, ids other than fred[<factory>]::<check>, a factory given twice
    collected twice, and pytest's count of collected items missing the plugin's (its items are collected as
    pytest's own are)."""
    specs = ["proofs_checks:fred_factory", "plugin_factories:clamped_p"]
    result = factories.runpytest("--collect-only", "-q", *(f"--fred-explainer={s}" for s in [*specs, specs[0]]))
    expected = [f"fred[{spec}]::{check.__name__}" for spec in specs for check in CHECKS]
    assert [line for line in result.outlines if line.startswith("fred[")] == expected
    result.stdout.fnmatch_lines([f"{len(expected)} tests collected*"])


@pytest.mark.parametrize("factory", ["proofs_checks:fred_factory", "plugin_factories:clamped_p",
                                     "plugin_factories:clamped_p_declared", "plugin_factories:broken"])
def test_each_item_has_check_explainers_outcome(factories, factory):
    """Catches an item whose outcome differs from check_explainer's for the same factory and seed: a failure or an
    error that passes, a not-applicable check that fails instead of skipping, a declared expected failure that is not
    an xfail, a declared failure that passes and is not reported as a strict xpass; a skip or an xfail without the
    kit's reason (what the tags lack, what the factory declared)."""
    recorder = factories.inline_run(f"--fred-explainer={factory}", "-p", "no:cacheprovider", "-k", " or ".join(CHOSEN))
    got = _outcomes(recorder)
    module, _, name = factory.partition(":")
    report = check_explainer(getattr(importlib.import_module(module), name), checks=CHOSEN)
    assert got == {f"fred[{factory}]::{o.name}": (PYTEST_OUTCOME[o.status], o.status) for o in report.outcomes}
    reasons = _reasons(recorder)
    for o in report.outcomes:
        if o.status in ("skipped", "xfailed"):
            assert (o.message if o.status == "skipped" else o.reason) in reasons[f"fred[{factory}]::{o.name}"]


def test_the_chosen_checks_reach_every_status(factories):
    """Catches the comparison above going vacuous (every factory passing every chosen check): over the factories,
    the chosen checks end in each of the kit's six statuses, at places known without the plugin (a clamped p is
    not refused; the check of seeded randomness needs the seeded tag clamped_p does not declare)."""
    module = importlib.import_module("plugin_factories")
    statuses = {name: check_explainer(getattr(module, name), checks=CHOSEN).status()
                for name in ("clamped_p", "clamped_p_declared", "broken")}
    assert statuses["clamped_p"]["check_invalid_p_is_refused"] == "failed"
    assert statuses["clamped_p"]["check_same_seed_same_explanation"] == "skipped"
    assert statuses["clamped_p_declared"]["check_invalid_p_is_refused"] == "xfailed"
    assert statuses["clamped_p_declared"]["check_invalid_eps_is_refused"] == "xpassed"
    assert statuses["clamped_p"]["check_declared_outputs_are_present"] == "passed"
    assert "error" in statuses["broken"].values()


def test_x_stops_at_the_first_failing_item(factories):
    """Catches items that ignore -x (maxfail): the second wrong check of a wrong factory must not run."""
    recorder = factories.inline_run("--fred-explainer=plugin_factories:broken", "-x", "-p", "no:cacheprovider",
                                    "-k", "invalid_p or invalid_eps")
    passed, skipped, failed = recorder.listoutcomes()
    assert (len(passed), len(skipped), len(failed)) == (0, 0, 1)


@pytest.mark.parametrize("value, says", [
    ("nocolon", "expected module:factory"),
    ("path/to/file.py:factory", "expected module:factory"),
    ("no_such_module_anywhere:factory", "cannot import module 'no_such_module_anywhere'"),
    ("plugin_factories:missing", "has no attribute 'missing'"),
    ("plugin_factories:not_callable", "is a int, not a callable factory"),
])
def test_a_bad_explainer_value_is_a_one_line_usage_error(factories, value, says):
    """Catches a bad --fred-explainer value giving a traceback, an internal error or pytest's exit status of failing
    tests, instead of one line and pytest's usage-error status."""
    result = factories.runpytest(f"--fred-explainer={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    lines = [line for line in result.errlines if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("ERROR: --fred-explainer") and says in lines[0], lines


def test_claims_without_an_explainer_is_a_usage_error(pytester):
    """Catches --fred-claims silently collecting nothing when no explainer is given."""
    result = pytester.runpytest("--fred-claims")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.errlines if line.strip()] == \
        ["ERROR: --fred-claims needs --fred-explainer MODULE:FACTORY or --fred-explainer-cmd COMMAND"]


def test_claim_items_follow_the_comparisons_rule(factories):
    """Catches a claim item that passes when the guarantee cannot be checked on the factory (here it raises), that
    fails when the guarantee is kept, that runs a claim not involving the explainer as a pass, and the legend of
    the comparison's words missing or repeated under each failing claim. The expectations
    are the report's: the reference keeps tfidf-oov's guarantee (argued); metric-aucmorf-proportion asks for no
    explainer."""
    result = factories.runpytest("--fred-explainer=proofs_checks:fred_factory",
                                 "--fred-explainer=plugin_factories:broken", "--fred-claims", "-p",
                                 "no:cacheprovider", "-k", "claim and (tfidf-oov or metric-aucmorf-proportion)")
    assert result.outlines.count("Legend (claims):") == 1  # once for the run, not under each failing claim
    assert _outcomes(result.reprec) == {
        "fred[proofs_checks:fred_factory]::claim[tfidf-oov]": ("passed", "kept"),
        "fred[proofs_checks:fred_factory]::claim[metric-aucmorf-proportion]": ("skipped", "not involved"),
        "fred[plugin_factories:broken]::claim[tfidf-oov]": ("failed", "not checked"),
        "fred[plugin_factories:broken]::claim[metric-aucmorf-proportion]": ("skipped", "not involved"),
    }


@pytest.mark.skipif(not SERVER.is_file(), reason="the example server docs/examples/explainer_server.py is absent")
def test_explainer_cmd_runs_the_checks_on_a_server(pytester):
    """Catches --fred-explainer-cmd not wired to the protocol's command factory, and a command that cannot start
    giving a traceback instead of a usage error."""
    command = shlex.join([sys.executable, str(SERVER)])
    recorder = pytester.inline_run(f"--fred-explainer-cmd={command}", "-p", "no:cacheprovider", "-k",
                                   "invalid_p or declared_outputs")
    assert _outcomes(recorder) == {f"fred-cmd[{command}]::{name}": ("passed", "passed") for name in
                                   ("check_declared_outputs_are_present", "check_invalid_p_is_refused")}
    result = pytester.runpytest("--fred-explainer-cmd=no_such_program_anywhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.errlines[0].startswith("ERROR: --fred-explainer-cmd 'no_such_program_anywhere': cannot start")


@pytest.mark.slow
def test_xdist_workers_collect_the_same_items_and_junitxml_records_them(pytester, tmp_path):
    """Catches a collection that differs between pytest-xdist's workers (xdist then refuses to run), and items
    that --junitxml records under other names or without the kit's status. A subprocess: xdist starts workers."""
    junit = tmp_path / "kit.xml"
    result = pytester.runpytest_subprocess("--fred-explainer=proofs_checks:fred_factory", "-n", "2", "-p",
                                           "no:cacheprovider", "-k", "invalid or declared_outputs",
                                           f"--junitxml={junit}")
    assert result.ret == pytest.ExitCode.OK, result.outlines[-20:]
    cases = ET.parse(junit).getroot().iter("testcase")
    recorded = sorted((c.get("classname"), c.get("name"), c.find("properties/property").get("value")) for c in cases)
    chosen = [c.__name__ for c in CHECKS if "invalid" in c.__name__ or "declared_outputs" in c.__name__]
    assert recorded == sorted(("fred[proofs_checks:fred_factory]", name, "passed") for name in chosen)
