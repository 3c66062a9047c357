"""The documentation site's generators (docs/_ext/fred_docs): every public name documented, the claim pages from
the report's results, references that link. The site itself is built with -W by .ci/run (over a minute: the
notebooks are executed), not here."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx", reason="the site needs the docs extra")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from fred_docs import api, claim_map, claim_pages, docstrings, refs  # noqa: E402

from proofs_checks.claim_index import CLAIMS, FAMILIES  # noqa: E402
from proofs_checks.report import Report  # noqa: E402


@pytest.mark.parametrize("modname", api.api_modules())
def test_every_public_name_is_documented(modname):
    """Catches a public function, class, method, property or constant without a docstring (or ``#:`` comment):
    the API reference would show it as an empty entry. The message names each one."""
    missing = api.undocumented(modname)
    assert not missing, f"document these (a docstring, or a #: comment above data): {', '.join(missing)}"


def test_the_api_reference_covers_the_public_surface():
    """Catches a scope that silently drops a package or a name of ``proofs_checks.__all__`` (e.g. a new module
    defining a public name, left out of the reference): each public name is on its module's page."""
    import proofs_checks

    modules = api.api_modules()
    assert {"fred", "fred.explainer", "analytic.referee", "proofs_checks.kit.runner", "fred_pytest"} <= set(modules)
    documented = {f"{m}.{n}" for m in modules for n in api.public_names(m)}
    for name in proofs_checks.__all__:
        assert set(refs.canonical_names(f"proofs_checks.{name}")) & documented, name


def test_api_pages_list_every_public_name(tmp_path):
    """Catches a page generator that drops names: each module's page lists all its public names as members."""
    modules = api.write_api_pages(tmp_path)
    for modname in modules:
        page = (tmp_path / f"{modname}.rst").read_text(encoding="utf-8")
        names = api.public_names(modname)
        listed = page.split(":members: ")[1].split("\n")[0].split(", ") if names else []
        assert listed == names, modname


@pytest.mark.parametrize("written, canonical", [
    ("fred.Fred", "fred.explainer.Fred"),
    ("analytic.coverage", "analytic.lemma2.coverage"),
    ("proofs_checks.check_explainer", "proofs_checks.kit.runner.check_explainer"),
    ("fred_constants.LEVEL", "fred_constants.paper.LEVEL"),
    ("proofs_checks.strategies.documents", "proofs_checks.kit.strategies.documents"),
])
def test_a_reference_by_import_path_finds_the_definition(written, canonical):
    """Catches the resolver losing a kind of alias (a package's re-export, a re-exported constant, a hypothesis
    strategy whose qualname is its factory's): those references would fail the -W build."""
    assert canonical in refs.canonical_names(written)


def test_relative_references_are_tried_from_each_package_up():
    """Catches ``:mod:`..black_boxes``` inside proofs_checks.kit.checks.harness not reaching
    proofs_checks.kit.black_boxes (Sphinx strips one dot and marks the reference as relative)."""
    node = {"reftarget": ".black_boxes", "py:module": "proofs_checks.kit.checks.harness", "py:class": None}
    assert "proofs_checks.kit.black_boxes" in refs._written_forms(node)


def test_bars_are_text_not_substitutions():
    """Catches the docstrings' |c| notation reaching reStructuredText as a substitution (an error under -W), and an
    escape that shows up inside literals, doctests or a table row."""
    lines = ["size |c| and |A & B|, t_|c| but ``|x|`` kept", ">>> f(|x|)", "| a | b |"]
    assert docstrings.escape_bars(lines) == [r"size \|c\| and \|A & B\|, t\_\|c\| but ``|x|`` kept",
                                             ">>> f(|x|)", "| a | b |"]


def test_a_claims_page_is_its_family_folder_titled_by_its_docstring():
    """Catches a claim put on another family's page than the folder its module is in, and a page title that is not
    its package's first sentence (e.g. a docstring's second sentence in the title, or a title still hand-written)."""
    pages = {claim_id: claim_pages.family_of(claim_id) for claim_id in CLAIMS}
    assert pages["lemma1-selection"] == "lemmas" and pages["importance-linear"] == "propositions"
    assert pages["minilm-lemma1"] == "transformer" and set(pages.values()) == set(FAMILIES)
    assert claim_pages.family_title("metrics") == "The metrics"
    assert claim_map.first_sentence("Prop. 1 holds, Eq. (2)\n  e.g. here. The rest.") == (
        "Prop. 1 holds, Eq. (2) e.g. here.")


def test_the_claim_map_gives_the_figures_closed_forms_and_helpers():
    """Catches the map's derivation losing what the code states: a figure's ``CLAIM_IDS``, the ``analytic`` names a
    check imports (at module level, in a function, through a helper of its family folder), the helpers themselves,
    and the tests of the closed forms; and the cache ``analytic.exact_cache`` shown as a closed form."""
    report = Report.from_dict(json.loads((ROOT / "proofs_checks" / "REPORT.json").read_text(encoding="utf-8")))
    rows = {row.id: row for row in claim_map.claim_rows(ROOT, report)}
    assert list(rows) == [c.id for c in report.claims]  # the report's order
    lemma1 = rows["lemma1"]
    assert lemma1.figures == ("lemma1_convergence",) and lemma1.notebooks == ("notebooks/lemma1_convergence.py",)
    assert {"lemma1_limit", "drop_asymptotic_variance"} <= set(dict(lemma1.closed)["lemma1"])
    assert "tests/analytic/test_lemma1.py" in lemma1.tests and lemma1.check == "proofs_checks/claims/lemmas/lemma1.py"
    assert rows["baseline-lime"].figures == ("lime_convergence",)
    assert rows["lemma2-any-p"].figures == ("lemma2_coverage",)
    # counterfactuals_linear imports analytic.counterfactual's names itself and through proofs.py and runs.py
    cf = rows["counterfactuals-linear"]
    assert cf.helpers == tuple(f"proofs_checks/claims/counterfactuals/{m}.py" for m in ("proofs", "runs"))
    assert "minimal_flip_row_probability" in dict(cf.closed)["counterfactual"]  # imported by runs.py only
    assert "prop1_linear" in dict(rows["importance-linear"].closed)  # through prop1_proof.py
    trends = rows["experiment-trends"]
    assert trends.figures == trends.closed == () and trends.lines == (166, 168, 548, 549, 552, 689, 1109, 1110, 1115)
    assert all(m != "exact_cache" for row in rows.values() for m, _ in row.closed)
    assert rows["prop2-shortcut"].headline.startswith("c* is the solution of Eq. (2)")


def test_claim_pages_are_the_report_sections(tmp_path):
    """Catches a claim page that says something else than REPORT.md: every line of a claim's section in REPORT.md
    is on its page (LaTeX dollars escaped), every claim is on exactly one page, a figure the notebook drew is
    shown, and the claim map is written beside the pages, a row per claim whose free text cannot break the table."""
    docs = tmp_path / "docs"
    (docs / "notebooks" / "img").mkdir(parents=True)
    (docs / "notebooks" / "img" / "prop2_shortcut.png").write_bytes(b"png")
    (tmp_path / "proofs_checks").mkdir()
    (tmp_path / "proofs_checks" / "REPORT.json").write_bytes((ROOT / "proofs_checks" / "REPORT.json").read_bytes())
    counts = claim_pages.write_claim_pages(tmp_path, docs / "claims")
    assert sum(counts.values()) == len(CLAIMS)
    report_md = (ROOT / "proofs_checks" / "REPORT.md").read_text(encoding="utf-8")
    prop2 = (docs / "claims" / "propositions.md").read_text(encoding="utf-8")
    section = report_md.split("\n## prop2-shortcut\n")[1].split("\n## ")[0]
    for line in section.splitlines():
        assert line.replace("$", r"\$") in prop2, line
    assert "```{image} ../notebooks/img/prop2_shortcut.png" in prop2
    assert prop2.startswith("# Proposition 1 and Proposition 2\n")
    rows = [line for line in (docs / "claims" / "map.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| {ref}")]
    assert sorted(re.match(r"\| \{ref\}`([a-z0-9-]+) ", row).group(1) for row in rows) == sorted(CLAIMS)
    # ten cells a row: a bar of the free text (|e+| in metric-aucmorf's headline) is escaped
    assert {len(re.split(r"(?<!\\)\|", row)) for row in rows} == {12}
