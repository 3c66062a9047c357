"""The kit's power on mistakes nobody listed: every mutant of a FRED written from scratch, through the whole kit in
exact and Monte Carlo mode; writes docs/kit_mutation.md (issue 38).

The subject is ``docs/examples/plain_fred.py`` (Algorithm 1 against the kit's public contract; it imports nothing of
``fred`` or ``analytic``). ``tools/ast_mutants.py`` makes every mutant of it. Each mutant is one dask task
(``--workers N``, a LocalCluster of single-threaded processes, or ``--scheduler ADDRESS``) running the kit on it in
each mode; a mutant that loops forever is stopped after ``--timeout`` seconds (its worker process ends, and a fresh
one takes its place) and counted as a timeout in both modes: a CI's time limit flags it. The kit runs its checks
cheapest first (their time on the unmutated subject) and stops at the first that fails or errs: that check *killed* the mutant in that mode (another
order could name another check, never turn a kill into a survival).

A mode only judges the mutants whose line it runs: the unmutated subject is traced under the kit in each mode, and a
mutant on a line that mode never runs is "not reached" there (Monte Carlo mode never enumerates 2^b patterns).
Survivors are read one by one; those the contract cannot tell from the subject are argued in
``tools/kit_mutation_equivalents.toml`` (key, kind, reason) and never count as killed. The kind says how far the
equivalence goes: ``exact`` (the same explanations and texts, but for error messages and the mask's spelling),
``rounding`` (the same up to floating-point rounding), ``ties`` (another of exactly tied candidates), ``law`` (other
draws from the same law of rows). A mutant argued there and killed anyway is reported: the argument was wrong.

Results are appended to ``--results`` (JSON lines, one per mutant, with the hashes of the mutant's source and of the
kit), so a stopped run resumes where it was; ``--fresh`` starts over. A progress bar on a terminal, else a line per
mutant on stderr.

    python tools/kit_mutation.py [--workers 2 | --scheduler ADDRESS] [--only INDEX ...] [--fresh]
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import threading
import time
import tomllib
import types
from collections import Counter
from contextlib import ExitStack
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from ast_mutants import Mutant, mutants  # noqa: E402

from fred.command_line import OneLineParser  # noqa: E402
from fred.markdown_tables import markdown_table  # noqa: E402
from fred.provenance import describe, environment  # noqa: E402

SUBJECT = ROOT / "docs" / "examples" / "plain_fred.py"
EQUIVALENTS = ROOT / "tools" / "kit_mutation_equivalents.toml"
RESULTS = ROOT / "docs" / "kit_mutation.jsonl"
OUT = ROOT / "docs" / "kit_mutation.md"
MODES = ("exact", "Monte Carlo")
COMMAND = "python tools/kit_mutation.py --workers 2"
#: Seconds one mode of one mutant may take (the unmutated subject takes about 5 s exact, 14 s Monte Carlo).
TIMEOUT = 240
#: Exit status of a worker the watchdog ends.
TIMEOUT_EXIT = 75
#: Target (issue 38): every non-equivalent mutant killed in a mode, and at least this share in each mode.
TARGET = 0.95


# ------------------------------------------------------------------------------------------ one mutant, one mode
def subject_factory(source: str, name: str = "plain_fred"):
    """The kit factory of a subject's ``source``: its ``make_explainer`` as it is (its defaults are part of what is
    mutated), tagged with the exact mode and every capability the subject has."""
    from proofs_checks.kit import ExplainerTags

    module = types.ModuleType(name)
    module.__file__ = str(SUBJECT)
    exec(compile(source, str(SUBJECT), "exec"), module.__dict__)  # noqa: S102 - the subject is this repository's
    module.make_explainer.fred_tags = ExplainerTags(exact=True)
    return module.make_explainer


def kill(source: str, mode: str, order: list[str]) -> dict:
    """The kit on the subject ``source`` in ``mode``, its checks in ``order``, stopped at the first that fails or
    errs: {"killed": bool, "check": its name or "", "status", "message"}. Shrinking is off (only the message depends
    on it)."""
    from proofs_checks.kit import check_explainer, monte_carlo_mode
    from proofs_checks.kit.checks import harness

    try:
        factory = subject_factory(source)
    except Exception as err:  # noqa: BLE001 - a mutant that cannot be imported is flagged by any use of it
        return {"killed": True, "check": "(import)", "status": "error", "message": f"{type(err).__name__}: {err}"}
    factory = factory if mode == "exact" else monte_carlo_mode(factory)
    shrink, harness.SHRINK_FAILURES = harness.SHRINK_FAILURES, False  # restored: a caller's later checks shrink
    try:
        for name in order:
            outcome = check_explainer(factory, checks=[name]).outcomes[0]
            if outcome.status in ("failed", "error"):
                return {"killed": True, "check": name, "status": outcome.status, "message": outcome.message}
    finally:
        harness.SHRINK_FAILURES = shrink
    return {"killed": False, "check": "", "status": "survived", "message": ""}


def cheapest_first(mode: str) -> list[str]:
    """The kit's checks by their time on the unmutated subject in ``mode``, cheapest first: a mutant most checks
    kill is then killed early (the order changes which check is named, never whether one kills)."""
    from proofs_checks.kit import CHECKS, check_explainer, monte_carlo_mode

    factory = subject_factory(SUBJECT.read_text())
    factory = factory if mode == "exact" else monte_carlo_mode(factory)
    seconds = {}
    for check in CHECKS:
        start = time.perf_counter()
        check_explainer(factory, checks=[check.__name__])
        seconds[check.__name__] = time.perf_counter() - start
    return sorted(seconds, key=seconds.get)


def run_mutant(index: int, source: str, orders: dict[str, list[str]], timeout: float) -> dict:
    """One dask task: the mutant through the kit in each mode of ``orders`` (its checks in ``orders[mode]``; a mode
    that never runs the mutant's line is left out), on one BLAS thread. A mode
    still running after ``timeout`` seconds ends the worker process (a watchdog thread), which the client records as
    a timeout (:func:`run_pending`); the worker's nanny starts a fresh one."""
    from threadpoolctl import threadpool_limits

    outcomes = {}
    with threadpool_limits(1):
        for mode in orders:
            watchdog = threading.Timer(timeout, os._exit, args=(TIMEOUT_EXIT,))
            watchdog.daemon = True
            start = time.perf_counter()
            watchdog.start()
            try:
                outcomes[mode] = kill(source, mode, orders[mode])
            finally:
                watchdog.cancel()
            outcomes[mode]["seconds"] = round(time.perf_counter() - start, 1)
    return {"index": index, "outcomes": outcomes}


def timed_out(timeout: float) -> dict:
    """The outcomes of a mutant whose worker process ended: the watchdog's timeout, or (the same for the count: the
    mutant cannot run) the nanny's memory limit. Both modes: the task's result is lost with the worker."""
    message = f"its worker ended: a mode ran over {timeout:.0f} s (or over the worker's memory limit)"
    return {mode: {"killed": True, "check": "(timeout)", "status": "timeout", "message": message} for mode in MODES}


# ------------------------------------------------------------------------------------------ what each mode reaches
def reached_lines(mode: str) -> set[int]:
    """Lines of the subject the unmutated subject runs while the kit checks it in ``mode`` (a line tracer)."""
    from proofs_checks.kit import check_explainer, monte_carlo_mode

    factory = subject_factory(SUBJECT.read_text())
    factory = factory if mode == "exact" else monte_carlo_mode(factory)
    lines: set[int] = set()
    target = str(SUBJECT)

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != target:
            return None
        lines.add(frame.f_lineno)
        return local

    def local(frame, event, arg):
        lines.add(frame.f_lineno)
        return local

    sys.settrace(tracer)
    try:
        report = check_explainer(factory)
    finally:
        sys.settrace(None)
    if not report.ok:
        raise RuntimeError(f"the unmutated subject fails the kit in {mode} mode:\n{report}")
    return lines | _definition_lines(SUBJECT.read_text())


def _definition_lines(source: str) -> set[int]:
    """Lines run when the module is imported (module constants, def and class lines with their defaults)."""
    tree = ast.parse(source)
    return {line for node in tree.body for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef))} | {
        node.lineno for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))} | {
        line for node in ast.walk(tree) if isinstance(node, ast.arguments)
        for default in node.defaults + [d for d in node.kw_defaults if d is not None]
        for line in range(default.lineno, (default.end_lineno or default.lineno) + 1)}


# ------------------------------------------------------------------------------------------ bookkeeping
def kit_fingerprint() -> str:
    """A hash of every source the kit runs (``proofs_checks``, ``analytic``, ``fred``, ``fred_constants``) and of the
    versions of the libraries it computes with: results of another kit, or another numpy, are not reused."""
    digest = hashlib.sha256()
    for folder in ("proofs_checks", "analytic", "fred", "fred_constants"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(path.relative_to(ROOT).as_posix().encode() + path.read_bytes())
    digest.update(" ".join(version(name) for name in ("numpy", "scipy", "hypothesis", "scikit-learn")).encode())
    return digest.hexdigest()[:16]


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def load_results(path: Path, kit: str) -> dict[str, dict]:
    """Recorded results of this kit, by the hash of the mutant's source."""
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {row["source"]: row for row in rows if row.get("kit") == kit}


#: The kinds of equivalence an argument may claim, strongest first (their meaning heads the arguments' file).
KINDS = ("exact", "rounding", "ties", "law")


def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, str]:
    """Mutant key -> "kind: argument", the written argument that the contract cannot tell the mutant from the
    subject, and how far (:data:`KINDS`)."""
    entries = tomllib.loads(path.read_text()).get("equivalent", [])
    unknown = sorted({entry["kind"] for entry in entries} - set(KINDS))
    if unknown:
        raise ValueError(f"{path.name}: kind must be one of {KINDS}, got {unknown}")
    return {entry["key"]: f"{entry['kind']}: {entry['reason']}" for entry in entries}


# ------------------------------------------------------------------------------------------ the report
def classify(made: list[Mutant], results: dict[str, dict], reached: dict[str, set[int]],
             equivalents: dict[str, str]) -> list[dict]:
    """One row per mutant: its outcome in each mode ("killed", "timeout", "survived", "not reached" or "not run")
    with the killing check, and whether it is argued equivalent."""
    rows = []
    for m in made:
        recorded = results.get(source_hash(m.source), {}).get("outcomes", {})
        modes = {}
        for mode in MODES:
            if m.line not in reached[mode]:
                modes[mode] = {"state": "not reached", "check": ""}
            elif mode not in recorded:
                modes[mode] = {"state": "not run", "check": ""}
            else:
                got = recorded[mode]
                state = "timeout" if got["status"] == "timeout" else "killed" if got["killed"] else "survived"
                modes[mode] = {"state": state, "check": got["check"], "message": got.get("message", "")}
        rows.append({"mutant": m, "modes": modes, "reason": equivalents.get(m.key)})
    return rows


def counts(rows: list[dict]) -> list[list]:
    """Per mode: mutants, reached, argued equivalent, killed (timeouts), survived, not run, score."""
    table = []
    for mode in MODES:
        reached = [r for r in rows if r["modes"][mode]["state"] != "not reached"]
        judged = [r for r in reached if r["reason"] is None]
        killed = [r for r in judged if r["modes"][mode]["state"] in ("killed", "timeout")]
        timeouts = sum(r["modes"][mode]["state"] == "timeout" for r in judged)
        survived = sum(r["modes"][mode]["state"] == "survived" for r in judged)
        not_run = sum(r["modes"][mode]["state"] == "not run" for r in judged)
        score = len(killed) / len(judged) if judged else float("nan")
        flag = "" if score >= TARGET else " **below target**"
        table.append([mode, len(rows), len(reached), len(reached) - len(judged), f"{len(killed)} ({timeouts})",
                      survived, not_run, f"{100 * score:.1f}%{flag}"])
    return table


def _fenced(diff: str) -> list[str]:
    return ["```diff", diff, "```"]


def _outcome(cell: dict) -> str:
    state = cell["state"]
    return cell["check"] if state == "killed" else f"{state} {cell['check']}".strip()


def _killed(row: dict) -> bool:
    return any(c["state"] in ("killed", "timeout") for c in row["modes"].values())


def _listed(rows: list[dict], with_reason: bool) -> list[str]:
    """Each mutant of ``rows`` as a bullet (index, key, line, outcomes or the written reason) and its diff."""
    lines = []
    for r in rows:
        m = r["mutant"]
        said = r["reason"] if with_reason else "; ".join(f"{mode}: {_outcome(c)}" for mode, c in r["modes"].items())
        lines += [f"- **{m.index}** `{m.key}` (line {m.line}). {said}", "", *_fenced(m.diff), ""]
    return lines


def _by_check(rows: list[dict]) -> str:
    """How many mutants each check killed, per mode (the first check to fail or err in the kit's order)."""
    by_check = Counter((mode, r["modes"][mode]["check"]) for r in rows if r["reason"] is None for mode in MODES
                       if r["modes"][mode]["state"] in ("killed", "timeout"))
    checks = sorted({check for _, check in by_check}, key=lambda c: (-sum(by_check[m, c] for m in MODES), c))
    return markdown_table(["check", *MODES], [[c, *(by_check[m, c] for m in MODES)] for c in checks])


def _kinds(rows: list[dict]) -> str:
    """How many arguments claim each kind of equivalence."""
    found = Counter(r["reason"].split(":", 1)[0] for r in rows if r["reason"] is not None)
    return ", ".join(f"{found[kind]} {kind}" for kind in KINDS if found[kind]) or "none"


def render(rows: list[dict], subject: str, seconds: float, partial: bool) -> str:
    """docs/kit_mutation.md: the score per mode, the survivors, the equivalent mutants with their arguments, the
    kills by check and every mutant's outcome."""
    judged = [r for r in rows if r["reason"] is None]
    survivors = [r for r in judged if not _killed(r)]
    wrong = [r for r in rows if r["reason"] is not None and _killed(r)]
    lines = [
        "# The kit's power on mistakes nobody listed: mutants of a FRED written from scratch", "",
        f"Generated by `tools/kit_mutation.py`; regenerate with `{COMMAND}` (resumable). Subject: "
        f"`docs/examples/plain_fred.py`, sha256 `{source_hash(subject)}`.", "",
        __doc__.split("\n\n", 1)[1].split("\n\n    python")[0], "",
        "## Score", "", "Score = killed (timeouts included) / (reached - argued equivalent), per mode.", "",
        markdown_table(["mode", "mutants", "reached", "argued equivalent", "killed (timeouts)", "survived",
                        "not run", "score"], counts(rows)), "",
        f"Killed in at least one mode: **{len(judged) - len(survivors)} of {len(judged)}** non-equivalent mutants "
        f"({len(rows) - len(judged)} argued equivalent: {_kinds(rows)}). Target: every non-equivalent mutant killed "
        f"in at least one mode, and at least {TARGET:.0%} in each mode.", "",
        "## Survivors", "", "None." if not survivors else f"{len(survivors)} mutants no mode kills and no argument "
                                                          "covers:", "", *_listed(survivors, False)]
    if wrong:
        lines += ["## Argued equivalent, yet killed (the argument is wrong)", "", *_listed(wrong, False)]
    lines += ["## Equivalent mutants, argued one by one", "",
              "Each reason is in `tools/kit_mutation_equivalents.toml`; an equivalent mutant never counts as killed.",
              "", *_listed([r for r in rows if r["reason"] is not None], True),
              "## Kills by check", "", _by_check(rows), "", "## Every mutant", "",
              markdown_table(["#", "line", "mutant", *MODES],
                             [[r["mutant"].index, r["mutant"].line, f"`{r['mutant'].key}`",
                               *(_outcome(r["modes"][mode]) for mode in MODES)] for r in rows]), ""]
    done = ("**Partial: the run was stopped before every mutant was run.** " if partial else "") + (
        f"{len(rows)} mutants; this run took {seconds / 60:.1f} min. {describe(environment(['hypothesis', 'numpy']))}")
    return "\n".join(lines + [done, ""])


# ------------------------------------------------------------------------------------------ the run
def _progress(total: int):
    """A tqdm bar on a terminal, else None (a line per mutant)."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="mutant", file=sys.stderr)


def run_pending(pending: list[Mutant], orders: dict[str, list[str]], reached: dict[str, set[int]], args,
                record) -> None:
    """Every pending mutant as one dask task; ``record(mutant, result)`` as each completes."""
    import dask
    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    from fred.evaluation.execution import open_client

    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))  # workers
    bar = _progress(len(pending))
    with ExitStack() as stack:
        # A worker ended by the watchdog fails its task for good (no retry of a mutant that loops), and holds no other
        # task then: the scheduler hands a worker one task at a time (saturation 1), so none fails with it.
        stack.enter_context(dask.config.set({"distributed.scheduler.allowed-failures": 0,
                                             "distributed.scheduler.worker-saturation": 1.0}))
        client, _ = open_client(stack, args.workers, args.scheduler, "running the kit's mutation score")
        futures = {client.submit(run_mutant, m.index, m.source, {mode: orders[mode] for mode in MODES
                                                                  if m.line in reached[mode]},
                                 args.timeout, pure=False): m for m in pending}
        for done, future in enumerate(as_completed(futures), 1):
            m = futures[future]
            try:
                result = future.result()
            except KilledWorker:
                result = {"index": m.index, "outcomes": timed_out(args.timeout)}
            record(m, result)
            future.release()  # a worker ended later must not recompute a result already recorded
            if bar is not None:
                bar.update()
            else:
                said = ", ".join(f"{mode}: {o['check'] or 'survived'}" for mode, o in result["outcomes"].items())
                print(f"[{done}/{len(pending)}] {m.index} {m.key}: {said}", file=sys.stderr, flush=True)
    if bar is not None:
        bar.close()


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster size, one thread each (default 2)")
    parser.add_argument("--scheduler", default=None, help="address of a running dask scheduler, tcp://HOST:PORT")
    parser.add_argument("--only", type=int, nargs="*", default=None, help="mutant indices to run (default: all)")
    parser.add_argument("--fresh", action="store_true", help="discard the recorded results first")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help=f"seconds per mode (default {TIMEOUT})")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.workers < 1 or args.timeout <= 0:
        parser.error("--workers must be >= 1 and --timeout > 0")
    made = mutants(SUBJECT.read_text())
    if args.only is not None and not set(args.only) <= set(range(len(made))):
        parser.error(f"--only takes mutant indices from 0 to {len(made) - 1}")
    kit = kit_fingerprint()
    if args.fresh and args.results.exists():
        args.results.unlink()
    results = load_results(args.results, kit)
    reached = {mode: reached_lines(mode) for mode in MODES}
    pending = [m for m in made if source_hash(m.source) not in results and (args.only is None or m.index in args.only)
               and any(m.line in reached[mode] for mode in MODES)]
    start = time.time()

    def record(m: Mutant, result: dict) -> None:
        row = {"kit": kit, "source": source_hash(m.source), "index": m.index, "key": m.key, **result}
        results[row["source"]] = row
        with args.results.open("a") as out:
            out.write(json.dumps(row) + "\n")

    if pending:
        run_pending(pending, {mode: cheapest_first(mode) for mode in MODES}, reached, args, record)
    rows = classify(made, results, reached, load_equivalents())
    partial = any(c["state"] == "not run" for r in rows for c in r["modes"].values())
    args.out.write_text(render(rows, SUBJECT.read_text(), time.time() - start, partial))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
