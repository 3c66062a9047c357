"""``python -m proofs_checks --explainer``: a bad value is a usage error (one line, exit status 2), distinct from a
failing check (exit status 1); the text output has a legend (issue 28, item 6)."""

from __future__ import annotations

import pytest

import proofs_checks.__main__ as cli
from proofs_checks import check_explainer


@pytest.mark.parametrize("value, says", [
    ("proofs_checks.fred_factory", "expected module:factory"),
    (":fred_factory", "expected module:factory"),
    ("", "expected module:factory"),
    ("no_such_package.module:factory", "cannot import module 'no_such_package.module'"),
    ("proofs_checks:no_such_factory", "has no attribute 'no_such_factory'"),
    ("proofs_checks.kit:CHECKS", "not a callable factory"),
    ("friction_broken_module:factory", "raised RuntimeError: broken at import"),
])
def test_a_bad_explainer_value_prints_one_line_and_exits_2(value, says, capsys, tmp_path, monkeypatch):
    """Catches a bad --explainer value ending in a traceback, in exit status 1 (a failing check's, tested on the
    process in test_kit.py), or in the full claim report (an empty value read as no value): exit status 2, one line
    on stderr saying what is wrong, nothing on stdout."""
    (tmp_path / "friction_broken_module.py").write_text("raise RuntimeError('broken at import')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cli.main(["--explainer", value, "--only", "kit"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and says in err, err
    assert err.startswith("python -m proofs_checks: error: --explainer: ")


def test_the_kit_text_output_ends_with_a_legend(capsys, monkeypatch):
    """Catches the text output using words ("error", ...) without saying what they mean (two checks, for speed)."""
    monkeypatch.setattr(cli, "check_explainer", lambda factory: check_explainer(
        factory, checks=["check_max_len_is_respected", "check_invalid_eps_is_refused"]))
    assert cli.main(["--explainer", "tests.kit.test_kit:raising", "--only", "kit"]) == 1
    out = capsys.readouterr().out
    legend = out.split("Legend (kit):")[1]
    assert "error" in legend and "raised something other than a failed assertion" in legend


def test_an_unknown_claim_id_prints_one_line_and_exits_2(capsys):
    """Catches a misspelt --claims id ending in a traceback after the kit has run (minutes lost): exit status 2
    before anything runs, one line naming the id and the known ones."""
    assert cli.main(["--explainer", "proofs_checks:fred_factory", "--claims", "lemma2", "lemma-2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    unknown, known = err.split("; known: ")
    assert unknown.endswith("unknown id(s) lemma-2") and "lemma2" in known.split(", ")


@pytest.mark.parametrize("argv", [
    ["--explainer", "proofs_checks:fred_factory", "--explainer-cmd", "python server.py"],
    ["--no-such-option"],
    ["--only", "everything"],
])
def test_an_argparse_usage_error_is_one_line(argv, capsys):
    """Both explainer options at once (one used, the other silently ignored), an unknown option, a bad choice:
    exit status 2 and one line. Catches argparse's multi-line usage block and a silently ignored option."""
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1 and "error:" in err, err
