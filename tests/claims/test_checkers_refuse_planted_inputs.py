"""The report's own checkers, fed planted wrong inputs: each must refuse them (and still accept the right ones).

The report's trust rests on four checkers: the quote check (:mod:`proofs_checks.verdicts.quotes`), the hypotheses
predicate and record (:func:`~proofs_checks.verdicts.results.hypotheses`, the record check behind a counterexample),
the verdict rule (:data:`~proofs_checks.verdicts.results.RULE`, ``ClaimResult.status`` / ``corrected_status``) and
the choice of the reading a verdict comes from (``Reading``, ``ClaimResult.headline``, ``reading_status``).
tests/claims/test_verdict_rule.py and tests/claims/test_paper_words.py test one right and one wrong example of each;
here each checker meets planted wrong inputs drawn or written to look right: a real quote altered by one word, a
record whose verdict disagrees with its conditions, a rule implementation with one clause changed (mutants the
truth table must tell apart, so the table can fail), a headline picked by which reading holds.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from proofs_checks.verdicts import results
from proofs_checks.verdicts.quotes import PAPER_ENV, paper_lines, paper_path, quote_problem, quote_problems
from proofs_checks.verdicts.results import RULE, ClaimResult, Quote, Reading, StepResult, argued, checked, hypotheses

# --------------------------------------------------------------------------------------------------------------------
# The quote check. Its contract (quotes.py, Quote): ``text`` occurs verbatim in fred-paper.tex, whitespace aside (runs
# of spaces and line breaks compare equal to one space), and starts on the 1-based ``line``. So: a changed or dropped
# word, an altered LaTeX command, a line break where the paper has no whitespace and a neighbouring line are refused;
# a line break (or a blank line) where the paper has whitespace is not.
# --------------------------------------------------------------------------------------------------------------------

#: A sentence of the paper's section 2 (found by search, so the test does not hang on its line number).
SENTENCE = ("FRED leverages the \\emph{explaining by removing} strategy, where removing features reveals their "
            "influence on predictions.")


@pytest.fixture(scope="module")
def lines():
    if paper_path() is None:
        pytest.skip(f"the paper's LaTeX source is absent (set {PAPER_ENV} or place it at ../shared/paper/)")
    return paper_lines()


class Paper:
    """The paper's lines, and its words with their 1-based lines (the oracle's view of 'whitespace aside'); its
    repr is short, for hypothesis' report of a failing example."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.words = [(word, k) for k, line in enumerate(lines, 1) for word in line.split()]
        self.vocabulary = sorted({word for word, _ in self.words})
        #: Indices of the words followed by a blank line (a paragraph break) before the next word.
        self.before_breaks = [i for i in range(len(self.words) - 1) if self.words[i + 1][1] > self.words[i][1] + 1]

    def __repr__(self) -> str:
        return f"<fred-paper.tex: {len(self.lines)} lines>"


@pytest.fixture(scope="module")
def paper(lines):
    return Paper(lines)


def _line_of(lines, text: str) -> int:
    """The one line holding ``text`` (an independent search of the raw lines)."""
    (line,) = [k for k, raw in enumerate(lines, 1) if text in raw]
    return line


def _start_lines(words, text: str) -> set[int]:
    """The lines on which ``text`` starts in the paper, by the contract, computed on words: the quote's words are the
    paper's words from some word on, its first word a tail of the paper's and its last a head (a quote may start and
    end inside a word); a one-word quote is inside a word."""
    want = text.split()
    n, found = len(want), set()
    for i in range(len(words) - n + 1):
        first, line = words[i]
        if n == 1:
            if want[0] in first:
                found.add(line)
        elif (first.endswith(want[0]) and words[i + n - 1][0].startswith(want[-1])
              and [w for w, _ in words[i + 1:i + n - 1]] == want[1:-1]):
            found.add(line)
    return found


def test_a_real_quote_with_its_last_words_changed_is_refused(lines):
    """Catches a check that compares only a quote's head (or its length): the paper's sentence with 'predictions'
    changed to 'decisions', or with two words added at its end, is not in the paper."""
    line = _line_of(lines, SENTENCE)
    assert quote_problem(Quote(line, SENTENCE), lines) is None
    for planted in (SENTENCE.replace("on predictions.", "on decisions."), SENTENCE[:-1] + " and outputs."):
        assert "the text is not in the paper" in quote_problem(Quote(line, planted), lines), planted


def test_a_real_quote_with_one_word_dropped_in_the_middle_is_refused(lines):
    """Catches a check that matches the words as a set or in order with gaps: 'reveals influence' (the paper's
    'their' dropped) and the sentence without 'removing' are refused."""
    line = _line_of(lines, SENTENCE)
    for planted in (SENTENCE.replace("their ", ""), SENTENCE.replace("where removing features", "where features")):
        assert "the text is not in the paper" in quote_problem(Quote(line, planted), lines), planted


def test_the_right_text_at_a_neighbouring_line_is_refused_and_the_message_names_the_right_one(lines):
    """Catches a line number checked loosely (a window of lines, or 'on or after the line'): the sentence given at
    the next line or the previous one (a blank line here) is refused, and the message names its line; so is a
    quote that crosses from one line into the next, given at the second."""
    line = _line_of(lines, SENTENCE)
    for wrong in (line - 1, line + 1, line - 2):
        assert quote_problem(Quote(wrong, SENTENCE), lines) == (
            f"line {wrong}: the text does not start on this line (found on line {line})")
    crossing = "their influence on predictions. " + lines[line].split()[0]
    assert quote_problem(Quote(line, crossing), lines) is None
    assert f"(found on line {line})" in quote_problem(Quote(line + 1, crossing), lines)
    assert quote_problem(Quote(len(lines) + 1, "words"), lines) == f"line {len(lines) + 1}: the paper has " \
                                                                   f"{len(lines)} lines"


def test_a_line_break_where_the_paper_has_no_whitespace_is_refused(lines):
    """Catches a 'whitespace aside' that deletes whitespace instead of collapsing it: a line break inside a word
    ('remov' / 'ing'), between a word and its comma, or gluing the paper's two lines into one word is not the
    paper's text (a line break where the paper has a space is, as test_paper_words checks)."""
    line = _line_of(lines, SENTENCE)
    next_word = lines[line].split()[0]
    for planted in ("the \\emph{explaining by remov\ning} strategy", "removing} strategy\n, where",
                    f"on predictions.{next_word}"):
        assert "the text is not in the paper" in quote_problem(Quote(line, planted), lines), planted


def test_a_quote_with_a_latex_command_altered_is_refused(lines):
    """Catches a check that compares rendered text instead of the LaTeX source it promises: '\\emph' removed
    (with or without its braces), changed to '\\textit', a '~' (LaTeX's non-breaking space) typed as a space, and
    a change of case are all refused."""
    line = _line_of(lines, SENTENCE)
    plain = SENTENCE.replace("\\emph{explaining by removing}", "explaining by removing")
    planted = (plain, SENTENCE.replace("\\emph", ""), SENTENCE.replace("\\emph", "\\textit"),
               SENTENCE.replace("FRED leverages", "Fred leverages"))
    for text in planted:
        assert "the text is not in the paper" in quote_problem(Quote(line, text), lines), text
    tilde = "the \\emph{global dictionary} containing~$D$ unique terms"
    at = _line_of(lines, tilde)
    assert quote_problem(Quote(at, tilde), lines) is None
    assert quote_problem(Quote(at, tilde.replace("~", " ")), lines) is not None


def test_a_quote_across_a_paragraph_break_is_the_papers_words(lines):
    """Catches a check that refused a quote spanning a blank line (a paragraph break), although its contract says
    runs of line breaks compare equal to one space: the squashed lines were joined with a space each, so a blank
    line left two spaces that no squashed quote can match (fixed in quotes.py). The misplaced quote's message
    names the line it starts on, counted with the blank lines."""
    line = _line_of(lines, SENTENCE)
    before = lines[line - 3].split()[-1]
    assert not lines[line - 2].strip() and before == "process."
    across = f"decision-making {before}\n\nFRED leverages the \\emph{{explaining by removing}}"
    assert quote_problem(Quote(line - 2, across), lines) is None
    assert quote_problem(Quote(line - 2, across.replace("\n\n", " ")), lines) is None
    assert quote_problem(Quote(line, across), lines) == (
        f"line {line}: the text does not start on this line (found on line {line - 2})")


def test_quote_problems_reports_exactly_the_planted_misquotes(lines):
    """Catches a list check that stops at the first problem, drops one, or reports a right quote: of five quotes,
    the three planted ones are reported, in order, each by its line."""
    line = _line_of(lines, SENTENCE)
    quotes = [Quote(line, SENTENCE), Quote(line + 1, SENTENCE), Quote(line, SENTENCE.replace("their ", "")),
              Quote(line, "explaining by removing"), Quote(line, SENTENCE.upper())]
    assert quote_problems([quotes[0], quotes[3]], lines) == []
    found = quote_problems(quotes, lines)
    assert [p.split(":")[0] for p in found] == [f"line {line + 1}", f"line {line}", f"line {line}"]
    assert "does not start" in found[0] and all("not in the paper" in p for p in found[1:])


MUTATIONS = ("as-is", "last-word-changed", "middle-word-dropped", "line-before", "line-after",
             "break-inside-a-word", "break-at-a-space", "first-word-cut")


def _mutate(data, paper: Paper, start: int, size: int, mutation: str) -> tuple[int, str]:
    """A quote of the paper's words ``start .. start + size`` at its line, with ``mutation`` planted."""
    words = paper.words
    span = [w for w, _ in words[start:start + size]]
    line = words[start][1]
    if mutation == "last-word-changed":
        other = data.draw(st.sampled_from(paper.vocabulary))
        assume(other != span[-1])
        span[-1] = other
    elif mutation == "middle-word-dropped":
        assume(size >= 3)
        del span[data.draw(st.integers(1, size - 2))]
    elif mutation in ("line-before", "line-after"):
        line = max(1, line + (-1 if mutation == "line-before" else 1))
        assume(line <= words[-1][1])
    elif mutation == "first-word-cut":
        span[0] = span[0][data.draw(st.integers(0, len(span[0]) - 1)):]
    text = " ".join(span)
    if mutation == "break-inside-a-word":
        inside = [i for i in range(1, len(text)) if not text[i - 1].isspace() and not text[i].isspace()]
        assume(inside)
        at = data.draw(st.sampled_from(inside))
        text = text[:at] + "\n" + text[at:]
    elif mutation == "break-at-a-space":
        spaces = [i for i, c in enumerate(text) if c == " "]
        assume(spaces)
        at = data.draw(st.sampled_from(spaces))
        text = text[:at] + "\n  " + text[at + 1:]
    return line, text


@given(data=st.data())
def test_the_quote_check_agrees_with_a_word_oracle_on_planted_quotes(data, paper):
    """Catches any disagreement between the check and its contract on the paper's own words, right or planted: a
    real span of 1 to 12 words (half of them across a paragraph break), as is, with its last word changed, a middle
    word dropped, at the line before or after, with a line break inside a word or at a space, or starting inside a
    word. The oracle (``_start_lines``) reads the contract on whitespace-split words, not on squashed text; a
    problem's message says 'not in the paper' exactly when the text starts nowhere, else names the first line it
    starts on. Before the fix in quotes.py it found the spans across a blank line refused."""
    if data.draw(st.booleans()):
        start = max(0, data.draw(st.sampled_from(paper.before_breaks)) - data.draw(st.integers(0, 4)))
    else:
        start = data.draw(st.integers(0, len(paper.words) - 1))
    size = data.draw(st.integers(1, min(12, len(paper.words) - start)))
    line, text = _mutate(data, paper, start, size, data.draw(st.sampled_from(MUTATIONS)))
    starts = _start_lines(paper.words, text)
    problem = quote_problem(Quote(line, text), paper.lines)
    assert (problem is None) == (line in starts), (line, text, starts, problem)
    if problem is not None:
        assert problem.endswith(f"(found on line {min(starts)})") if starts else "not in the paper" in problem


# --------------------------------------------------------------------------------------------------------------------
# The hypotheses predicate and record. A counterexample records ``hypotheses(**conditions)``: each condition the bool
# its predicate computed (at least one), and ``satisfies_hypotheses`` their conjunction. A record built otherwise (by
# hand, or edited) is refused wherever a counterexample is: a counterexample step, a claim's ``counterexample``, a
# report read back.
# --------------------------------------------------------------------------------------------------------------------

NOT_BOOLS = st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=6), st.none(),
                      st.sampled_from([np.float64(1.0), np.int64(0), "True", "False", [True], np.array([True])]))
NAMES = st.text("abcdefghij_", min_size=1, max_size=8)
CONDITIONS = st.dictionaries(NAMES, st.booleans(), min_size=1, max_size=5)


def _counterexample_step(values: dict, role: str = "statement", holds: bool = False) -> StepResult:
    return checked("x.c", "x", role, "counterexample", "a case the search found", holds=holds, values=values)


def _claim_with(counterexample: dict) -> ClaimResult:
    return ClaimResult("x", "statement", "s", "c", counterexample, ())


def _refused_everywhere(record: dict, match: str):
    """``record`` is refused as a claim's counterexample, as a counterexample step's values, and read back from a
    report's step (a hand-edited JSON)."""
    with pytest.raises(ValueError, match=match):
        _claim_with(record)
    with pytest.raises(ValueError, match=match):
        _counterexample_step({**record, "case": 1})
    edited = dict(_counterexample_step({**hypotheses(a=True), "case": 1}).to_dict(), values={**record, "case": 1})
    with pytest.raises(ValueError, match=match):
        StepResult.from_dict(edited)


@given(conditions=CONDITIONS, planted=st.dictionaries(NAMES, NOT_BOOLS, min_size=1, max_size=3))
def test_hypotheses_refuses_a_condition_that_is_not_the_bool_a_predicate_returned(conditions, planted):
    """Catches a condition passed as a truthy value (1, 'False', a float, None, a one-element array): its truth would
    be Python's, not the predicate's ('False' is true), so the record could say inside where the case is not."""
    assume(set(planted).isdisjoint(conditions))
    with pytest.raises(TypeError, match="must be the bool a predicate returned"):
        hypotheses(**conditions, **planted)
    assert hypotheses(**conditions)["satisfies_hypotheses"] == all(conditions.values())


def test_an_empty_record_is_refused():
    """Catches a counterexample whose hypotheses nobody checked: hypotheses() with no condition, a record with
    neither field, one missing either, and (the bug fixed in results.py: it was accepted) a record with no
    condition at all claiming to satisfy them, vacuously."""
    with pytest.raises(ValueError, match="at least one named condition"):
        hypotheses()
    for record in ({}, {"hypotheses": {"a": True}}, {"satisfies_hypotheses": True}):
        _refused_everywhere(record, "must record 'satisfies_hypotheses'")
    _refused_everywhere({"satisfies_hypotheses": True, "hypotheses": {}}, "at least one condition")


@pytest.mark.parametrize("record", [
    {"satisfies_hypotheses": True, "hypotheses": {"a": 1}},
    {"satisfies_hypotheses": True, "hypotheses": {"a": "yes", "b": True}},
    {"satisfies_hypotheses": False, "hypotheses": {"a": 0}},
    {"satisfies_hypotheses": True, "hypotheses": {"a": "False"}},
    {"satisfies_hypotheses": True, "hypotheses": {"a": None}},
])
def test_a_record_whose_conditions_are_not_bools_is_refused(record):
    """Catches a record written by hand instead of by hypotheses(): before the fix in results.py, a condition 'yes',
    1 or the string 'False' passed the record check (all() read them as true), so a case could be called inside
    the hypotheses on a string's truth."""
    _refused_everywhere(record, "each the bool its predicate computed")


@given(conditions=CONDITIONS)
def test_a_record_whose_verdict_disagrees_with_its_conditions_is_refused(conditions):
    """Catches a 'satisfies_hypotheses' typed in rather than computed: the record with the conjunction flipped is
    refused wherever a counterexample goes, and the record hypotheses() builds is accepted."""
    honest = hypotheses(**conditions)
    assert _claim_with(honest).counterexample == honest
    flipped = {**honest, "satisfies_hypotheses": not honest["satisfies_hypotheses"]}
    _refused_everywhere(flipped, "disagrees with its conditions")


@given(conditions=CONDITIONS, broken=NAMES, role=st.sampled_from(("statement", "correction", "proof")))
def test_a_counterexample_with_a_false_condition_presented_as_inside_is_refused(conditions, broken, role):
    """Catches a case outside the hypotheses passed off as a counterexample: with one condition False, a record
    saying 'inside' is refused (it disagrees with its conditions), and the honest record ('outside') cannot make a
    statement, correction or proof step fail. Only a check of the paper's own proof may fail on it (a slip in
    the proof, never a counterexample to the statement), and a search that found nothing may hold."""
    record = hypotheses(**{**conditions, broken: False})
    assert record["satisfies_hypotheses"] is False
    _refused_everywhere({**record, "satisfies_hypotheses": True}, "disagrees")
    with pytest.raises(ValueError, match="not a counterexample"):
        _counterexample_step({**record, "case": 1}, role)
    assert _counterexample_step({**record, "case": 1}, "paper-proof").status == "fails"
    assert _counterexample_step({**record, "case": None}, role, holds=True).status == "holds"


# --------------------------------------------------------------------------------------------------------------------
# The verdict rule. The truth table below is written from RULE's printed sentences (each is checked to be in RULE),
# as a lookup on what a role's steps contain; it never calls decide(). Every combination of up to two steps per role
# (statement, proof, correction, paper-proof) is built as a ClaimResult and its status and corrected_status compared
# with the table; planted mutants of the rule, each one clause changed, must disagree with it somewhere.
# --------------------------------------------------------------------------------------------------------------------

#: The sentences of RULE the table is written from.
SAYS = (
    "a step no computation checks (evidence 'argument') is 'argued'",
    "'fails' if one of its statement steps fails",
    ("'holds' if its proof steps all hold by computation, 'argued' if they hold or are argued, and 'unproved' if it "
     "has no proof steps or one fails"),
    ("The corrected statement's verdict follows the same rule with its correction steps in place of the statement "
     "steps"),
    ("A claim with no failing statement step and an inconclusive one is 'inconclusive'; an inconclusive proof step "
     "leaves it 'unproved'"),
    ("An experiment claim has no proof: it holds ('supported') when its statement steps, tests on committed "
     "results, all hold, and is 'unproved' when it has none or one of them could not be tested (argued)"),
    ("An argued statement step (one no computation checks) makes the claim 'argued' where it would otherwise hold, "
     "as an argued proof step does; a claim with no statement steps is decided by its proof steps alone"),
    "Steps checking the paper's own proof ('paper-proof') are reported and never decide a verdict",
)

STATUSES = ("holds", "fails", "inconclusive", "argued")


def _most(statuses) -> str:
    """What a role's steps contain, as the sentences tell it apart: a failing one, else an inconclusive one, else an
    argued one, else only holding ones ('holds'), or none."""
    return next((s for s in ("fails", "inconclusive", "argued", "holds") if s in statuses), "none")


#: A statement's verdict: row = what its direct steps (statement, or correction for the corrected verdict) contain,
#: column = what its proof steps contain. Row 'argued' (an argued direct step, with no failing or inconclusive
#: one): 'argued' where the proof holds or is argued, as RULE says of an argued statement step (metric-aucmorf's
#: corrected verdict is such a case). Row 'none': decided by the proof steps alone, as RULE says.
STATEMENT_TABLE = {
    "fails": {"none": "fails", "holds": "fails", "argued": "fails", "inconclusive": "fails", "fails": "fails"},
    "inconclusive": {"none": "inconclusive", "holds": "inconclusive", "argued": "inconclusive",
                     "inconclusive": "inconclusive", "fails": "inconclusive"},
    "argued": {"none": "unproved", "holds": "argued", "argued": "argued", "inconclusive": "unproved",
               "fails": "unproved"},
    "holds": {"none": "unproved", "holds": "holds", "argued": "argued", "inconclusive": "unproved",
              "fails": "unproved"},
    "none": {"none": "unproved", "holds": "holds", "argued": "argued", "inconclusive": "unproved",
             "fails": "unproved"},
}
#: An experiment's verdict, by what its direct steps contain (it has no proof steps: a claim with one is refused).
#: With no direct step nothing supports it: 'unproved' (RULE: "'unproved' when it has none").
EXPERIMENT_TABLE = {"fails": "fails", "inconclusive": "inconclusive", "argued": "unproved", "holds": "holds",
                    "none": "unproved"}
REFUSED = "refused"


def _table(kind: str, direct, proof) -> str:
    if kind == "experiment":
        return EXPERIMENT_TABLE[_most(direct)]
    return STATEMENT_TABLE[_most(direct)][_most(proof)]


def _expected(kind: str, statement, proof, correction, paper, corrected: bool):
    """(status, corrected_status) by the table, or REFUSED for a claim that cannot be built (paper-proof never
    enters it)."""
    if (kind == "experiment" and (proof or paper)) or (correction and not corrected):
        return REFUSED
    return _table(kind, statement, proof), (_table(kind, correction, proof) if corrected else None)


_STEPS: dict = {}


def _step(role: str, status: str, n: int = 0, reading: str | None = None) -> StepResult:
    """A step of ``role`` whose computation gave ``status`` (built through checked() / argued(), never typed)."""
    key = (role, status, n, reading)
    if key not in _STEPS:
        name = f"x.{role}-{status}-{n}-{reading}"
        if status == "argued":
            _STEPS[key] = argued(name, "x", role, "a written argument", reading=reading)
        elif status == "inconclusive":
            _STEPS[key] = checked(name, "x", role, "statistical", "a test short of its level", holds=True,
                                  conclusive=False, values={"false_alarm_probability": 0.05, "seed": 0},
                                  reading=reading)
        else:
            _STEPS[key] = checked(name, "x", role, "exhaustive", "a check", holds=status == "holds",
                                  values={"cases": 1}, reading=reading)
    return _STEPS[key]


#: Every bag of 0, 1 or 2 step statuses, smallest first (a role's steps in any order give the same verdict).
BAGS = [bag for size in range(3) for bag in itertools.combinations_with_replacement(STATUSES, size)]


def _rows(kind: str):
    """Every combination: statement, proof, correction bags, a paper-proof bag of 0 or 1 step, with and without a
    corrected statement; smallest first, so that a mutant's first disagreement comes early."""
    combos = itertools.product(BAGS, BAGS, BAGS, BAGS[:1 + len(STATUSES)], (True, False))
    return sorted(combos, key=lambda row: sum(map(len, row[:4])))


def _actual(kind: str, statement, proof, correction, paper, corrected: bool):
    steps = tuple(_step(role, status, n) for role, bag in
                  (("statement", statement), ("proof", proof), ("correction", correction), ("paper-proof", paper))
                  for n, status in enumerate(bag))
    try:
        claim = ClaimResult("x", kind, "s", "c", None, steps, corrected="corrected s" if corrected else None)
    except ValueError:
        return REFUSED
    return claim.status, claim.corrected_status


def _disagreements(kind: str, first_only: bool = False) -> list:
    """Rows where ClaimResult's verdicts differ from the table's."""
    found = []
    for row in _rows(kind):
        want, got = _expected(kind, *row), _actual(kind, *row)
        if want != got:
            found.append((row, want, got))
            if first_only:
                break
    return found


def test_the_table_is_written_from_the_printed_rule():
    """Catches the table drifting from the rule the report prints: every sentence it is written from is in RULE,
    and every verdict it gives is one RULE names."""
    assert [s for s in SAYS if s not in " ".join(RULE.split())] == []
    given_ = {v for row in STATEMENT_TABLE.values() for v in row.values()} | set(EXPERIMENT_TABLE.values())
    assert given_ == set(results.VERDICTS) and all(f"'{v}'" in RULE for v in given_)


@pytest.mark.parametrize("kind", ["statement", "experiment"])
def test_claim_verdicts_are_the_truth_table_on_every_combination(kind):
    """Catches any verdict, as written or corrected, that differs from the printed rule on some combination of
    statement, proof, correction and paper-proof steps (up to two each): a paper-proof step deciding, a correction
    step read as a statement step, an experiment given a proof step, correction steps with no corrected
    statement."""
    assert _disagreements(kind) == []


def _ignores_inconclusive(tests, proof, empirical=False):
    """Mutant: an inconclusive statement step counts as passing (evidence taken where there is none)."""
    return DECIDE([s for s in tests if s.status != "inconclusive"], proof, empirical)


def _argued_proof_holds(tests, proof, empirical=False):
    """Mutant: a proof with argued steps gives 'holds' (a written argument passed off as a computation)."""
    verdict = DECIDE(tests, proof, empirical)
    return "holds" if verdict == "argued" else verdict


def _argued_statement_ignored(tests, proof, empirical=False):
    """Mutant: an argued statement step is dropped, so a claim whose direct check no computation made 'holds' on its
    proof (RULE: an argued statement step makes the claim 'argued')."""
    return DECIDE([s for s in tests if s.status != "argued"], proof, empirical)


def _no_proof_holds(tests, proof, empirical=False):
    """Mutant: a statement with no proof step that survives its checks 'holds' (checked cases taken for a proof)."""
    return DECIDE(tests, proof or [_step("proof", "holds")], empirical)


def _proof_rescues(tests, proof, empirical=False):
    """Mutant: a proof that holds rescues a failing statement step (a counterexample overruled)."""
    return "holds" if proof and {s.status for s in proof} == {"holds"} else DECIDE(tests, proof, empirical)


def _inconclusive_proof_ignored(tests, proof, empirical=False):
    """Mutant: an inconclusive proof step is dropped instead of leaving the claim 'unproved'."""
    return DECIDE(tests, [s for s in proof if s.status != "inconclusive"], empirical)


def _inconclusive_before_fails(tests, proof, empirical=False):
    """Mutant: an inconclusive statement step hides a failing one (a counterexample reported 'inconclusive')."""
    return "inconclusive" if any(s.status == "inconclusive" for s in tests) else DECIDE(tests, proof, empirical)


def _experiment_without_tests_supported(tests, proof, empirical=False):
    """Mutant: an experiment with no test at all is 'supported' ('all hold' read vacuously)."""
    return "holds" if empirical and not tests else DECIDE(tests, proof, empirical)


def _experiment_argued_supported(tests, proof, empirical=False):
    """Mutant: an experiment with an untested (argued) step is 'supported (argued)' instead of 'unproved'."""
    verdict = DECIDE(tests, proof, empirical)
    untested = empirical and verdict == "unproved" and tests and any(s.status == "argued" for s in tests)
    return "argued" if untested else verdict


def _experiment_needs_a_proof(tests, proof, empirical=False):
    """Mutant: the empirical flag ignored, so an experiment (which has no proof) is never 'supported'."""
    return DECIDE(tests, proof, False)


DECIDE = results.decide
DECIDE_MUTANTS = [_ignores_inconclusive, _argued_proof_holds, _argued_statement_ignored, _no_proof_holds,
                  _proof_rescues, _inconclusive_proof_ignored, _inconclusive_before_fails,
                  _experiment_without_tests_supported, _experiment_argued_supported, _experiment_needs_a_proof]


@pytest.mark.parametrize("mutant", DECIDE_MUTANTS, ids=lambda f: f.__name__.strip("_"))
def test_every_planted_mutant_of_the_rule_disagrees_with_the_table(mutant, monkeypatch):
    """Catches a table too weak to fail: with decide() replaced by a mutant (its docstring names the bug it
    plants), ClaimResult's verdicts disagree with the table on some combination of one kind or the other."""
    monkeypatch.setattr(results, "decide", mutant)
    assert _disagreements("statement", first_only=True) or _disagreements("experiment", first_only=True)


def _paper_proof_decides(self, role, reading=None):
    """Mutant: paper-proof steps counted as proof steps (a slip in the paper's proof sinking its statement)."""
    roles = ("proof", "paper-proof") if role == "proof" else (role,)
    return [s for s in self.steps if s.role in roles and s.reading in (None, reading)]


def _correction_from_statement(self):
    """Mutant: the corrected verdict decided by the statement steps (the correction never tested)."""
    return None if self.corrected is None else self.status


def _correction_ignores_proof(self):
    """Mutant: the corrected verdict decided by the correction steps alone, as if they were an experiment's."""
    return None if self.corrected is None else DECIDE(self._steps("correction"), [], True)


@pytest.mark.parametrize("name, mutant", [
    ("_steps", _paper_proof_decides),
    ("corrected_status", property(_correction_from_statement)),
    ("corrected_status", property(_correction_ignores_proof)),
], ids=["paper-proof-decides", "correction-from-statement", "correction-ignores-proof"])
def test_planted_mutants_of_the_roles_disagree_with_the_table(name, mutant, monkeypatch):
    """Catches a table blind to which role decides which verdict: ClaimResult with the paper's proof steps deciding,
    or its corrected verdict taken from the statement steps or from the correction steps without the proof,
    disagrees with the table."""
    monkeypatch.setattr(ClaimResult, name, mutant)
    assert _disagreements("statement", first_only=True)


# --------------------------------------------------------------------------------------------------------------------
# Readings. The headline verdict is the verdict of the headline reading (its own steps and the shared ones), whatever
# the other readings give; a claim's readings have distinct ids, exactly one headline, and its steps name only them.
# --------------------------------------------------------------------------------------------------------------------

WORDS = (Quote(1, "some words"),)
OTHER_ROLES = ("stronger", "weaker", "alternative")


@st.composite
def read_claims(draw):
    """A statement claim with 1 to 4 readings (the headline anywhere among them) and up to 8 statement, proof and
    paper-proof steps, each for one reading or shared (reading None)."""
    n = draw(st.integers(1, 4))
    head = draw(st.integers(0, n - 1))
    readings = tuple(Reading(f"r{i}", "headline", "the meant sense", WORDS) if i == head else
                     Reading(f"r{i}", draw(st.sampled_from(OTHER_ROLES)), "another sense") for i in range(n))
    specs = draw(st.lists(st.tuples(st.sampled_from(("statement", "proof", "paper-proof")), st.sampled_from(STATUSES),
                                    st.sampled_from([None] + [r.id for r in readings])), max_size=8))
    steps = tuple(_step(role, status, k, reading) for k, (role, status, reading) in enumerate(specs))
    return ClaimResult("x", "statement", "s", "c", None, steps, source=WORDS, readings=readings)


def _headline_problems(claim: ClaimResult) -> list[str]:
    """How the claim's verdict departs from its headline reading's, computed with the table on the headline's own
    and shared steps (empty: it does not)."""
    head = next(r.id for r in claim.readings if r.role == "headline")
    mine = {role: [s.status for s in claim.steps if s.role == role and s.reading in (None, head)]
            for role in ("statement", "proof")}
    want = _table("statement", mine["statement"], mine["proof"])
    entries = {r["id"]: r["status"] for r in claim.to_dict()["readings"]}
    seen = {"status": claim.status, "reading_status": claim.reading_status(head), "entry": entries[head],
            "to_dict": claim.to_dict()["status"]}
    return [f"{name}: {got} != {want}" for name, got in seen.items() if got != want]


@given(claim=read_claims())
def test_the_verdict_is_the_headline_readings(claim):
    """Catches a verdict taken from another reading, from the steps of every reading pooled, or without the steps
    shared by every reading; and a report whose headline entry differs from the claim's verdict."""
    assert _headline_problems(claim) == []


@given(claim=read_claims(), status=st.sampled_from(STATUSES))
def test_other_readings_never_decide_the_headline(claim, status):
    """Catches a stronger (or weaker, or alternative) reading deciding the verdict: every step of the other readings
    set to ``status`` (all failing, say: the stronger reading fails) leaves the verdict unchanged, while that
    reading's own verdict follows its steps."""
    head = claim.headline.id
    planted = tuple(s if s.reading in (None, head) else _step(s.role, status, k, s.reading)
                    for k, s in enumerate(claim.steps))
    changed = ClaimResult("x", "statement", "s", "c", None, planted, source=WORDS, readings=claim.readings)
    assert changed.status == claim.status
    for reading in (r.id for r in claim.readings if r.id != head):
        mine = [s for s in planted if s.reading == reading]
        if any(s.role == "statement" for s in mine) and status == "fails":
            assert changed.reading_status(reading) == "fails"


def _first_reading(self):
    """Mutant: the headline is the first reading listed."""
    return self.readings[0] if self.readings else None


def _reading_that_holds(self):
    """Mutant: the headline is the reading with the strongest verdict (chosen by which reading holds)."""
    order = results.VERDICTS
    return min(self.readings, key=lambda r: order.index(self.reading_status(r.id)), default=None)


@pytest.mark.parametrize("mutant", [_first_reading, _reading_that_holds], ids=["first-reading", "reading-that-holds"])
def test_a_headline_chosen_otherwise_is_caught(mutant, monkeypatch):
    """Catches a headline picked by position or by which reading holds rather than by the words quoted for it:
    with the stronger reading listed first and holding, the headline failing, the mutant's verdict departs from
    the headline reading's."""
    claim = ClaimResult("x", "statement", "s", "c", None,
                        (_step("statement", "holds", 0, "strict"), _step("statement", "fails", 1, "meant"),
                         _step("proof", "holds")), source=WORDS,
                        readings=(Reading("strict", "stronger", "the strict sense"),
                                  Reading("meant", "headline", "the meant sense", WORDS)))
    assert _headline_problems(claim) == [] and claim.status == "fails"
    monkeypatch.setattr(ClaimResult, "headline", property(mutant))
    assert _headline_problems(claim) != [] and claim.status == "holds"


@given(claim=read_claims(), role=st.sampled_from(("statement", "proof", "correction", "paper-proof")),
       name=st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8))
def test_a_step_naming_an_unknown_reading_is_refused(claim, role, name):
    """Catches a step whose reading the claim does not list, in any role: its result would count for no verdict
    (and a typo would silently drop a failing step from the headline)."""
    assume(name not in {r.id for r in claim.readings})
    planted = claim.steps + (_step(role, "fails", 99, name),)
    with pytest.raises(ValueError, match="unknown readings"):
        ClaimResult("x", "statement", "s", "c", None, planted, corrected="c2", source=WORDS, readings=claim.readings)


@given(claim=read_claims(), extra=st.integers(1, 2), where=st.integers(0, 4))
def test_two_headlines_or_a_repeated_id_are_refused(claim, extra, where):
    """Catches a claim with more than one headline (a verdict picked among them after the fact), one whose other
    readings lost their headline, and two readings under one id (a step could then test either)."""
    readings = list(claim.readings)
    for k in range(extra):
        readings.insert(where % (len(readings) + 1), Reading(f"h{k}", "headline", "also meant", WORDS))
    no_headline = [r for r in claim.readings if r.role != "headline"]
    repeated = list(claim.readings) + [Reading(claim.readings[0].id, "alternative", "same id")]
    for planted in (readings, repeated) + ((no_headline,) if no_headline else ()):
        with pytest.raises(ValueError, match="exactly one headline"):
            ClaimResult("x", "statement", "s", "c", None, claim.steps, source=WORDS, readings=tuple(planted))


@given(claim=read_claims())
def test_a_report_with_the_verdict_of_another_reading_is_refused(claim):
    """Catches a report edited to show a stronger (or any other) reading's verdict as the claim's: reading it back
    recomputes the headline's verdict and refuses the dictionary."""
    if claim.status != "fails":  # a reading of its own whose failing step gives it another verdict than the claim's
        claim = ClaimResult("x", "statement", "s", "c", None, (*claim.steps, _step("statement", "fails", 99, "rz")),
                            source=WORDS, readings=(*claim.readings, Reading("rz", "stronger", "a stricter sense")))
    data = claim.to_dict()
    others = {r["status"] for r in data["readings"] if r["role"] != "headline"} - {data["status"]}
    assume(others)  # rejects only claims failing on a shared step, where every reading fails alike
    with pytest.raises(ValueError, match="differ from what its steps give"):
        ClaimResult.from_dict(dict(data, status=min(others)))
    assert ClaimResult.from_dict(data).status == claim.status


def test_a_reading_with_an_unknown_role_is_refused():
    """Catches a reading role outside READING_ROLES (e.g. 'main'), which no rule of the headline would read."""
    with pytest.raises(ValueError, match="role must be one of"):
        Reading("a", "main", "m", WORDS)


# --------------------------------------------------------------------------------------------------------------------
# A failing claim's counterexample, and a claim that fails in part.
# --------------------------------------------------------------------------------------------------------------------

def _failing_claim(counterexample: dict | None) -> ClaimResult:
    return ClaimResult("x", "statement", "s", "c", counterexample, (_step("statement", "fails"),))


@given(conditions=CONDITIONS, broken=NAMES)
def test_a_failing_claim_with_a_counterexample_outside_its_hypotheses_is_refused(conditions, broken):
    """Catches a claim that fails on a case outside the statement's hypotheses: its counterexample's honest record
    ('satisfies_hypotheses' False) is refused with the field named, at construction and read back from an edited
    report; the same record on a claim that does not fail (a search's first case), and a record inside the
    hypotheses on a failing claim, are accepted."""
    outside = hypotheses(**{**conditions, broken: False})
    with pytest.raises(ValueError, match="satisfies_hypotheses"):
        _failing_claim(outside)
    assert ClaimResult("x", "statement", "s", "c", outside, (_step("statement", "holds"),)).status == "unproved"
    inside = hypotheses(**{k: True for k in conditions})
    edited = dict(_failing_claim(inside).to_dict(), counterexample=outside)
    with pytest.raises(ValueError, match="satisfies_hypotheses"):
        ClaimResult.from_dict(edited)


def _parted(specs, proof=("holds",)) -> ClaimResult:
    """A statement claim whose statement steps are (status, part) pairs, with proof steps of the given statuses."""
    steps = [checked(f"x.s{k}", "x", "statement", "statistical" if status == "inconclusive" else "exhaustive",
                     "a check", holds=status == "holds", conclusive=status != "inconclusive",
                     values={"cases": 1, "false_alarm_probability": 0.05, "seed": 0}, part=part)
             for k, (status, part) in enumerate(specs)]
    steps += [_step("proof", status, k) for k, status in enumerate(proof)]
    return ClaimResult("x", "statement", "s", "c", None, tuple(steps))


@pytest.mark.parametrize("specs, proof, verdict", [
    ([("fails", "the count"), ("holds", "the word")], ("holds",), "fails in part: the count fails; the word holds"),
    ([("holds", "the word"), ("fails", "the count")], ("argued",),
     "fails in part: the word holds (argued); the count fails"),
    ([("fails", "the count"), ("holds", "the word")], (), "fails in part: the count fails; the word unproved"),
    ([("fails", "the count"), ("holds", "the word"), ("holds", None)], ("holds",),
     "fails in part: the count fails; the word holds"),
    ([("fails", "the count"), ("holds", "the word"), ("fails", None)], ("holds",), "fails"),
    ([("fails", "the count"), ("fails", "the word")], ("holds",), "fails"),
    ([("fails", "the count"), ("holds", "the count")], ("holds",), "fails"),
    ([("holds", "the count"), ("holds", "the word")], ("holds",), "holds"),
    ([("holds", "better"), ("inconclusive", "slightly")], ("holds",),
     "inconclusive in part: better holds; slightly inconclusive"),
    ([("inconclusive", "slightly"), ("holds", "better")], ("argued",),
     "inconclusive in part: slightly inconclusive; better holds (argued)"),
    ([("holds", "better"), ("inconclusive", "slightly"), ("inconclusive", None)], ("holds",), "inconclusive"),
    ([("inconclusive", "better"), ("inconclusive", "slightly")], ("holds",), "inconclusive"),
    ([("fails", "better"), ("inconclusive", "slightly")], ("holds",),
     "fails in part: better fails; slightly inconclusive"),
    ([("inconclusive", "better"), ("fails", "better"), ("holds", "slightly")], ("holds",),
     "fails in part: better fails; slightly holds"),
], ids=["one-fails", "argued-part", "no-proof", "shared-holds", "whole-fails", "both-fail", "one-part",
        "none-fails", "one-inconclusive", "inconclusive-argued", "whole-inconclusive", "both-inconclusive",
        "fails-beside-inconclusive", "fails-wins"])
def test_a_claim_failing_in_part_says_which_part(specs, proof, verdict):
    """Catches a headline that gives no credit to a part that holds (Proposition 2's word), one that gives credit
    where the whole sentence fails (an unlabelled failing step) or where every part fails, and a part's verdict not
    taken by the rule (a part with no proof step is 'unproved', an argued proof makes it 'holds (argued)'); and the
    same for an inconclusive claim: one whose parts differ must read 'inconclusive in part' (experiment-mask-vs-pos:
    'better' supported, 'slightly' untestable), while an unlabelled inconclusive step or every part inconclusive
    leaves plain 'inconclusive', and a failing part still makes it 'fails in part'. The
    expected headlines are written by hand; the JSON report carries each part's verdict and is read back."""
    claim = _parted(specs, proof)
    assert claim.verdict == verdict
    data = claim.to_dict()
    assert data["verdict"] == verdict and ClaimResult.from_dict(data) == claim
    parts = list(dict.fromkeys(p for _, p in specs if p is not None))
    assert [p["part"] for p in data.get("parts", [])] == parts
    with pytest.raises(ValueError, match="differ"):
        ClaimResult.from_dict({**data, "verdict": "holds" if verdict != "holds" else "fails"})


def test_a_part_on_a_step_of_the_papers_proof_or_an_empty_part_is_refused():
    """Catches a part label where it means nothing: a step checking the paper's own proof (it decides no verdict)
    or an empty label."""
    with pytest.raises(ValueError, match="part"):
        checked("x.pp", "x", "paper-proof", "exhaustive", "a check", holds=True, values={"cases": 1}, part="the word")
    with pytest.raises(ValueError, match="part"):
        checked("x.s", "x", "statement", "exhaustive", "a check", holds=True, values={"cases": 1}, part=" ")
