"""The documentation site's generators (docs/_ext/fred_docs): every public name documented, the claim pages from
the report's results, references that link. The site itself is built with -W by .ci/run (over a minute: the
notebooks are executed), not here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx", reason="the site needs the docs extra")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from fred_docs import api, claim_pages, docstrings, refs  # noqa: E402

from proofs_checks.claim_index import CLAIMS  # noqa: E402


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


def test_every_claim_has_a_family_page():
    """Catches a new claim whose id matches no family: its page would not exist (the build stops on it too)."""
    pages = {claim_id: claim_pages.family_of(claim_id) for claim_id in CLAIMS}
    assert pages["lemma1-selection"] == "lemma1" and pages["importance-linear"] == "prop1"
    with pytest.raises(Exception, match="no family"):
        claim_pages.family_of("a-claim-of-no-family")


def test_the_claim_map_gives_the_figures_and_closed_forms():
    """Catches a change of docs/claims.md's table that the page generator no longer reads: the claim pages would
    lose their figures and code links without any warning."""
    rows = claim_pages.claim_map(ROOT / "docs" / "claims.md")
    assert set(rows) == set(CLAIMS)
    assert rows["lemma1"]["figure"] == ["lemma1_convergence.py"]
    assert rows["baseline-lime"]["figure"] == ["lime_convergence.py"]
    assert "lemma1.py" in rows["lemma1"]["closed"] and rows["experiment-trends"]["figure"] == []


def test_claim_pages_are_the_report_sections(tmp_path):
    """Catches a claim page that says something else than REPORT.md: every line of a claim's section in REPORT.md
    is on its page (LaTeX dollars escaped), every claim is on exactly one page, and a figure the notebook drew is
    shown."""
    docs = tmp_path / "docs"
    (docs / "notebooks" / "img").mkdir(parents=True)
    (docs / "notebooks" / "img" / "prop2_shortcut.png").write_bytes(b"png")
    (docs / "claims.md").write_text((ROOT / "docs" / "claims.md").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "proofs_checks").mkdir()
    (tmp_path / "proofs_checks" / "REPORT.json").write_bytes((ROOT / "proofs_checks" / "REPORT.json").read_bytes())
    counts = claim_pages.write_claim_pages(tmp_path, docs / "claims")
    assert sum(counts.values()) == len(CLAIMS)
    report_md = (ROOT / "proofs_checks" / "REPORT.md").read_text(encoding="utf-8")
    prop2 = (docs / "claims" / "prop2.md").read_text(encoding="utf-8")
    section = report_md.split("\n## prop2-shortcut\n")[1].split("\n## ")[0]
    for line in section.splitlines():
        assert line.replace("$", r"\$") in prop2, line
    assert "```{image} ../notebooks/img/prop2_shortcut.png" in prop2
